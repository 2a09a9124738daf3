import { Users } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { Spinner } from '@/client/components/ui/spinner'
import { ApiError } from '@/client/lib/api-client'
import { useOnInView } from '@/client/lib/use-in-view'
import type { Patient } from '@/shared/schemas/patients'
import type { usePatients } from '../api/get-patients'
import type { PatientsView } from '../use-patients-view'
import { PatientCard } from './patient-card'
import { PatientsTable } from './patients-table'

const count = new Intl.NumberFormat('en-IN')

/** '60 patients', '1 patient', '3 matches for "rao"'. */
export function countText(total: number, search: string): string {
  const n = count.format(total)
  if (search) return `${n} ${total === 1 ? 'match' : 'matches'} for "${search}"`
  return `${n} ${total === 1 ? 'patient' : 'patients'}`
}

function LoadingCards() {
  return (
    <div
      className="grid gap-4 lg:grid-cols-2"
      role="status"
      aria-busy="true"
      aria-label="Loading patients"
    >
      {[0, 1, 2].map((i) => (
        <Card key={i} data-testid="patient-skeleton">
          <CardContent className="space-y-3 p-5">
            <Skeleton className="h-6 w-1/2" />
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-16 w-full" />
          </CardContent>
        </Card>
      ))}
    </div>
  )
}

interface Actions {
  onView: (p: Patient) => void
  onEdit?: ((p: Patient) => void) | undefined
  onSchedule: (p: Patient) => void
}

/** The list under the toolbar: loading, error, empty, cards or table, then more or the end. */
export function PatientsResults({
  query,
  search,
  view,
  ...actions
}: Actions & { query: ReturnType<typeof usePatients>; search: string; view: PatientsView }) {
  const patients = query.data?.pages.flatMap((p) => p.items) ?? []
  const total = query.data?.pages[0]?.total ?? null
  const sentinel = useOnInView<HTMLDivElement>(() => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage()
  }, Boolean(query.hasNextPage))

  if (query.isPending) return <LoadingCards />
  if (query.isError) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <p className="font-medium">Failed to fetch patients</p>
          <p className="text-sm text-slate-600">
            {query.error instanceof ApiError ? query.error.serverMessage : query.error.message}
          </p>
          <Button variant="outline" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </CardContent>
      </Card>
    )
  }
  if (patients.length === 0) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
          <Users className="size-10 text-slate-400" aria-hidden="true" />
          <p className="text-lg font-medium">No patients found</p>
          <p className="text-sm text-slate-600">
            {search ? 'Try adjusting your search' : 'Add your first patient'}
          </p>
        </CardContent>
      </Card>
    )
  }
  const shown = total ?? patients.length
  return (
    <>
      {view === 'table' ? (
        <PatientsTable
          patients={patients}
          onView={actions.onView}
          onEdit={actions.onEdit}
          onSchedule={actions.onSchedule}
        />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {patients.map((p) => (
            <PatientCard
              key={p.id}
              patient={p}
              onView={() => actions.onView(p)}
              onEdit={actions.onEdit ? () => actions.onEdit?.(p) : undefined}
              onSchedule={() => actions.onSchedule(p)}
            />
          ))}
        </div>
      )}
      <div ref={sentinel} className="flex justify-center py-3">
        {query.isFetchingNextPage ? (
          <Spinner label="Loading more patients" className="size-6" />
        ) : !query.hasNextPage ? (
          <p
            data-testid="end-of-list"
            className="flex w-full items-center gap-3 text-sm text-slate-600 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200"
          >
            End of list: {shown === 1 ? 'the only' : `all ${count.format(shown)}`}{' '}
            {search ? (shown === 1 ? 'match' : 'matches') : shown === 1 ? 'patient' : 'patients'}{' '}
            shown
          </p>
        ) : null}
      </div>
    </>
  )
}
