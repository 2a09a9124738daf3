import { TZDate } from '@date-fns/tz'
import type { GstRate, InvoiceKind } from './billing'
import { type GstSummary, gstSummary } from './gst-summary'

/*
 * The arithmetic of an Indian invoice (issue 26), in integer paise. The server computes every
 * amount with these functions; the New Invoice dialog uses them for its preview.
 */

export interface LineInput {
  quantity: number
  unitPrice: number
  discount: number
  gstRate: GstRate | number
}

export interface LineAmounts {
  /** quantity × unitPrice. */
  gross: number
  /** gross − discount. */
  taxableValue: number
  tax: number
  /** taxableValue + tax. */
  total: number
}

/** `value × rate / 100`, rounded half up to the paisa (value ≥ 0, rate ≥ 0). */
export function percentOf(value: number, rate: number): number {
  return Math.floor((value * rate + 50) / 100)
}

export function lineAmounts(line: LineInput): LineAmounts {
  const gross = line.quantity * line.unitPrice
  const taxableValue = gross - line.discount
  const tax = percentOf(taxableValue, line.gstRate)
  return { gross, taxableValue, tax, total: taxableValue + tax }
}

export interface InvoiceTotals {
  lines: LineAmounts[]
  subtotal: number
  discountTotal: number
  /** The value of the taxable lines (GST rate above 0) after discounts. */
  taxableTotal: number
  /** The value of the exempt lines (0 %) after discounts: not taxable value. */
  exemptTotal: number
  cgst: number
  sgst: number
  igst: number
  /** The total payable: exemptTotal + taxableTotal + cgst + sgst + igst. */
  amount: number
  kind: InvoiceKind
  /** The GST figures (rate groups) the totals come from. */
  gst: GstSummary
}

/**
 * The invoice's totals. Tax is computed per line and summed; the GST figures (taxable and exempt
 * value, CGST + SGST within the state or IGST across states, per rate group) come from the one
 * shared gstSummary (src/shared/gst-summary.ts), so the stored totals, the preview, View Details
 * and the PDF agree.
 */
export function invoiceTotals(lines: readonly LineInput[], interState: boolean): InvoiceTotals {
  const amounts = lines.map(lineAmounts)
  const subtotal = amounts.reduce((s, a) => s + a.gross, 0)
  const gst = gstSummary(
    amounts.map((a, i) => ({ ...a, gstRate: (lines[i] as LineInput).gstRate })),
    interState,
  )
  return {
    lines: amounts,
    subtotal,
    discountTotal: subtotal - gst.taxableValue - gst.exemptValue,
    taxableTotal: gst.taxableValue,
    exemptTotal: gst.exemptValue,
    cgst: gst.cgst,
    sgst: gst.sgst,
    igst: gst.igst,
    amount: gst.total,
    kind: gst.kind,
    gst,
  }
}

/** A Bill of Supply when every line is exempt (0 %), else a Tax Invoice. */
export function invoiceKind(lines: readonly Pick<LineInput, 'gstRate'>[]): InvoiceKind {
  return lines.every((l) => l.gstRate === 0) ? 'bill_of_supply' : 'tax_invoice'
}

/** The Indian financial year (April–March) of a calendar date: '2026-04-01' → '2026-27'. */
export function financialYear(isoDate: string): string {
  const year = Number(isoDate.slice(0, 4))
  const month = Number(isoDate.slice(5, 7))
  const start = month >= 4 ? year : year - 1
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`
}

/** 'SMH/2026-27/000123': prefix, financial year and the sequence zero-padded to 6 digits. */
export function formatInvoiceNumber(prefix: string, fy: string, sequence: number): string {
  return `${prefix}/${fy}/${String(sequence).padStart(6, '0')}`
}

/** The calendar date ('yyyy-MM-dd') of an instant in a time zone. */
export function dateInZone(instant: Date, timeZone: string): string {
  const d = new TZDate(instant.getTime(), timeZone)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** Paise as rupees with 2 decimals and no grouping: 150050 → '1500.50'. */
export function paiseToDecimal(paise: number): string {
  const sign = paise < 0 ? '-' : ''
  const abs = Math.abs(paise)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/**
 * The UPI deep link an invoice's QR code encodes (NPCI's upi://pay), every value URL-encoded:
 * upi://pay?pa=<vpa>&pn=<payee>&am=<rupees, 2 decimals>&cu=INR&tn=<invoice number>.
 */
export function upiPayUri(input: {
  vpa: string
  payee: string
  amountPaise: number
  invoiceNumber: string
}): string {
  const e = encodeURIComponent
  return (
    `upi://pay?pa=${e(input.vpa)}&pn=${e(input.payee)}&am=${e(paiseToDecimal(input.amountPaise))}` +
    `&cu=INR&tn=${e(input.invoiceNumber)}`
  )
}
