import { and } from 'drizzle-orm'
import { formatCalendarDate, formatDate } from '../../../shared/dates'
import { paiseToDecimal } from '../../../shared/invoice-math'
import { csvLine } from '../../../shared/schemas/lead-import'
import { invoices } from '../../db/schema/billing'
import { withTenant } from '../../db/tenant'
import { hospitalBilling } from './hospital-billing'
import { type InvoiceFilter, invoiceFilter, newestFirst } from './invoices.list'
import type { BillingOptions } from './invoices.service'
import { invoiceListColumns, type InvoiceListRow, servicesOf } from './invoice-view'
import { sql } from 'drizzle-orm'

/** Rows read per tenant transaction while exporting. */
const BATCH = 1000

export const INVOICE_CSV_HEADER = [
  'Invoice number',
  'Type',
  'Status',
  'Patient',
  'Issue date',
  'Due date',
  'Amount (INR)',
  'Paid (INR)',
  'Balance (INR)',
  'Paid at',
  'Services',
  'Cancel reason',
]

const kindLabel = { tax_invoice: 'Tax Invoice', bill_of_supply: 'Bill of Supply' } as const

/**
 * The filtered invoices as CSV (newest first), written through the project's one CSV writer
 * (csvLine: RFC 4180 quoting, formulas neutralised), read in batches of 1,000 so a large
 * export does not hold one long transaction or the whole list in memory.
 */
export async function* invoicesCsv(opts: BillingOptions & InvoiceFilter): AsyncGenerator<string> {
  const { timeZone } = await hospitalBilling(opts.db, opts.hospitalId)
  yield `\uFEFF${csvLine(INVOICE_CSV_HEADER)}`
  let last: { id: string } | null = null
  for (;;) {
    const after = last
      ? sql`(${invoices.createdAt}, ${invoices.id}) < ((select created_at from invoices where id = ${last.id}), ${last.id}::uuid)`
      : undefined
    const { rows, services } = await withTenant(opts.db, opts, async (tx) => {
      const rows: InvoiceListRow[] = await tx
        .select(invoiceListColumns)
        .from(invoices)
        .where(and(invoiceFilter(opts), after))
        .orderBy(...newestFirst)
        .limit(BATCH)
      return {
        rows,
        services: await servicesOf(
          tx,
          rows.map((r) => r.id),
        ),
      }
    })
    if (rows.length === 0) return
    let chunk = ''
    for (const r of rows) {
      const balance = r.status === 'cancelled' ? 0 : r.amount - r.amountPaid
      chunk += csvLine([
        r.invoiceNumber,
        kindLabel[r.kind],
        r.status,
        r.patientName,
        formatCalendarDate(r.issueDate),
        formatCalendarDate(r.dueDate),
        paiseToDecimal(r.amount),
        paiseToDecimal(r.amountPaid),
        paiseToDecimal(balance),
        r.paidAt ? formatDate(r.paidAt, timeZone) : '',
        (services.get(r.id) ?? []).map((s) => `${s.name} (${paiseToDecimal(s.price)})`).join('; '),
        r.cancelReason ?? '',
      ])
    }
    yield chunk
    if (rows.length < BATCH) return
    last = rows.at(-1) ?? null
  }
}
