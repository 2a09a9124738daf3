import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import { formatDate, formatTime } from '@/shared/dates'
import { defaultWorkingHours, type WorkingHours } from '@/shared/scheduling'

/*
 * Appointment times between three forms: the API's ISO instants, the hospital's wall clock
 * (the 'yyyy-MM-dd' + 'HH:mm' a person types and the API takes), and the calendar's "local"
 * Dates. react-big-calendar lays events out in the browser's zone, so an instant is handed to it
 * as a local Date whose fields read the hospital's wall clock: a front desk in Pune and a
 * manager travelling in Dubai see the same 10:00 AM.
 */

/** A wall-clock moment in the hospital's zone, as the API takes it. */
export interface WallClock {
  /** 'yyyy-MM-dd' */
  date: string
  /** 'HH:mm', 24 h */
  time: string
}

const pad = (n: number) => String(n).padStart(2, '0')

/** The hospital's wall clock of an instant. */
export function zonedParts(instant: string | Date, timeZone: string): WallClock {
  const z = new TZDate(new Date(instant).getTime(), timeZone)
  return {
    date: `${z.getFullYear()}-${pad(z.getMonth() + 1)}-${pad(z.getDate())}`,
    time: `${pad(z.getHours())}:${pad(z.getMinutes())}`,
  }
}

/** A local Date whose fields read the hospital's wall clock of the instant (for the calendar). */
export function zonedWallClock(instant: string | Date, timeZone: string): Date {
  const z = new TZDate(new Date(instant).getTime(), timeZone)
  return new Date(z.getFullYear(), z.getMonth(), z.getDate(), z.getHours(), z.getMinutes())
}

/** The wall clock a calendar slot (a local Date) stands for. */
export function wallClockParts(local: Date): WallClock {
  return { date: format(local, 'yyyy-MM-dd'), time: format(local, 'HH:mm') }
}

/** The instant of a wall-clock date and time in the hospital's zone. */
export function wallClockToInstant({ date, time }: WallClock, timeZone: string): Date {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number)
  const [h = 0, min = 0] = time.split(':').map(Number)
  return new Date(new TZDate(y, m - 1, d, h, min, timeZone).getTime())
}

/** A calendar slot (local Date, hospital wall clock) as the instant it stands for. */
export function slotToInstant(local: Date, timeZone: string): Date {
  return wallClockToInstant(wallClockParts(local), timeZone)
}

/** Today's date ('yyyy-MM-dd') in the hospital's zone. */
export function todayInZone(timeZone: string, now: Date = new Date()): string {
  return zonedParts(now, timeZone).date
}

/** 'Nov 26, 2026' and '10:30 AM' in the hospital's zone (spec section 9). */
export function appointmentWhen(instant: string, timeZone: string): { date: string; time: string } {
  return { date: formatDate(instant, timeZone), time: formatTime(instant, timeZone) }
}

/** '10:30' → '10:30 AM' (a wall-clock time, no zone). */
export function formatClock(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number)
  return format(new Date(2000, 0, 1, h, m), 'h:mm a')
}

/** Whether an appointment's start has passed (No-show is offered only then). */
export function hasStarted(instant: string, now: Date = new Date()): boolean {
  return new Date(instant).getTime() <= now.getTime()
}

const toMinutes = (hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number)
  return h * 60 + m
}

type Day = keyof WorkingHours

/** A day's opening hours ('0' = Sunday), or null when the clinic is closed that day. */
export function hoursOn(hours: WorkingHours, weekday: number): [string, string] | null {
  return hours[String(weekday) as Day] ?? null
}

/**
 * The earliest opening and latest closing across the week, as local Dates on an arbitrary day
 * (the calendar's min and max); the default hours when every day is closed.
 */
export function calendarBounds(hours: WorkingHours): { min: Date; max: Date } {
  const open = Object.values(hours).filter((h): h is [string, string] => h !== null)
  const days = open.length > 0 ? open : Object.values(defaultWorkingHours).filter((h) => h !== null)
  const start = Math.min(...days.map(([from]) => toMinutes(from)))
  const end = Math.max(...days.map(([, to]) => toMinutes(to)))
  const at = (minutes: number) => new Date(2000, 0, 1, Math.floor(minutes / 60), minutes % 60)
  // The calendar's max is the last slot's start; 24:00 would be the next day.
  return { min: at(start), max: at(Math.min(end, 24 * 60 - 1)) }
}

/** Whether a slot starting at this local Date (hospital wall clock) is within working hours. */
export function isWithinHours(hours: WorkingHours, local: Date, durationMinutes = 0): boolean {
  const day = hoursOn(hours, local.getDay())
  if (!day) return false
  const start = local.getHours() * 60 + local.getMinutes()
  return start >= toMinutes(day[0]) && start + durationMinutes <= toMinutes(day[1])
}

/**
 * The times a booking may start, every `step` minutes across the week's widest hours
 * ('09:00' … '19:45'), plus `keep` (an edited appointment's own time) when it falls outside.
 */
export function startTimes(hours: WorkingHours, step = 15, keep?: string): string[] {
  const { min, max } = calendarBounds(hours)
  const first = min.getHours() * 60 + min.getMinutes()
  const last = max.getHours() * 60 + max.getMinutes()
  const times: string[] = []
  for (let m = first; m + step <= last + 1; m += step) {
    times.push(`${pad(Math.floor(m / 60))}:${pad(m % 60)}`)
  }
  if (keep && !times.includes(keep)) times.push(keep)
  return times.sort()
}

/** A time the doctor is taken (GET /api/appointments/availability), as ISO instants. */
export interface BusyTime {
  startsAt: string
  endsAt: string
}

/**
 * Which of the day's start times the doctor cannot take for `durationMinutes` (issue 40, item
 * 12): a booking from that time would overlap a taken one. The time list marks them before
 * submit; the server's clash check still decides.
 */
export function takenStartTimes(
  times: readonly string[],
  date: string,
  durationMinutes: number,
  busy: readonly BusyTime[],
  timeZone: string,
): Set<string> {
  const spans = busy.map((b) => [Date.parse(b.startsAt), Date.parse(b.endsAt)] as const)
  const taken = new Set<string>()
  for (const time of times) {
    const start = wallClockToInstant({ date, time }, timeZone).getTime()
    const end = start + durationMinutes * 60_000
    if (spans.some(([s, e]) => s < end && e > start)) taken.add(time)
  }
  return taken
}
