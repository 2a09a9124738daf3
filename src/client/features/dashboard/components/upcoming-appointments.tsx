import { Link } from 'wouter'
import { AppointmentStatusBadge } from '@/client/components/appointments/appointment-status-badge'
import { appointmentWhen } from '@/client/components/appointments/appointment-time'
import { useHospitalSchedule } from '@/client/components/appointments/api/get-hospital-schedule'
import { Button } from '@/client/components/ui/button'
import { Skeleton } from '@/client/components/ui/skeleton'
import { paths } from '@/client/paths'
import { useUpcomingAppointments } from '../api/get-upcoming-appointments'

/** The home page's Upcoming Appointments tab: the next 5, in the hospital's zone. */
export function UpcomingAppointments() {
  const query = useUpcomingAppointments()
  const { timeZone } = useHospitalSchedule()
  if (query.isPending) {
    return (
      <div
        className="space-y-3"
        role="status"
        aria-busy="true"
        aria-label="Loading upcoming appointments"
      >
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    )
  }
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-2 py-6 text-center">
        <p className="font-medium">Failed to fetch appointments</p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  if (query.data.length === 0) {
    return (
      <p className="py-6 text-center text-sm text-slate-600">No upcoming appointments scheduled.</p>
    )
  }
  return (
    <ul className="divide-y divide-slate-100">
      {query.data.map((a) => {
        const when = appointmentWhen(a.appointmentDate, timeZone)
        return (
          <li
            key={a.id}
            data-testid="upcoming-appointment"
            className="flex min-w-0 items-center gap-3 py-2.5"
          >
            <div className="min-w-0 flex-1">
              <Link
                href={paths.appointments}
                className="block truncate font-medium text-brand-800 hover:underline"
                title={a.patientName}
              >
                {a.patientName}
              </Link>
              <p className="truncate text-xs text-slate-600">
                {a.serviceType} · {when.date}, {when.time}
                {a.doctorName ? ` · ${a.doctorName}` : ''}
              </p>
            </div>
            <AppointmentStatusBadge status={a.status} />
          </li>
        )
      })}
    </ul>
  )
}
