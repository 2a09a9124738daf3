import { TZDate } from '@date-fns/tz'
import type { WorkingHours } from '../../../shared/scheduling'

const MINUTE = 60_000

/** A local wall-clock time ('09:00') on the local day of `day` in `timeZone`, as an instant. */
function at(day: TZDate, hhmm: string, timeZone: string): number {
  const [h, m] = hhmm.split(':').map(Number)
  return new TZDate(
    day.getFullYear(),
    day.getMonth(),
    day.getDate(),
    h ?? 0,
    m ?? 0,
    timeZone,
  ).getTime()
}

/**
 * The demo's times in the hospital's working hours, in its zone (issue 40): `target` when the
 * hospital is open then, else a moment shortly before the end of its last open period before
 * `target` (`slack` minutes before closing, within the period). Falls back to `target` when the
 * hospital is closed all week.
 */
export function inWorkingHours(
  target: Date,
  hours: WorkingHours,
  timeZone: string,
  slack = 25,
): Date {
  const t = target.getTime()
  for (let back = 0; back < 8; back++) {
    const day = new TZDate(t - back * 24 * 3_600_000, timeZone)
    const period = hours[String(day.getDay()) as keyof WorkingHours]
    if (!period) continue
    const open = at(day, period[0], timeZone)
    const close = at(day, period[1], timeZone)
    if (close <= open) continue
    if (back === 0 && t < open) continue
    if (t >= open && t < close) return target
    return new Date(Math.max(open, close - slack * MINUTE))
  }
  return target
}

/**
 * A time `hoursAgo` before `now` moved into working hours (never into the future): the
 * seeded history's "3 hours ago" on a Sunday becomes Saturday evening.
 */
export function workingHoursAgo(
  now: Date,
  hoursAgo: number,
  hours: WorkingHours,
  timeZone: string,
  slack?: number,
): Date {
  const moved = inWorkingHours(
    new Date(now.getTime() - hoursAgo * 3_600_000),
    hours,
    timeZone,
    slack,
  )
  return moved.getTime() > now.getTime() ? now : moved
}

/** A time `daysAhead` days from `now` at the local `hhmm` in `timeZone` (reminders' due times). */
export function localTimeIn(now: Date, daysAhead: number, hhmm: string, timeZone: string): Date {
  const day = new TZDate(now.getTime() + daysAhead * 24 * 3_600_000, timeZone)
  return new Date(at(day, hhmm, timeZone))
}
