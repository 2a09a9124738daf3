import { CalendarX, ChevronLeft, ChevronRight } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import {
  type Appointment,
  type AppointmentListWhen,
  APPOINTMENTS_PAGE_SIZE,
} from '@/shared/schemas/appointments'
import { useAppointmentsPage } from '../api/get-appointments-page'
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

/** Today and upcoming (the default) or the past, as two toggle buttons. */
export function WhenToggle({
  when,
  onChange,
}: {
  when: AppointmentListWhen
  onChange: (when: AppointmentListWhen) => void
}) {
  const choices: [AppointmentListWhen, string][] = [
    ['upcoming', 'Today & upcoming'],
    ['past', 'Past'],
  ]
  return (
    <div role="group" aria-label="Which appointments" className="inline-flex gap-1">
      {choices.map(([value, label]) => (
        <Button
          key={value}
          type="button"
          size="sm"
          variant={when === value ? 'default' : 'outline'}
          aria-pressed={when === value}
          onClick={() => onChange(value)}
        >
          {label}
        </Button>
      ))}
    </div>
  )
}

/** Previous / Next under the cards, with where the page stands. */
function Pager({
  page,
  pages,
  total,
  onPage,
}: {
  page: number
  pages: number
  total: number
  onPage: (page: number) => void
}) {
  const first = (page - 1) * APPOINTMENTS_PAGE_SIZE + 1
  const last = Math.min(page * APPOINTMENTS_PAGE_SIZE, total)
  return (
    <nav
      aria-label="Appointments pages"
      className="flex flex-wrap items-center justify-between gap-2"
    >
      <p className="text-sm text-slate-600 tabular-nums" data-testid="appointments-range">
        {first}–{last} of {total} · Page {page} of {pages}
      </p>
      <div className="flex gap-2">
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          <ChevronLeft aria-hidden="true" /> Previous
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          Next <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  )
}

/**
 * The list view (issue 40): one page of 20 cards, today and upcoming soonest first by default,
 * or the past latest first; a date filter shows that day instead. Loading skeletons, the spec's
 * load error, its empty states, or the cards and the pager.
 */
export function AppointmentsList({
  filters,
  when,
  timeZone,
  canWrite,
  onEdit,
}: {
  filters: ListFilters
  when: AppointmentListWhen
  timeZone: string
  canWrite: boolean
  onEdit: (appointment: Appointment) => void
}) {
  const [page, setPage] = useState(1)
  const query = useAppointmentsPage({
    when,
    date: filters.date || undefined,
    status: filters.status || undefined,
    page,
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
  const { items, total } = query.data
  const pages = Math.max(1, Math.ceil(total / APPOINTMENTS_PAGE_SIZE))
  if (items.length === 0 && page > 1) {
    // The last page emptied (an appointment moved away): show the one before.
    setPage(Math.min(page - 1, pages))
    return <LoadingCards />
  }
  if (items.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 py-12 text-center"
        data-testid="appointments-empty"
      >
        <CalendarX className="size-10 text-slate-400" aria-hidden="true" />
        <p className="text-lg font-medium">No appointments found</p>
        <p className="text-sm text-slate-600">
          {filtered
            ? 'Try adjusting your filters'
            : when === 'past'
              ? 'No earlier appointments'
              : 'Schedule your first appointment'}
        </p>
      </div>
    )
  }
  return (
    <div className="space-y-4" aria-busy={query.isPlaceholderData}>
      <div className="grid gap-4 lg:grid-cols-2">
        {items.map((a) => (
          <AppointmentCard
            key={a.id}
            appointment={a}
            timeZone={timeZone}
            canWrite={canWrite}
            onEdit={() => onEdit(a)}
          />
        ))}
      </div>
      {total > items.length || page > 1 ? (
        <Pager
          page={page}
          pages={pages}
          total={total}
          onPage={(p) => {
            setPage(p)
            window.scrollTo({ top: 0 })
          }}
        />
      ) : null}
    </div>
  )
}
