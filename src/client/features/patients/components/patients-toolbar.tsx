import { LayoutGrid, Rows3 } from 'lucide-react'
import { SearchBox } from '@/client/components/ui/search-box'
import { NativeSelect } from '@/client/components/ui/input'
import { cn } from '@/client/lib/cn'
import { type PatientSort, patientSorts } from '@/shared/patient-labels'
import type { PatientsView } from '../use-patients-view'

const sortLabels: Record<PatientSort, string> = { recent: 'Recently added', name: 'Name' }

function ViewToggle({
  view,
  onChange,
}: {
  view: PatientsView
  onChange: (view: PatientsView) => void
}) {
  const option = (value: PatientsView, label: string, icon: React.ReactNode) => (
    <button
      type="button"
      aria-pressed={view === value}
      onClick={() => onChange(value)}
      className={cn(
        'inline-flex h-8 items-center gap-1.5 rounded px-2.5 text-sm font-medium focus-visible:ring-2 focus-visible:ring-brand-600/40 focus-visible:outline-none [&_svg]:size-4',
        view === value
          ? 'bg-white text-slate-900 shadow-sm'
          : 'text-slate-600 hover:text-slate-900',
      )}
    >
      {icon}
      {label}
    </button>
  )
  return (
    <div role="group" aria-label="View" className="flex shrink-0 rounded-md bg-slate-100 p-1">
      {option('cards', 'Cards', <LayoutGrid aria-hidden="true" />)}
      {option('table', 'Table', <Rows3 aria-hidden="true" />)}
    </div>
  )
}

/** Search box, sort order and (on screens wide enough for the table) cards or table. */
export function PatientsToolbar({
  searchText,
  onSearchText,
  sort,
  onSort,
  view,
  onView,
  canChooseView,
}: {
  searchText: string
  onSearchText: (text: string) => void
  sort: PatientSort
  onSort: (sort: PatientSort) => void
  view: PatientsView
  onView: (view: PatientsView) => void
  canChooseView: boolean
}) {
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
      <SearchBox
        value={searchText}
        onChange={onSearchText}
        placeholder="Search patients by name, email, or phone..."
        label="Search patients"
      />
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2">
          <label htmlFor="patients-sort" className="text-sm whitespace-nowrap text-slate-700">
            Sort by
          </label>
          <NativeSelect
            id="patients-sort"
            value={sort}
            onChange={(e) => onSort(e.target.value as PatientSort)}
            className="w-auto"
          >
            {patientSorts.map((s) => (
              <option key={s} value={s}>
                {sortLabels[s]}
              </option>
            ))}
          </NativeSelect>
        </div>
        {canChooseView ? <ViewToggle view={view} onChange={onView} /> : null}
      </div>
    </div>
  )
}
