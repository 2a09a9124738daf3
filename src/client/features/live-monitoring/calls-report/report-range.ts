import { TZDate } from '@date-fns/tz'
import { format, subDays } from 'date-fns'

/** The report's ranges: today, the last 7 and 30 days, each up to today in the zone. */
export const reportPresets = [
  { id: 'today', label: 'Today', days: 1 },
  { id: '7', label: 'Last 7 days', days: 7 },
  { id: '30', label: 'Last 30 days', days: 30 },
] as const
export type ReportPreset = (typeof reportPresets)[number]['id']

export function presetRange(
  preset: ReportPreset,
  now: Date,
  timeZone: string,
): { from: string; to: string } {
  const days = reportPresets.find((p) => p.id === preset)?.days ?? 7
  const today = new TZDate(now.getTime(), timeZone)
  return {
    from: format(subDays(today, days - 1), 'yyyy-MM-dd'),
    to: format(today, 'yyyy-MM-dd'),
  }
}
