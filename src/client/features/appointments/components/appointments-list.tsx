import { CalendarX } from 'lucide-react'
import { useAppointments } from '@/client/components/appointments/api/get-appointments'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import type { Appointment } from '@/shared/schemas/appointments'
import { AppointmentCard } from './appointment-card'
import type { ListFilters } from './appointments-filters'

function LoadingCards() {
  return (
    <div
      className="grid gap-4 lg:grid-cols-2"
      role="status"
      aria-busy="true"
      aria-label="Loading appointments"
    >
      {[0, 1, 2].map((i) => (
        <Card key={i} data-testid="appointment-skeleton">
          <CardContent className="space-y-3 p-5">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-8 w-2/3" />
          </CardContent>
        </Card>
      ))}
    </div>
  )
}

/** The list view: loading skeletons, the spec's load error, its empty states, or the cards. */
export function AppointmentsList({
  filters,
  timeZone,
  canWrite,
  onEdit,
}: {
  filters: ListFilters
  timeZone: string
  canWrite: boolean
  onEdit: (appointment: Appointment) => void
}) {
  const query = useAppointments({
    date: filters.date || undefined,
    status: filters.status || undefined,
  })
  const filtered = filters.date !== '' || filters.status !== ''

  if (query.isPending) return <LoadingCards />
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-2 py-10 text-center">
        <p className="font-medium">Failed to fetch appointments</p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  if (query.data.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 py-12 text-center"
        data-testid="appointments-empty"
      >
        <CalendarX className="size-10 text-slate-400" aria-hidden="true" />
        <p className="text-lg font-medium">No appointments found</p>
        <p className="text-sm text-slate-600">
          {filtered ? 'Try adjusting your filters' : 'Schedule your first appointment'}
        </p>
      </div>
    )
  }
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {query.data.map((a) => (
        <AppointmentCard
          key={a.id}
          appointment={a}
          timeZone={timeZone}
          canWrite={canWrite}
          onEdit={() => onEdit(a)}
        />
      ))}
    </div>
  )
}
