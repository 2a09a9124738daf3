import { ListChecks } from 'lucide-react'
import { SearchBox } from '@/client/components/ui/search-box'
import { Button } from '@/client/components/ui/button'
import { NativeSelect } from '@/client/components/ui/input'
import {
  type LeadSource,
  leadSourceLabels,
  leadSources,
  type LeadStatus,
  leadStatuses,
  leadStatusLabels,
} from '@/shared/lead-labels'

/** Status, source and text search ('all' = no filter), and the bulk-selection toggle. */
export function LeadsFilters({
  status,
  onStatus,
  source,
  onSource,
  searchText,
  onSearchText,
  selecting,
  onSelecting,
}: {
  status: LeadStatus | 'all'
  onStatus: (s: LeadStatus | 'all') => void
  source: LeadSource | 'all'
  onSource: (s: LeadSource | 'all') => void
  searchText: string
  onSearchText: (text: string) => void
  selecting: boolean
  /** Absent when the user's role may not change leads (bulk actions are changes). */
  onSelecting?: ((on: boolean) => void) | undefined
}) {
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
      <SearchBox
        value={searchText}
        onChange={onSearchText}
        placeholder="Search leads by name, email, or phone..."
        label="Search leads"
      />
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-center">
        <NativeSelect
          aria-label="Filter by status"
          value={status}
          onChange={(e) => onStatus(e.target.value as LeadStatus | 'all')}
          className="sm:w-40"
        >
          <option value="all">All statuses</option>
          {leadStatuses.map((s) => (
            <option key={s} value={s}>
              {leadStatusLabels[s]}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label="Filter by source"
          value={source}
          onChange={(e) => onSource(e.target.value as LeadSource | 'all')}
          className="sm:w-40"
        >
          <option value="all">All sources</option>
          {leadSources.map((s) => (
            <option key={s} value={s}>
              {leadSourceLabels[s]}
            </option>
          ))}
        </NativeSelect>
        {onSelecting ? (
          <Button
            variant={selecting ? 'secondary' : 'outline'}
            aria-pressed={selecting}
            onClick={() => onSelecting(!selecting)}
            className="col-span-2 sm:col-span-1"
          >
            <ListChecks aria-hidden="true" />
            Select leads
          </Button>
        ) : null}
      </div>
    </div>
  )
}
