import { CalendarDays, Clock, Globe, Stethoscope, Timer } from 'lucide-react'
import type { ReactNode } from 'react'
import { AppointmentStatusBadge } from '@/client/components/appointments/appointment-status-badge'
import { appointmentWhen } from '@/client/components/appointments/appointment-time'
import { Card, CardContent } from '@/client/components/ui/card'
import { PhoneNumber } from '@/client/components/phone/phone-number'
import type { Appointment } from '@/shared/schemas/appointments'
import { AppointmentActions } from './appointment-actions'

function Line({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm text-slate-700">
      <span className="text-slate-500" aria-hidden="true">
        {icon}
      </span>
      <span className="sr-only">{label}: </span>
      <span className="min-w-0 truncate">{children}</span>
    </div>
  )
}

/**
 * Spec card: patient name, status badge, service type, date 'MMM dd, yyyy' and time 'h:mm a'
 * in the hospital's zone, duration in minutes, optional doctor and notes; the "Booked online"
 * mark for a self-booking.
 */
export function AppointmentCard({
  appointment: a,
  timeZone,
  canWrite,
  onEdit,
}: {
  appointment: Appointment
  timeZone: string
  canWrite: boolean
  onEdit: () => void
}) {
  const when = appointmentWhen(a.appointmentDate, timeZone)
  return (
    <Card
      data-testid="appointment-card"
      data-appointment-id={a.id}
      className="flex min-w-0 flex-col"
    >
      <CardContent className="flex flex-1 flex-col gap-3 p-4 sm:p-5">
        <div className="flex min-w-0 items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 className="truncate text-base font-semibold" title={a.patientName}>
              {a.patientName}
            </h2>
            <p className="text-xs text-slate-600 tabular-nums">
              <PhoneNumber value={a.patientPhone} />
            </p>
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1">
            <AppointmentStatusBadge status={a.status} />
            {a.source === 'online' ? (
              <span className="inline-flex items-center gap-1 text-xs font-medium text-brand-800">
                <Globe className="size-3.5" aria-hidden="true" /> Booked online
              </span>
            ) : null}
          </div>
        </div>
        <p className="text-sm font-medium text-slate-900 [overflow-wrap:anywhere]">
          {a.serviceType}
        </p>
        <div className="grid gap-1.5 sm:grid-cols-2">
          <Line icon={<CalendarDays className="size-4" />} label="Date">
            {when.date}
          </Line>
          <Line icon={<Clock className="size-4" />} label="Time">
            {when.time}
          </Line>
          <Line icon={<Timer className="size-4" />} label="Duration">
            {a.duration} minutes
          </Line>
          {a.doctorName ? (
            <Line icon={<Stethoscope className="size-4" />} label="Doctor">
              {a.doctorName}
            </Line>
          ) : null}
        </div>
        {a.notes ? (
          <p
            className="line-clamp-3 rounded-md bg-slate-50 p-2 text-sm whitespace-pre-line text-slate-700"
            title={a.notes}
          >
            {a.notes}
          </p>
        ) : null}
        {a.status === 'cancelled' && a.cancelReason ? (
          <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">
            Reason: {a.cancelReason}
          </p>
        ) : null}
        {canWrite ? (
          <div className="mt-auto pt-1">
            <AppointmentActions
              appointment={a}
              when={`${when.date} at ${when.time}`}
              onEdit={onEdit}
            />
          </div>
        ) : null}
      </CardContent>
    </Card>
  )
}
