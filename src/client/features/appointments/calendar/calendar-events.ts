import { addDays, format, startOfDay, startOfWeek } from 'date-fns'
import {
  wallClockToInstant,
  zonedWallClock,
} from '@/client/components/appointments/appointment-time'
import type { Appointment } from '@/shared/schemas/appointments'
import { canMoveAppointment } from '@/shared/scheduling'

export type CalendarView = 'day' | 'week'

/** One appointment as the calendar draws it: local Dates reading the hospital's wall clock. */
export interface CalendarEvent {
  id: string
  title: string
  start: Date
  end: Date
  appointment: Appointment
}

/**
 * The instants a view shows ([from, to) for GET /api/appointments): the day, or the week from
 * Sunday (spec: weeks start on Sunday), as midnights in the hospital's zone.
 */
export function visibleRange(
  view: CalendarView,
  localDate: Date,
  timeZone: string,
): { from: string; to: string } {
  const first =
    view === 'week' ? startOfWeek(localDate, { weekStartsOn: 0 }) : startOfDay(localDate)
  const after = addDays(first, view === 'week' ? 7 : 1)
  const midnight = (d: Date) =>
    wallClockToInstant({ date: format(d, 'yyyy-MM-dd'), time: '00:00' }, timeZone)
  return { from: midnight(first).toISOString(), to: midnight(after).toISOString() }
}

/** The appointments the calendar shows (cancelled ones free their slot and are left out). */
export function toEvents(appointments: readonly Appointment[], timeZone: string): CalendarEvent[] {
  return appointments
    .filter((a) => a.status !== 'cancelled')
    .map((a) => ({
      id: a.id,
      title: `${a.patientName} · ${a.serviceType}${a.doctorName ? ` · ${a.doctorName}` : ''}`,
      start: zonedWallClock(a.appointmentDate, timeZone),
      end: zonedWallClock(a.endsAt, timeZone),
      appointment: a,
    }))
}

/** Whether an event can still be moved (scheduled or confirmed). */
export function isMovable(event: CalendarEvent): boolean {
  return canMoveAppointment(event.appointment.status, 'cancelled')
}

/** An event moved to a new start keeps its length. */
export function moved(event: CalendarEvent, start: Date): CalendarEvent {
  const length = event.end.getTime() - event.start.getTime()
  return { ...event, start, end: new Date(start.getTime() + length) }
}
