import type { RevenueMonth } from '@/shared/schemas/billing'

const monthNames = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
]
const longMonthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

export interface RevenueRow {
  month: string
  /** 'Nov 26', under the bar. */
  label: string
  /** 'November 2026', in the tooltip and the table. */
  longLabel: string
  /** Paise. */
  paid: number
  /** Rupees, for the axis scale only (amounts show through formatMoney). */
  rupees: number
}

/** The API's months ('yyyy-MM', oldest first) as chart rows. */
export function toRevenueRows(series: readonly RevenueMonth[]): RevenueRow[] {
  return series.map(({ month, paid }) => {
    const [year = '', mm = '1'] = month.split('-')
    const i = Math.min(Math.max(Number(mm) - 1, 0), 11)
    return {
      month,
      label: `${monthNames[i]} ${year.slice(2)}`,
      longLabel: `${longMonthNames[i]} ${year}`,
      paid,
      rupees: paid / 100,
    }
  })
}

/** A short axis tick in Indian units: ₹950, ₹12K, ₹3.5L, ₹1.2Cr. */
export function shortRupees(rupees: number): string {
  const trim = (n: number) => String(Number(n.toFixed(1)))
  if (rupees >= 1e7) return `₹${trim(rupees / 1e7)}Cr`
  if (rupees >= 1e5) return `₹${trim(rupees / 1e5)}L`
  if (rupees >= 1e3) return `₹${trim(rupees / 1e3)}K`
  return `₹${trim(rupees)}`
}
