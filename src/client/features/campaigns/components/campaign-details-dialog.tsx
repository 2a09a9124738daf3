import { Component, type FormEvent, lazy, type ReactNode, Suspense, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Input } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { campaignStatusLabels, campaignTypeLabels } from '@/shared/campaign-labels'
import { formatMoney } from '@/shared/money'
import type { Campaign, CampaignDetail } from '@/shared/schemas/campaigns'
import { useCampaign } from '../api/get-campaigns'
import { useRecordCampaignStats } from '../api/save-campaign'
import {
  audienceTags,
  countFormat,
  formatDay,
  RUPEES_MESSAGE,
  rupeesToPaise,
} from '../campaign-format'

/** recharts comes in its own chunk, when a details dialog first opens. */
const CampaignChart = lazy(() => import('./campaign-chart'))

class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? (
      <p role="alert" className="text-sm text-red-800">
        The chart could not be loaded. Reload the page to try again.
      </p>
    ) : (
      this.props.children
    )
  }
}

function RecordSpend({ campaign, today }: { campaign: Campaign; today: string }) {
  const [date, setDate] = useState(today)
  const [amount, setAmount] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const record = useRecordCampaignStats()
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const paise = rupeesToPaise(amount)
    if (paise === null) return setErrors({ amount: RUPEES_MESSAGE })
    setErrors({})
    try {
      await record.mutateAsync({ id: campaign.id, input: { spend: { date, amount: paise } } })
      toast.success('Campaign updated successfully')
      setAmount('')
    } catch (error) {
      if (error instanceof ApiError)
        setErrors(
          Object.fromEntries(
            Object.entries(error.fieldErrors).map(([p, m]) => [p.replace('spend.', ''), m]),
          ),
        )
      toast.error(
        'Failed to update campaign',
        error instanceof ApiError ? error.serverMessage : String(error),
      )
    }
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3">
      <h3 className="font-semibold">Record spend</h3>
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <Field id="spend-date" label="Day" error={errors.date}>
          <Input
            id="spend-date"
            type="date"
            value={date}
            max={today}
            onChange={(e) => setDate(e.target.value)}
          />
        </Field>
        <Field id="spend-amount" label="Spent that day (₹)" error={errors.amount}>
          <Input
            id="spend-amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </Field>
        <Button type="submit" loading={record.isPending} loadingText="Saving...">
          Save spend
        </Button>
      </div>
    </form>
  )
}

function Details({
  detail,
  canWrite,
  today,
}: {
  detail: CampaignDetail
  canWrite: boolean
  today: string
}) {
  const c = detail.campaign
  const facts: [string, string][] = [
    ['Status', campaignStatusLabels[c.status]],
    ['Type', campaignTypeLabels[c.type]],
    ['Runs', `${formatDay(c.startDate)} – ${c.endDate ? formatDay(c.endDate) : 'open-ended'}`],
    ['Budget', formatMoney(c.budget)],
    ['Spent', formatMoney(c.spent)],
    ['Leads', countFormat.format(c.leads)],
    ['Conversions', `${countFormat.format(c.conversions)} (${c.conversionRate.toFixed(1)}%)`],
    ['Cost per lead', formatMoney(c.costPerLead)],
    ['Revenue from conversions', formatMoney(c.revenue)],
    ['Return on spend', c.roi === null ? '—' : `${c.roi.toFixed(1)}%`],
    [
      'Counts leads of',
      [c.leadCampaign, c.metaFormId && `Meta form ${c.metaFormId}`].filter(Boolean).join('; '),
    ],
  ]
  const tags = audienceTags(c.targetAudience)
  return (
    <div className="space-y-5">
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm min-[480px]:grid-cols-2">
        {facts.map(([k, v]) => (
          <div key={k} className="min-w-0">
            <dt className="text-slate-600">{k}</dt>
            <dd className="font-medium tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      {tags.length ? <p className="text-sm">Audience: {tags.join(' · ')}</p> : null}
      {!c.countedFromLeads ? (
        <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700">
          No lead carries this campaign yet: leads count here once their campaign is “
          {c.leadCampaign}”{c.metaFormId ? ' or they come from its Meta form' : ''}.
        </p>
      ) : null}
      <section aria-labelledby="campaign-days-title" className="space-y-2">
        <h3 id="campaign-days-title" className="font-semibold">
          Leads and spend per day
        </h3>
        <ChartBoundary>
          <Suspense fallback={<Skeleton className="h-64 w-full" />}>
            <CampaignChart series={detail.series} />
          </Suspense>
        </ChartBoundary>
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-brand-700">Show the figures</summary>
          <div
            role="region"
            aria-label="Leads and spend, by day"
            tabIndex={0}
            className="mt-2 max-h-60 overflow-auto rounded-md border border-slate-200"
          >
            <table className="w-full text-left tabular-nums">
              <thead className="sticky top-0 bg-slate-50">
                <tr>
                  <th scope="col" className="px-2 py-1">
                    Day
                  </th>
                  <th scope="col" className="px-2 py-1 text-right">
                    Leads
                  </th>
                  <th scope="col" className="px-2 py-1 text-right">
                    Spend
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.series.map((d) => (
                  <tr key={d.date} className="border-t border-slate-100">
                    <th scope="row" className="px-2 py-1 font-normal">
                      {formatDay(d.date)}
                    </th>
                    <td className="px-2 py-1 text-right">{d.leads}</td>
                    <td className="px-2 py-1 text-right">{formatMoney(d.spend)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>
      {canWrite ? <RecordSpend campaign={c} today={today} /> : null}
    </div>
  )
}

/** View Details: the figures, the per-day chart and (for admins) recording a day's spend. */
export function CampaignDetailsDialog({
  campaign,
  canWrite,
  today,
  onClose,
}: {
  campaign: Campaign | null
  canWrite: boolean
  today: string
  onClose: () => void
}) {
  const detail = useCampaign(campaign?.id ?? null)
  return (
    <Dialog
      open={campaign !== null}
      onOpenChange={(o) => (o ? null : onClose())}
      title={campaign?.name ?? 'Campaign'}
      className="max-w-3xl"
    >
      {detail.data ? (
        <Details detail={detail.data} canWrite={canWrite} today={today} />
      ) : detail.isError ? (
        <InlineLoadError
          message="Failed to load the campaign."
          onRetry={() => void detail.refetch()}
        />
      ) : (
        <Skeleton className="h-64 w-full" />
      )}
    </Dialog>
  )
}
