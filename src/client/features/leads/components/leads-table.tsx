import { PhoneNumber } from '@/client/components/phone/phone-number'
import { leadSourceLabels } from '@/shared/lead-labels'
import type { Lead } from '@/shared/schemas/leads'
import { lastContactText } from '../lead-format'
import { ContactLimitBadge, LeadAvatar, PriorityBadge, StatusBadge } from './lead-badges'
import { LeadRowActions, type RowActionHandlers } from './lead-row-actions'

const th = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase'
const td = 'px-3 py-2 align-middle'

export interface Selection {
  /** Undefined while bulk selection is off. */
  selected: ReadonlySet<string> | undefined
  onToggle: (id: string) => void
  onToggleAll: () => void
}

export function SelectAllBox({ leads, selection }: { leads: Lead[]; selection: Selection }) {
  const selected = selection.selected
  const n = selected ? leads.filter((l) => selected.has(l.id)).length : 0
  return (
    <input
      type="checkbox"
      aria-label="Select all leads"
      className="size-4 accent-brand-700"
      checked={n > 0 && n === leads.length}
      ref={(el) => {
        if (el) el.indeterminate = n > 0 && n < leads.length
      }}
      onChange={selection.onToggleAll}
    />
  )
}

export function SelectBox({ lead, selection }: { lead: Lead; selection: Selection }) {
  return (
    <input
      type="checkbox"
      aria-label={`Select ${lead.name}`}
      className="size-4 accent-brand-700"
      checked={selection.selected?.has(lead.id) ?? false}
      onChange={() => selection.onToggle(lead.id)}
    />
  )
}

/**
 * The Recent Leads table (spec columns). Columns drop out as the list narrows (a container
 * query: the sidebar takes width too); Lead Info, Status and the actions always stay.
 */
export function LeadsTable({
  leads,
  selection,
  actions,
}: {
  leads: Lead[]
  selection: Selection
  actions: RowActionHandlers
}) {
  const selecting = selection.selected !== undefined
  return (
    <div className="@container overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">Recent Leads</caption>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            {selecting ? (
              <th scope="col" className="w-10 px-3 py-2">
                <SelectAllBox leads={leads} selection={selection} />
              </th>
            ) : null}
            <th scope="col" className={th}>
              Lead Info
            </th>
            <th scope="col" className={`${th} w-28`}>
              Status
            </th>
            <th scope="col" className={`${th} hidden w-32 @4xl:table-cell`}>
              Source
            </th>
            <th scope="col" className={`${th} hidden w-24 @3xl:table-cell`}>
              Priority
            </th>
            <th scope="col" className={`${th} hidden w-36 @2xl:table-cell`}>
              Last Contact
            </th>
            <th scope="col" className={`${th} w-[11.5rem] text-right`}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {leads.map((lead) => (
            <tr key={lead.id} data-testid="lead-row" className="hover:bg-slate-50">
              {selecting ? (
                <td className="px-3 py-2 align-middle">
                  <SelectBox lead={lead} selection={selection} />
                </td>
              ) : null}
              <td className={td}>
                <div className="flex min-w-0 items-center gap-3">
                  <LeadAvatar name={lead.name} />
                  <div className="min-w-0">
                    <button
                      type="button"
                      onClick={() => actions.onMore(lead)}
                      title={lead.name}
                      className="block max-w-full truncate rounded-sm text-left font-medium text-brand-800 hover:underline"
                    >
                      {lead.name}
                    </button>
                    <p className="truncate text-xs text-slate-600" title={lead.email ?? undefined}>
                      {lead.email ?? 'No email'}
                    </p>
                    <p className="truncate text-xs text-slate-700 tabular-nums">
                      <PhoneNumber value={lead.phone} />
                    </p>
                  </div>
                </div>
              </td>
              <td className={td}>
                <span className="flex flex-wrap gap-1">
                  <StatusBadge status={lead.status} />
                  <ContactLimitBadge lead={lead} />
                </span>
              </td>
              <td className={`${td} hidden truncate text-slate-700 @4xl:table-cell`}>
                {leadSourceLabels[lead.source]}
              </td>
              <td className={`${td} hidden @3xl:table-cell`}>
                <PriorityBadge priority={lead.priority} />
              </td>
              <td className={`${td} hidden truncate text-slate-700 @2xl:table-cell`}>
                {lastContactText(lead.lastContactAt)}
              </td>
              <td className="px-2 py-1 align-middle">
                <LeadRowActions lead={lead} {...actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
