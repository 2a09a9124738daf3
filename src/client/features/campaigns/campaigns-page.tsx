import { Megaphone, Plus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { NativeSelect } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { type CampaignAction, campaignStatusLabels } from '@/shared/campaign-labels'
import type { Campaign } from '@/shared/schemas/campaigns'
import { type CampaignStatusFilter, useCampaigns } from './api/get-campaigns'
import { useMoveCampaign } from './api/save-campaign'
import { CampaignCard } from './components/campaign-card'
import { CampaignDetailsDialog } from './components/campaign-details-dialog'
import { CampaignFormDialog } from './components/campaign-form-dialog'
import { CampaignSummaryCards } from './components/campaign-summary-cards'

/** Today in India as yyyy-MM-dd (the default start date and spend day). */
const todayInIndia = () => new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10)

/**
 * /campaigns (spec §2 Marketing Campaigns, issue 28): the four summary cards, the status filter
 * and the campaign cards. New, Edit, the status moves and recording spend need campaigns:write
 * (admins) and are hidden without it; the server refuses them too.
 */
export function CampaignsPage() {
  const [status, setStatus] = useState<CampaignStatusFilter>('all')
  const list = useCampaigns(status)
  const canWrite = useCan('campaigns:write')
  const move = useMoveCampaign()
  const [editing, setEditing] = useState<Campaign | null>(null)
  const [creating, setCreating] = useState(false)
  const [viewing, setViewing] = useState<Campaign | null>(null)
  const today = todayInIndia()

  const onMove = async (c: Campaign, action: CampaignAction) => {
    try {
      await move.mutateAsync({ id: c.id, action })
      toast.success('Campaign updated successfully')
    } catch (error) {
      toast.error(
        'Failed to update campaign',
        error instanceof ApiError ? error.serverMessage : String(error),
      )
    }
  }

  const campaigns = list.data?.campaigns ?? []
  return (
    <div className="min-w-0 space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Marketing Campaigns</h1>
        {canWrite ? (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" /> New Campaign
          </Button>
        ) : null}
      </div>
      <CampaignSummaryCards summary={list.data?.summary} />
      <section aria-label="Campaigns" className="space-y-4">
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor="campaign-status" className="text-sm font-medium">
            Status
          </label>
          <NativeSelect
            id="campaign-status"
            className="w-auto"
            value={status}
            onChange={(e) => setStatus(e.target.value as CampaignStatusFilter)}
          >
            <option value="all">All Statuses</option>
            {(['active', 'paused', 'completed', 'draft'] as const).map((s) => (
              <option key={s} value={s}>
                {campaignStatusLabels[s]}
              </option>
            ))}
          </NativeSelect>
        </div>
        {list.isPending ? (
          <div
            className="grid gap-4 lg:grid-cols-2"
            aria-busy="true"
            aria-label="Loading campaigns"
          >
            <Skeleton className="h-64" />
            <Skeleton className="h-64" />
          </div>
        ) : list.isError ? (
          <InlineLoadError
            message="Failed to load campaigns."
            onRetry={() => void list.refetch()}
          />
        ) : campaigns.length === 0 ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
              <Megaphone aria-hidden="true" className="size-10 text-slate-400" />
              <p className="text-lg font-semibold">No campaigns found</p>
              <p className="text-sm text-slate-600">
                {status !== 'all'
                  ? 'Try adjusting your filters'
                  : 'Create your first marketing campaign'}
              </p>
            </CardContent>
          </Card>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {campaigns.map((c) => (
              <li key={c.id} className="min-w-0">
                <CampaignCard
                  campaign={c}
                  onView={setViewing}
                  onEdit={canWrite ? setEditing : undefined}
                  onMove={canWrite ? (x, a) => void onMove(x, a) : undefined}
                  moving={move.isPending}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      <CampaignFormDialog
        open={creating || editing !== null}
        campaign={editing}
        today={today}
        onClose={() => {
          setCreating(false)
          setEditing(null)
        }}
      />
      <CampaignDetailsDialog
        campaign={viewing}
        canWrite={canWrite}
        today={today}
        onClose={() => setViewing(null)}
      />
    </div>
  )
}
