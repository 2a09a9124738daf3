import { TZDate } from '@date-fns/tz'
import { DEFAULT_TIME_ZONE } from './dates'

/**
 * Age in whole years from a calendar date of birth (YYYY-MM-DD): the difference in
 * years, minus one if this year's birthday has not yet come. Null for a missing or
 * unreadable date or one in the future. "Today" is the calendar day in the hospital's time
 * zone, as for an estimated date of birth (estimatedDateOfBirth), never the browser's or the
 * server's: between 18:30 and midnight UTC the two are different days.
 */
export function ageInYears(
  dateOfBirth: string | null | undefined,
  now: Date = new Date(),
  timeZone: string = DEFAULT_TIME_ZONE,
): number | null {
  if (!dateOfBirth) return null
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth)
  if (!match) return null
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const real = new Date(Date.UTC(y, m - 1, d))
  if (real.getUTCFullYear() !== y || real.getUTCMonth() !== m - 1 || real.getUTCDate() !== d)
    return null
  const today = new TZDate(now.getTime(), timeZone)
  const ty = today.getFullYear()
  const tm = today.getMonth() + 1
  const td = today.getDate()
  let age = ty - y
  if (tm < m || (tm === m && td < d)) age -= 1
  return age < 0 ? null : age
}
