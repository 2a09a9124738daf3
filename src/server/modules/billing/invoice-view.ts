import { and, asc, eq, inArray } from 'drizzle-orm'
import { amountInWords } from '../../../shared/amount-in-words'
import { invoiceGstSummary } from '../../../shared/gst-summary'
import type { Invoice, InvoiceDetail } from '../../../shared/schemas/billing'
import type { Tx } from '../../db/client'
import { invoiceLines, invoices, payments } from '../../db/schema/billing'
import { patients } from '../../db/schema/patients'
import { notFound } from '../../http/app-error'
import type { HospitalBilling } from './hospital-billing'

export type InvoiceRow = typeof invoices.$inferSelect
type LineRow = typeof invoiceLines.$inferSelect

/** The columns a list item needs (no notes, no tax breakdown). */
export const invoiceListColumns = {
  id: invoices.id,
  invoiceNumber: invoices.invoiceNumber,
  patientId: invoices.patientId,
  patientName: invoices.patientName,
  amount: invoices.amount,
  amountPaid: invoices.amountPaid,
  status: invoices.status,
  kind: invoices.kind,
  issueDate: invoices.issueDate,
  dueDate: invoices.dueDate,
  createdAt: invoices.createdAt,
  paidAt: invoices.paidAt,
  cancelReason: invoices.cancelReason,
}
export type InvoiceListRow = Pick<InvoiceRow, keyof typeof invoiceListColumns>

export function toInvoice(
  row: InvoiceListRow,
  services: { name: string; price: number }[],
): Invoice {
  return {
    id: row.id,
    invoiceNumber: row.invoiceNumber,
    patientId: row.patientId,
    patientName: row.patientName,
    amount: row.amount,
    amountPaid: row.amountPaid,
    balance: row.status === 'cancelled' ? 0 : row.amount - row.amountPaid,
    status: row.status,
    kind: row.kind,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    services,
    cancelReason: row.cancelReason,
  }
}

/** Each invoice's lines as the spec's services (name and the line's total), by line number. */
export async function servicesOf(
  tx: Tx,
  invoiceIds: readonly string[],
): Promise<Map<string, { name: string; price: number }[]>> {
  const map = new Map<string, { name: string; price: number }[]>()
  if (invoiceIds.length === 0) return map
  const rows = await tx
    .select({
      invoiceId: invoiceLines.invoiceId,
      name: invoiceLines.name,
      price: invoiceLines.total,
    })
    .from(invoiceLines)
    .where(inArray(invoiceLines.invoiceId, [...invoiceIds]))
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.lineNo))
  for (const r of rows) {
    const list = map.get(r.invoiceId) ?? []
    list.push({ name: r.name, price: r.price })
    map.set(r.invoiceId, list)
  }
  return map
}

/** The whole invoice in the caller's tenant transaction; 404 when it is not this hospital's. */
export async function loadInvoiceDetail(
  tx: Tx,
  id: string,
  hospital: HospitalBilling,
  opts: { forUpdate?: boolean } = {},
): Promise<{ row: InvoiceRow; detail: InvoiceDetail }> {
  const query = tx.select().from(invoices).where(eq(invoices.id, id))
  const [row] = opts.forUpdate ? await query.for('update') : await query
  if (!row) throw notFound('Invoice')
  const lines: LineRow[] = await tx
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, id))
    .orderBy(asc(invoiceLines.lineNo))
  const paid = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.invoiceId, id)))
    .orderBy(asc(payments.paidAt), asc(payments.id))
  const [patient] = row.patientId
    ? await tx
        .select({ address: patients.address })
        .from(patients)
        .where(eq(patients.id, row.patientId))
    : []
  return { row, detail: toDetail(row, lines, paid, hospital, patient?.address ?? null) }
}

function toDetail(
  row: InvoiceRow,
  lines: LineRow[],
  paid: (typeof payments.$inferSelect)[],
  hospital: HospitalBilling,
  patientAddress: string | null,
): InvoiceDetail {
  // The GST figures from the lines through the one shared function (not the stored columns, which
  // a restored older backup may have computed otherwise): the same as the client and the PDF.
  const gst = invoiceGstSummary({
    lines,
    patientStateCode: row.patientStateCode,
    hospital: { stateCode: hospital.stateCode },
    cgst: row.cgst,
    igst: row.igst,
  })
  return {
    ...toInvoice(
      row,
      lines.map((l) => ({ name: l.name, price: l.total })),
    ),
    lines: lines.map((l) => ({
      lineNo: l.lineNo,
      serviceId: l.serviceId,
      name: l.name,
      code: l.code,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      discount: l.discount,
      gstRate: l.gstRate,
      taxableValue: l.taxableValue,
      tax: l.tax,
      total: l.total,
    })),
    subtotal: row.subtotal,
    discountTotal: row.discountTotal,
    taxableTotal: gst.taxableValue,
    exemptTotal: gst.exemptValue,
    cgst: gst.cgst,
    sgst: gst.sgst,
    igst: gst.igst,
    amountInWords: amountInWords(row.amount),
    payments: paid.map((p) => ({
      id: p.id,
      amount: p.amount,
      method: p.method,
      reference: p.reference,
      paidAt: p.paidAt.toISOString(),
    })),
    notes: row.notes,
    patientStateCode: row.patientStateCode,
    patientAddress: patientAddress?.trim() ? patientAddress.trim() : null,
    hospital: {
      name: hospital.name,
      address: hospital.address,
      gstin: hospital.gstin,
      stateCode: hospital.stateCode,
      upiId: hospital.upiId,
    },
  }
}
