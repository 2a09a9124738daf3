import { Component, lazy, type ReactNode, Suspense } from 'react'
import { Skeleton } from '@/client/components/ui/skeleton'
import type { AppointmentsCalendarProps } from './appointments-calendar'

/** react-big-calendar and its styles come in their own chunk, when the calendar view opens. */
const AppointmentsCalendar = lazy(() => import('./appointments-calendar'))

/** A chunk that fails to load (offline, or a new release removed it) says so. */
class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <p
        role="alert"
        className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800"
      >
        The calendar could not be loaded. Reload the page to try again.
      </p>
    )
  }
}

function CalendarSkeleton() {
  return (
    <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading calendar">
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-[60vh] w-full" />
    </div>
  )
}

export function LazyAppointmentsCalendar(props: AppointmentsCalendarProps) {
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={<CalendarSkeleton />}>
        <AppointmentsCalendar {...props} />
      </Suspense>
    </ChunkErrorBoundary>
  )
}
