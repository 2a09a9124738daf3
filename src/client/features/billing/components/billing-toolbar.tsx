import { NativeSelect } from '@/client/components/ui/input'
import { SearchBox } from '@/client/components/ui/search-box'
import { invoiceStatuses } from '@/shared/billing'
import type { StatusFilter } from '../api/get-invoices'
import { invoiceStatusLabels } from '../billing-labels'

/** The spec's status filter (All Statuses, Pending, Paid, Overdue, Cancelled) and a search. */
export function BillingToolbar({
  status,
  onStatus,
  searchText,
  onSearchText,
}: {
  status: StatusFilter
  onStatus: (s: StatusFilter) => void
  searchText: string
  onSearchText: (text: string) => void
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <SearchBox
        value={searchText}
        onChange={onSearchText}
        placeholder="Search by invoice number or patient name..."
        label="Search invoices"
      />
      <NativeSelect
        aria-label="Filter by status"
        value={status}
        onChange={(e) => onStatus(e.target.value as StatusFilter)}
        className="sm:w-44"
      >
        <option value="all">All Statuses</option>
        {invoiceStatuses.map((s) => (
          <option key={s} value={s}>
            {invoiceStatusLabels[s]}
          </option>
        ))}
      </NativeSelect>
    </div>
  )
}
