import { TZDate } from '@date-fns/tz'
import { addDays, format } from 'date-fns'
import { formatTime } from '../../../shared/dates'
import type { BookingDay } from '../../../shared/schemas/booking'
import { BOOKING_SLOT_STEP_MINUTES } from '../../../shared/schemas/booking'
import { BOOKING_DAYS_AHEAD, type WorkingHours } from '../../../shared/scheduling'

/**
 * The booking page's calendar arithmetic, pure: the next BOOKING_DAYS_AHEAD days in the
 * hospital's time zone, the slots of one day (a 15-minute grid within working hours), and
 * which of them some offered doctor has free. Busy times come from booking.queries.ts.
 */

export interface Interval {
  start: Date
  end: Date
}

const MINUTE = 60_000

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number]
  return h * 60 + m
}

/** 'yyyy-MM-dd' of an instant in `timeZone`. */
export function dateIn(instant: Date, timeZone: string): string {
  return format(new TZDate(instant.getTime(), timeZone), 'yyyy-MM-dd')
}

/** The instant of a wall-clock time (minutes after midnight) on `date` in `timeZone`. */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const local = new TZDate(y, m - 1, d, Math.floor(minutes / 60), minutes % 60, timeZone)
  return new Date(local.getTime())
}

/** The day's opening hours ([open, close] in minutes), or null when closed. */
export function hoursOn(date: string, hours: WorkingHours): [number, number] | null {
  const weekday = String(new Date(`${date}T00:00:00Z`).getUTCDay()) as keyof WorkingHours
  const day = hours[weekday]
  if (!day) return null
  const [open, close] = [minutesOf(day[0]), minutesOf(day[1])]
  return close > open ? [open, close] : null
}

/** Today and the following days (BOOKING_DAYS_AHEAD in all) in the hospital's zone. */
export function bookingDays(now: Date, timeZone: string, hours: WorkingHours): BookingDay[] {
  const today = dateIn(now, timeZone)
  const base = new Date(`${today}T12:00:00Z`)
  return Array.from({ length: BOOKING_DAYS_AHEAD }, (_, i) => {
    const day = addDays(base, i)
    const date = day.toISOString().slice(0, 10)
    const label = format(new TZDate(day.getTime(), 'UTC'), 'EEE, MMM d')
    return { date, label, open: !!hoursOn(date, hours) }
  })
}

/** Whether `date` is one of the days the page offers. */
export function withinBookingDays(date: string, now: Date, timeZone: string): boolean {
  const first = dateIn(now, timeZone)
  const last = addDays(new Date(`${first}T12:00:00Z`), BOOKING_DAYS_AHEAD - 1)
    .toISOString()
    .slice(0, 10)
  return date >= first && date <= last
}

/** Every slot start of `date` for a service of `duration` minutes (past ones included). */
export function gridStarts(
  date: string,
  timeZone: string,
  hours: WorkingHours,
  duration: number,
): Date[] {
  const open = hoursOn(date, hours)
  if (!open) return []
  const starts: Date[] = []
  for (let m = open[0]; m + duration <= open[1]; m += BOOKING_SLOT_STEP_MINUTES) {
    starts.push(zonedInstant(date, m, timeZone))
  }
  return starts
}

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end

/** Whether a doctor with these busy intervals is free for [start, start + duration). */
export function isFree(busy: readonly Interval[], start: Date, duration: number): boolean {
  const slot = { start, end: new Date(start.getTime() + duration * MINUTE) }
  return !busy.some((b) => overlaps(b, slot))
}

/**
 * The free slots of `date`: on the grid, after `now`, and free for at least one of the doctors
 * (busy: each doctor's appointments and live holds that day).
 */
export function freeSlots(opts: {
  date: string
  timeZone: string
  hours: WorkingHours
  duration: number
  now: Date
  doctorIds: readonly string[]
  busy: ReadonlyMap<string, readonly Interval[]>
}): { startsAt: string; label: string }[] {
  return gridStarts(opts.date, opts.timeZone, opts.hours, opts.duration)
    .filter((start) => start > opts.now)
    .filter((start) =>
      opts.doctorIds.some((id) => isFree(opts.busy.get(id) ?? [], start, opts.duration)),
    )
    .map((start) => ({ startsAt: start.toISOString(), label: formatTime(start, opts.timeZone) }))
}

/** Why a requested start is not a bookable slot (null: it is one). */
export function slotProblem(opts: {
  start: Date
  timeZone: string
  hours: WorkingHours
  duration: number
  now: Date
}): string | null {
  const { start, timeZone } = opts
  if (start <= opts.now) return 'This time has passed. Please choose a later slot.'
  const date = dateIn(start, timeZone)
  if (!withinBookingDays(date, opts.now, timeZone)) {
    return `Slots can be booked up to ${BOOKING_DAYS_AHEAD} days ahead.`
  }
  const onGrid = gridStarts(date, timeZone, opts.hours, opts.duration).some(
    (s) => s.getTime() === start.getTime(),
  )
  return onGrid
    ? null
    : 'The clinic does not take bookings at this time. Please choose a listed slot.'
}
