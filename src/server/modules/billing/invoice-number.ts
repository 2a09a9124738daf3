import { sql } from 'drizzle-orm'
import { financialYear, formatInvoiceNumber } from '../../../shared/invoice-math'
import type { Tx } from '../../db/client'

export interface AllocatedNumbers {
  financialYear: string
  /** The first of `count` consecutive sequences. */
  first: number
  /** '<prefix>/<fy>/<6-digit sequence>' of sequence `first + i`. */
  numberAt: (i: number) => string
}

/**
 * Takes the next `count` invoice numbers of the hospital's financial year (of `issueDate`, a
 * date in the hospital's zone) in the caller's tenant transaction. The upsert locks the
 * (hospital, year) counter row until that transaction ends, so concurrent creators queue behind
 * it and each gets the next number; a rolled-back invoice rolls its number back: gapless. One
 * statement, no session state: safe on PgBouncer in transaction mode.
 */
export async function allocateInvoiceNumbers(
  tx: Tx,
  opts: { hospitalId: string; prefix: string; issueDate: string; count?: number },
): Promise<AllocatedNumbers> {
  const count = opts.count ?? 1
  const fy = financialYear(opts.issueDate)
  const result = (await tx.execute(sql`
    insert into invoice_counters (hospital_id, financial_year, last_number)
    values (${opts.hospitalId}, ${fy}, ${count})
    on conflict (hospital_id, financial_year)
    do update set last_number = invoice_counters.last_number + ${count}
    returning last_number`)) as unknown as { rows: { last_number: number }[] }
  const last = Number(result.rows[0]?.last_number)
  if (!Number.isInteger(last)) throw new Error('invoice counter: no number returned')
  const first = last - count + 1
  return {
    financialYear: fy,
    first,
    numberAt: (i) => formatInvoiceNumber(opts.prefix, fy, first + i),
  }
}
