import { Card, CardContent } from '@/client/components/ui/card'
import { PhoneNumber } from '@/client/components/phone/phone-number'
import { leadSourceLabels } from '@/shared/lead-labels'
import type { Lead } from '@/shared/schemas/leads'
import { lastContactText } from '../lead-format'
import { ContactLimitBadge, LeadAvatar, PriorityBadge, StatusBadge } from './lead-badges'
import { LeadRowActions, type RowActionHandlers } from './lead-row-actions'
import { type Selection, SelectBox } from './leads-table'

/** One lead on a phone: the table's columns stacked in a card. */
export function LeadCard({
  lead,
  selection,
  actions,
}: {
  lead: Lead
  selection: Selection
  actions: RowActionHandlers
}) {
  return (
    <Card data-testid="lead-card">
      <CardContent className="space-y-2 p-3">
        <div className="flex min-w-0 items-start gap-3">
          {selection.selected ? (
            <div className="pt-2.5">
              <SelectBox lead={lead} selection={selection} />
            </div>
          ) : null}
          <LeadAvatar name={lead.name} />
          <div className="min-w-0 flex-1">
            <button
              type="button"
              onClick={() => actions.onMore(lead)}
              title={lead.name}
              className="block max-w-full truncate rounded-sm text-left font-medium text-brand-800 hover:underline"
            >
              {lead.name}
            </button>
            <p className="truncate text-xs text-slate-600">{lead.email ?? 'No email'}</p>
            <p className="text-xs text-slate-700 tabular-nums">
              <PhoneNumber value={lead.phone} />
            </p>
          </div>
          <StatusBadge status={lead.status} />
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
          <span>{leadSourceLabels[lead.source]}</span>
          <PriorityBadge priority={lead.priority} />
          <ContactLimitBadge lead={lead} />
          <span>Last contact: {lastContactText(lead.lastContactAt)}</span>
        </div>
        <LeadRowActions lead={lead} {...actions} />
      </CardContent>
    </Card>
  )
}
