import { Megaphone, Target, TrendingUp, Users } from 'lucide-react'
import type { ReactNode } from 'react'
import { Card, CardContent } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formatMoney, formatRupees } from '@/shared/money'
import type { CampaignSummary } from '@/shared/schemas/campaigns'
import { countFormat } from '../campaign-format'

function Figure({
  label,
  icon,
  value,
  note,
}: {
  label: string
  icon: ReactNode
  value: ReactNode
  note: ReactNode
}) {
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-3 p-4 sm:p-5">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-600">{label}</p>
          <div className="mt-1 text-xl font-bold tabular-nums sm:text-2xl">{value}</div>
          <div className="mt-1 text-xs text-slate-600">{note}</div>
        </div>
        <span aria-hidden="true" className="shrink-0 rounded-md bg-slate-100 p-2 text-slate-600">
          {icon}
        </span>
      </CardContent>
    </Card>
  )
}

/** The spec's four cards over every campaign of the hospital, whatever the filter. */
export function CampaignSummaryCards({ summary }: { summary: CampaignSummary | undefined }) {
  const v = (render: (s: CampaignSummary) => ReactNode) =>
    summary ? render(summary) : <Skeleton className="mt-1 h-7 w-24" />
  return (
    <section
      aria-label="Campaign summary"
      className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 lg:grid-cols-4"
    >
      <Figure
        label="Total Budget"
        icon={<Target className="size-5" />}
        // Whole rupees: budgets are set in rupees, and '.00' made the figure wrap on phones.
        value={v((s) => formatRupees(Math.round(s.totalBudget / 100)))}
        note={v((s) => `${formatMoney(s.totalSpent)} spent`)}
      />
      <Figure
        label="Total Leads"
        icon={<Users className="size-5" />}
        value={v((s) => countFormat.format(s.totalLeads))}
        note={v((s) => `${formatMoney(s.avgCostPerLead)} avg. cost per lead`)}
      />
      <Figure
        label="Conversions"
        icon={<TrendingUp className="size-5" />}
        value={v((s) => countFormat.format(s.conversions))}
        note={v((s) => `${s.conversionRate.toFixed(1)}% conversion rate`)}
      />
      <Figure
        label="Active Campaigns"
        icon={<Megaphone className="size-5" />}
        value={v((s) => countFormat.format(s.activeCampaigns))}
        note={v((s) => `${s.activeCampaigns} of ${s.totalCampaigns} campaigns`)}
      />
    </section>
  )
}
