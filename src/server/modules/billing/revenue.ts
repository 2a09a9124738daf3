import { TZDate } from '@date-fns/tz'
import { addMonths, format } from 'date-fns'
import { gte, sql } from 'drizzle-orm'
import type { RevenueMonth } from '../../../shared/schemas/billing'
import { payments } from '../../db/schema/billing'
import { withTenant } from '../../db/tenant'
import { hospitalBilling } from './hospital-billing'
import type { BillingOptions } from './invoices.service'

/** Months shown by the revenue chart. */
export const REVENUE_MONTHS = 12

/**
 * Money received per calendar month of the hospital's zone over the last 12 months (this one
 * included), oldest first, months without payments as 0.
 */
export async function revenueByMonth(opts: BillingOptions): Promise<RevenueMonth[]> {
  const { timeZone } = await hospitalBilling(opts.db, opts.hospitalId)
  const now = new TZDate((opts.now ?? new Date()).getTime(), timeZone)
  const firstMonth = new TZDate(
    now.getFullYear(),
    now.getMonth() - (REVENUE_MONTHS - 1),
    1,
    timeZone,
  )
  const month = sql<string>`to_char(${payments.paidAt} at time zone ${timeZone}, 'YYYY-MM')`
  const rows = await withTenant(opts.db, opts, (tx) =>
    tx
      .select({ month, paid: sql<string>`sum(${payments.amount})` })
      .from(payments)
      .where(gte(payments.paidAt, new Date(firstMonth.getTime())))
      // By position: the zone is a parameter, so the expression cannot be repeated.
      .groupBy(sql`1`),
  )
  const byMonth = new Map(rows.map((r) => [r.month, Number(r.paid)]))
  return Array.from({ length: REVENUE_MONTHS }, (_, i) => {
    const key = format(addMonths(firstMonth, i), 'yyyy-MM')
    return { month: key, paid: byMonth.get(key) ?? 0 }
  })
}
