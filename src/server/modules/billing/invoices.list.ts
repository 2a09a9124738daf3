import { and, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm'
import type { InvoiceStatus } from '../../../shared/billing'
import {
  INVOICE_PAGE_SIZE,
  type InvoiceList,
  type InvoiceSummary,
} from '../../../shared/schemas/billing'
import { invoices } from '../../db/schema/billing'
import { withTenant } from '../../db/tenant'
import type { BillingOptions } from './invoices.service'
import { invoiceListColumns, type InvoiceListRow, servicesOf, toInvoice } from './invoice-view'

export interface InvoiceFilter {
  status?: InvoiceStatus | undefined
  search?: string | undefined
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A LIKE pattern that matches `text` literally anywhere. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** The SQL of a status filter and a search (invoice number or billed name, anywhere in it). */
export function invoiceFilter(filter: InvoiceFilter): SQL | undefined {
  const search = filter.search?.trim()
  return and(
    filter.status ? eq(invoices.status, filter.status) : undefined,
    search
      ? or(
          ilike(invoices.invoiceNumber, containsPattern(search)),
          ilike(invoices.patientName, containsPattern(search)),
        )
      : undefined,
  )
}

/** Newest first: (created_at, id) descending, the order of the list indexes. */
export const newestFirst = [desc(invoices.createdAt), desc(invoices.id)]

/**
 * Rows after the cursor's invoice in newest-first order. A cursor that names none of this
 * hospital's invoices makes the subquery null, so the page is empty.
 */
function afterCursor(cursor: string): SQL | null {
  if (!UUID.test(cursor)) return null
  return sql`(${invoices.createdAt}, ${invoices.id}) < ((select created_at from invoices where id = ${cursor}), ${cursor}::uuid)`
}

/** A page of the hospital's invoices, newest first, filtered; nextCursor is the last id. */
export async function listInvoices(
  opts: BillingOptions &
    InvoiceFilter & { limit?: number | undefined; cursor?: string | undefined },
): Promise<InvoiceList> {
  const limit = opts.limit ?? INVOICE_PAGE_SIZE
  const after = opts.cursor ? afterCursor(opts.cursor) : undefined
  if (after === null) return { invoices: [], nextCursor: null }
  return withTenant(opts.db, opts, async (tx) => {
    const rows: InvoiceListRow[] = await tx
      .select(invoiceListColumns)
      .from(invoices)
      .where(and(invoiceFilter(opts), after))
      .orderBy(...newestFirst)
      .limit(limit + 1)
    const page = rows.slice(0, limit)
    const services = await servicesOf(
      tx,
      page.map((r) => r.id),
    )
    const last = page.at(-1)
    return {
      invoices: page.map((r) => toInvoice(r, services.get(r.id) ?? [])),
      nextCursor: rows.length > limit && last ? last.id : null,
    }
  })
}

/**
 * The spec's four cards over all the hospital's invoices: money received (every payment on an
 * invoice; a cancelled one has none), the balances still due on pending and on overdue
 * invoices, and the count. One aggregate over the hospital's rows.
 */
export async function invoiceSummary(opts: BillingOptions): Promise<InvoiceSummary> {
  const [row] = await withTenant(opts.db, opts, (tx) =>
    tx
      .select({
        totalRevenue: sql<string>`coalesce(sum(${invoices.amountPaid}), 0)`,
        pending: sql<string>`coalesce(sum(${invoices.amount} - ${invoices.amountPaid}) filter (where ${invoices.status} = 'pending'), 0)`,
        overdue: sql<string>`coalesce(sum(${invoices.amount} - ${invoices.amountPaid}) filter (where ${invoices.status} = 'overdue'), 0)`,
        totalInvoices: sql<string>`count(*)`,
      })
      .from(invoices),
  )
  return {
    totalRevenue: Number(row?.totalRevenue ?? 0),
    pending: Number(row?.pending ?? 0),
    overdue: Number(row?.overdue ?? 0),
    totalInvoices: Number(row?.totalInvoices ?? 0),
  }
}
