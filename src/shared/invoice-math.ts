import { TZDate } from '@date-fns/tz'
import type { GstRate, InvoiceKind } from './billing'

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
  taxableTotal: number
  cgst: number
  sgst: number
  igst: number
  /** The total payable: taxableTotal + cgst + sgst + igst. */
  amount: number
  kind: InvoiceKind
}

/**
 * The invoice's totals. Tax is computed per line and summed. Within the hospital's state
 * (`interState` false) it is split into CGST and SGST halves; when the sum is an odd number of
 * paise, CGST takes the odd paisa (cgst = ⌈tax / 2⌉, sgst = ⌊tax / 2⌋), so cgst + sgst is exactly
 * the tax and the total is exact. Across states the whole tax is IGST.
 */
export function invoiceTotals(lines: readonly LineInput[], interState: boolean): InvoiceTotals {
  const amounts = lines.map(lineAmounts)
  const sum = (pick: (a: LineAmounts) => number) => amounts.reduce((s, a) => s + pick(a), 0)
  const subtotal = sum((a) => a.gross)
  const taxableTotal = sum((a) => a.taxableValue)
  const tax = sum((a) => a.tax)
  const cgst = interState ? 0 : Math.ceil(tax / 2)
  const sgst = interState ? 0 : tax - cgst
  const igst = interState ? tax : 0
  return {
    lines: amounts,
    subtotal,
    discountTotal: subtotal - taxableTotal,
    taxableTotal,
    cgst,
    sgst,
    igst,
    amount: taxableTotal + tax,
    kind: invoiceKind(lines),
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
