import { useState } from 'react'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { NativeSelect } from '@/client/components/ui/input'
import { SearchBox } from '@/client/components/ui/search-box'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { hospitalListStatuses, subscriptionStatusLabels } from '@/shared/schemas/platform'
import { useHospitals } from '../api/hospitals'
import { EditHospitalDialog } from './edit-hospital-dialog'
import { HospitalCard } from './hospital-card'
import { ViewHospitalDialog } from './view-hospital-dialog'

/** Hospitals: search by name or email, the status filter, and a card per hospital. */
export function HospitalsTab() {
  const [text, setText] = useState('')
  const [status, setStatus] = useState('all')
  const q = useDebouncedValue(text.trim(), 250)
  const query = useHospitals({ q, status })
  const [viewing, setViewing] = useState<string | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  const items = query.data?.items ?? []

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2">
        <SearchBox
          value={text}
          onChange={setText}
          placeholder="Search by name or email"
          label="Search hospitals"
        />
        <NativeSelect
          aria-label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          className="w-full sm:w-44"
        >
          {hospitalListStatuses.map((s) => (
            <option key={s} value={s}>
              {s === 'all' ? 'All statuses' : subscriptionStatusLabels[s]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {query.isError ? (
        <InlineLoadError message="Failed to load hospitals." onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <div className="space-y-3" aria-label="Loading hospitals">
          <Skeleton className="h-36 w-full" />
          <Skeleton className="h-36 w-full" />
        </div>
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          {q || status !== 'all'
            ? 'No hospitals match these filters.'
            : 'No hospitals yet. Add the first one.'}
        </p>
      ) : (
        <ul className="grid gap-3 xl:grid-cols-2" aria-label="Hospitals">
          {items.map((h) => (
            <li key={h.id} className="min-w-0">
              <HospitalCard
                hospital={h}
                onView={() => setViewing(h.id)}
                onEdit={() => setEditing(h.id)}
              />
            </li>
          ))}
        </ul>
      )}
      <ViewHospitalDialog id={viewing} onClose={() => setViewing(null)} />
      <EditHospitalDialog id={editing} onClose={() => setEditing(null)} />
    </div>
  )
}
