import { TZDate } from '@date-fns/tz'
import { format, formatDistanceStrict } from 'date-fns'

export const DEFAULT_TIME_ZONE = 'Asia/Kolkata'
export const DATE_FORMAT = 'MMM dd, yyyy'
export const TIME_FORMAT = 'h:mm a'

type DateInput = Date | string | number

function inZone(value: DateInput, timeZone: string): TZDate {
  return new TZDate(new Date(value).getTime(), timeZone)
}

/** 'Nov 22, 2026' in the hospital's time zone. */
export function formatDate(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return format(inZone(value, timeZone), DATE_FORMAT)
}

/** '3:05 PM' in the hospital's time zone. */
export function formatTime(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return format(inZone(value, timeZone), TIME_FORMAT)
}

/** '5 minutes ago'. */
export function formatAgo(value: DateInput, now: Date = new Date()): string {
  const then = new Date(value)
  if (then.getTime() > now.getTime()) return 'just now'
  return formatDistanceStrict(then, now, { addSuffix: true, roundingMethod: 'floor' }).replace(
    /^0 seconds ago$/,
    'just now',
  )
}

/** A calendar date (YYYY-MM-DD, no time zone) shown as 'MMM dd, yyyy'. */
export function formatCalendarDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number)
  return format(new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1), DATE_FORMAT)
}
