import { type InvoiceTotals, invoiceTotals, type LineInput } from '@/shared/invoice-math'

/**
 * What the New Invoice dialog shows while it is being filled in: a preview only. The server
 * computes the real amounts (it never trusts a client's) with the same shared maths
 * (src/shared/invoice-math.ts), so the person at the desk sees what the patient will pay.
 */
export type PreviewLine = LineInput
export type InvoicePreview = InvoiceTotals

/**
 * The totals of the lines as typed so far. A discount over its line's amount (which the form
 * refuses) counts as the whole amount here, so a half-typed line never shows a negative total.
 */
export function previewInvoice(lines: readonly PreviewLine[], interState: boolean): InvoicePreview {
  return invoiceTotals(
    lines.map((l) => ({ ...l, discount: Math.min(l.discount, l.quantity * l.unitPrice) })),
    interState,
  )
}

/** IGST or CGST + SGST: the shared rule (src/shared/gst-summary.ts). */
export { isInterState } from '@/shared/gst-summary'
