import { DEFAULT_TIME_ZONE, formatDate, formatTime } from '@/shared/dates'

/** '9:05 AM' today (in the hospital's time zone), else 'Nov 26, 2026, 9:05 AM'. */
export function formatWhen(value: string, now: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const time = formatTime(value, timeZone)
  return formatDate(value, timeZone) === formatDate(now, timeZone)
    ? time
    : `${formatDate(value, timeZone)}, ${time}`
}
