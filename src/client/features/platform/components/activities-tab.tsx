import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { NativeSelect } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formatDate, formatTime } from '@/shared/dates'
import {
  ACTIVITIES_PAGE_SIZE,
  type PlatformAction,
  platformActionLabels,
  platformActions,
} from '@/shared/schemas/platform'
import { useActivities } from '../api/activities'
import { useHospitals } from '../api/hospitals'

/** Activities: the platform audit trail, newest first, by page, filtered by hospital and action. */
export function ActivitiesTab() {
  const [hospitalId, setHospitalId] = useState('')
  const [action, setAction] = useState('')
  const [page, setPage] = useState(0)
  const query = useActivities({ hospitalId, action, page })
  const hospitals = useHospitals({ q: '', status: 'all' })
  const items = query.data?.items ?? []
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / ACTIVITIES_PAGE_SIZE))
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2">
        <NativeSelect
          aria-label="Hospital"
          value={hospitalId}
          onChange={(e) => {
            setHospitalId(e.target.value)
            setPage(0)
          }}
          className="w-full sm:w-64"
        >
          <option value="">All hospitals</option>
          {(hospitals.data?.items ?? []).map((h) => (
            <option key={h.id} value={h.id}>
              {h.name}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label="Action"
          value={action}
          onChange={(e) => {
            setAction(e.target.value)
            setPage(0)
          }}
          className="w-full sm:w-64"
        >
          <option value="">All actions</option>
          {platformActions.map((a) => (
            <option key={a} value={a}>
              {platformActionLabels[a]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {query.isError ? (
        <InlineLoadError
          message="Failed to load activities."
          onRetry={() => void query.refetch()}
        />
      ) : query.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          No activity recorded{hospitalId || action ? ' for these filters' : ' yet'}.
        </p>
      ) : (
        <ol
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          aria-label="Activities"
        >
          {items.map((a) => (
            <li key={a.id} className="space-y-1 p-3 sm:p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-medium">
                  {platformActionLabels[a.action as PlatformAction] ?? a.action}
                </p>
                <time dateTime={a.createdAt} className="text-xs text-slate-600">
                  {formatDate(a.createdAt)} {formatTime(a.createdAt)}
                </time>
              </div>
              <p className="text-sm text-slate-700">{a.description}</p>
              {a.actorName ? <p className="text-xs text-slate-600">By {a.actorName}</p> : null}
            </li>
          ))}
        </ol>
      )}
      {pages > 1 ? (
        <nav aria-label="Activity pages" className="flex flex-wrap items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={page === 0}
            onClick={() => setPage((p) => p - 1)}
          >
            Previous
          </Button>
          <span className="text-sm text-slate-600">
            Page {page + 1} of {pages}
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={page + 1 >= pages}
            onClick={() => setPage((p) => p + 1)}
          >
            Next
          </Button>
        </nav>
      ) : null}
    </div>
  )
}
