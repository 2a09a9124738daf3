import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import {
  type CampaignAction,
  campaignStatusLabels,
  campaignTypeLabels,
} from '@/shared/campaign-labels'
import { formatMoney } from '@/shared/money'
import type { Campaign } from '@/shared/schemas/campaigns'
import { audienceTags, campaignStatusVariants, countFormat, formatDate } from '../campaign-format'

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  )
}

/**
 * One campaign (spec §2): name, status and type badges, created date, budget bar (spent over
 * budget, capped at 100 %), leads, conversions, rate, cost per lead, audience tags and buttons.
 * Edit and the moves are there only for who may change campaigns (onEdit/onMove undefined).
 */
export function CampaignCard({
  campaign: c,
  onView,
  onEdit,
  onMove,
  moving,
}: {
  campaign: Campaign
  onView: (c: Campaign) => void
  onEdit?: ((c: Campaign) => void) | undefined
  onMove?: ((c: Campaign, action: CampaignAction) => void) | undefined
  moving: boolean
}) {
  const used = c.budget > 0 ? Math.min(100, Math.round((c.spent / c.budget) * 100)) : 0
  const tags = audienceTags(c.targetAudience)
  return (
    <Card>
      <CardContent className="space-y-4 p-4 sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="text-lg font-semibold [overflow-wrap:anywhere]">{c.name}</h2>
            <p className="text-xs text-slate-600">Created {formatDate(c.createdAt)}</p>
          </div>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant={campaignStatusVariants[c.status]} data-status={c.status}>
              {campaignStatusLabels[c.status]}
            </Badge>
            <Badge variant="outline">{campaignTypeLabels[c.type]}</Badge>
          </div>
        </div>
        <div>
          <div className="flex flex-wrap justify-between gap-x-3 text-sm">
            <span className="text-slate-600">Budget</span>
            <span className="tabular-nums">
              {formatMoney(c.spent)} of {formatMoney(c.budget)}
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={`Budget used by ${c.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={used}
            className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100"
          >
            <div className="h-full rounded-full bg-brand-600" style={{ width: `${used}%` }} />
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          <Stat label="Leads" value={countFormat.format(c.leads)} />
          <Stat label="Conversions" value={countFormat.format(c.conversions)} />
          <Stat label="Conversion rate" value={`${c.conversionRate.toFixed(1)}%`} />
          <Stat label="Cost per lead" value={formatMoney(c.costPerLead)} />
        </dl>
        {tags.length > 0 ? (
          <ul aria-label="Target audience" className="flex flex-wrap gap-1.5">
            {tags.map((t) => (
              <li key={t}>
                <Badge variant="secondary">{t}</Badge>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => onView(c)}>
            View Details
          </Button>
          {onEdit ? (
            <Button variant="outline" size="sm" onClick={() => onEdit(c)}>
              Edit Campaign
            </Button>
          ) : null}
          {onMove && c.status === 'draft' ? (
            <Button size="sm" disabled={moving} onClick={() => onMove(c, 'activate')}>
              Activate
            </Button>
          ) : null}
          {onMove && c.status === 'active' ? (
            <Button
              variant="outline"
              size="sm"
              disabled={moving}
              onClick={() => onMove(c, 'pause')}
            >
              Pause
            </Button>
          ) : null}
          {onMove && c.status === 'paused' ? (
            <Button size="sm" disabled={moving} onClick={() => onMove(c, 'resume')}>
              Resume
            </Button>
          ) : null}
          {onMove && (c.status === 'active' || c.status === 'paused') ? (
            <Button
              variant="outline"
              size="sm"
              disabled={moving}
              onClick={() => onMove(c, 'complete')}
            >
              Complete
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  )
}
