import { Skeleton } from '@/client/components/ui/skeleton'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { useAppointments } from './api/get-appointments'
import { useHospitalSchedule } from './api/get-hospital-schedule'
import { AppointmentStatusBadge } from './appointment-status-badge'
import { appointmentWhen } from './appointment-time'
import { ScheduleAppointmentButton } from './schedule-appointment-button'

/** A patient's appointments (GET /api/appointments?patientId=), for the patient details. */
export function PatientAppointments({
  patient,
}: {
  patient: { id: string; name: string; phone: string }
}) {
  const query = useAppointments({ patientId: patient.id })
  const { timeZone } = useHospitalSchedule()
  return (
    <section
      aria-labelledby="patient-appointments-heading"
      className="min-w-0 space-y-3 rounded-lg border border-slate-200 p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="patient-appointments-heading" className="text-base font-semibold">
          Appointments
        </h3>
        <ScheduleAppointmentButton
          size="sm"
          variant="outline"
          label="Schedule Appointment"
          patient={patient}
        />
      </div>
      {query.isPending ? (
        <div className="space-y-2" role="status" aria-busy="true" aria-label="Loading appointments">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : query.isError ? (
        <InlineLoadError
          message="Failed to fetch appointments"
          onRetry={() => void query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <p className="text-sm text-slate-600">No appointments yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="patient-appointments">
          {[...query.data].reverse().map((a) => {
            const when = appointmentWhen(a.appointmentDate, timeZone)
            return (
              <li key={a.id} className="flex min-w-0 items-start justify-between gap-3 py-2">
                <div className="min-w-0">
                  <p className="text-sm font-medium">
                    {when.date}, {when.time}
                  </p>
                  <p className="truncate text-xs text-slate-600">
                    {a.serviceType}
                    {a.doctorName ? ` · ${a.doctorName}` : ''} · {a.duration} min
                  </p>
                </div>
                <AppointmentStatusBadge status={a.status} />
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
