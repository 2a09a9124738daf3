import type { InvoiceKind } from './billing'
import { gstStateName } from './gst-states'

/*
 * The GST figures of an invoice (issue 40 item 3), in integer paise: one function that the
 * server (stored totals, View Details' API answer, the PDF) and the client (the New Invoice
 * preview, View Details) all use, so they cannot disagree.
 *
 * Under GST "taxable value" is the value of taxable supplies only: exempt lines (0 %, e.g.
 * healthcare services by a clinical establishment, SAC 9993) are the "exempt value", never part of
 * the taxable value. Tax is shown per rate group (Rule 46(k)-(l) of the CGST Rules: rate and
 * amount of each tax).
 */

/** One line after its discount: its value, GST rate (0 = exempt) and tax in paise. */
export interface GstLine {
  taxableValue: number
  gstRate: number
  tax: number
}

/** The lines of one GST rate: CGST + SGST at half the rate each, or IGST at the whole rate. */
export interface GstRateGroup {
  rate: number
  taxableValue: number
  tax: number
  cgstRate: number
  cgst: number
  sgstRate: number
  sgst: number
  igstRate: number
  igst: number
}

export interface GstSummary {
  kind: InvoiceKind
  interState: boolean
  /** The value of the taxable lines (rate > 0), after discounts. */
  taxableValue: number
  /** The value of the exempt lines (rate 0), after discounts. */
  exemptValue: number
  /** Rate groups of the taxable lines, lowest rate first. */
  groups: GstRateGroup[]
  cgst: number
  sgst: number
  igst: number
  tax: number
  /** exemptValue + taxableValue + tax. */
  total: number
}

/**
 * The GST summary of an invoice's lines. Within the hospital's state (`interState` false) each
 * rate group's tax is split into CGST and SGST halves; a group whose tax is an odd number of
 * paise gives its odd paisa to CGST and SGST in turn (first such group to CGST), so the totals are
 * CGST = ⌈tax / 2⌉ and SGST = ⌊tax / 2⌋ and each group's halves still add up to its tax. Across
 * states the whole tax is IGST.
 */
export function gstSummary(lines: readonly GstLine[], interState: boolean): GstSummary {
  const byRate = new Map<number, { taxableValue: number; tax: number }>()
  let exemptValue = 0
  for (const l of lines) {
    if (l.gstRate === 0) {
      exemptValue += l.taxableValue
      continue
    }
    const g = byRate.get(l.gstRate) ?? { taxableValue: 0, tax: 0 }
    g.taxableValue += l.taxableValue
    g.tax += l.tax
    byRate.set(l.gstRate, g)
  }
  let oddSeen = 0
  const groups = [...byRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([rate, g]): GstRateGroup => {
      if (interState) {
        return {
          rate,
          ...g,
          cgstRate: 0,
          cgst: 0,
          sgstRate: 0,
          sgst: 0,
          igstRate: rate,
          igst: g.tax,
        }
      }
      const half = Math.floor(g.tax / 2)
      const odd = g.tax % 2
      const toCgst = odd === 1 && oddSeen % 2 === 0 ? 1 : 0
      oddSeen += odd
      const cgst = half + toCgst
      return {
        rate,
        ...g,
        cgstRate: rate / 2,
        cgst,
        sgstRate: rate / 2,
        sgst: g.tax - cgst,
        igstRate: 0,
        igst: 0,
      }
    })
  const sum = (pick: (g: GstRateGroup) => number) => groups.reduce((s, g) => s + pick(g), 0)
  const taxableValue = sum((g) => g.taxableValue)
  const tax = sum((g) => g.tax)
  return {
    kind: groups.length === 0 ? 'bill_of_supply' : 'tax_invoice',
    interState,
    taxableValue,
    exemptValue,
    groups,
    cgst: sum((g) => g.cgst),
    sgst: sum((g) => g.sgst),
    igst: sum((g) => g.igst),
    tax,
    total: exemptValue + taxableValue + tax,
  }
}

/**
 * IGST when the patient's state is known and differs from the hospital's. An unset patient state
 * means the hospital's own; an unknown hospital state cannot differ.
 */
export function isInterState(
  patientStateCode: string | null | undefined,
  hospitalStateCode: string | null | undefined,
): boolean {
  return Boolean(patientStateCode && hospitalStateCode && patientStateCode !== hospitalStateCode)
}

/**
 * The GST summary of a stored invoice (the API's invoice detail, or what the PDF is drawn from).
 * A stored IGST (or CGST + SGST) says how the invoice was taxed when it was made, whatever the
 * hospital's state is now; an invoice with no tax falls back on the states.
 */
export function invoiceGstSummary(invoice: {
  lines: readonly GstLine[]
  patientStateCode: string | null
  hospital: { stateCode: string | null }
  cgst?: number
  igst?: number
}): GstSummary {
  const interState = invoice.igst
    ? true
    : invoice.cgst
      ? false
      : isInterState(invoice.patientStateCode, invoice.hospital.stateCode)
  return gstSummary(invoice.lines, interState)
}

/** 'Maharashtra (27)' for '27'; the bare code when it is not in the table; null for none. */
export function placeOfSupplyLabel(stateCode: string | null | undefined): string | null {
  if (!stateCode) return null
  const name = gstStateName(stateCode)
  return name ? `${name} (${stateCode})` : stateCode
}

/** '6%' or '2.5%': a GST rate or half of one, as a label. */
export function rateLabel(rate: number): string {
  return `${String(rate)}%`
}

/** One row of an invoice's totals: a label and an amount in paise. */
export interface GstTotalRow {
  key: string
  label: string
  value: number
}

/**
 * The rows above an invoice's Total, the same on the New Invoice preview, View Details and the
 * PDF: Subtotal, Discount (when any), Exempt value (a Tax Invoice's exempt lines), Taxable value
 * (a Tax Invoice only: a Bill of Supply has none), then per rate group CGST and SGST at half the
 * rate each, or IGST at the whole rate.
 */
export function gstTotalRows(
  s: GstSummary,
  totals: { subtotal: number; discountTotal: number },
): GstTotalRow[] {
  const rows: GstTotalRow[] = [{ key: 'subtotal', label: 'Subtotal', value: totals.subtotal }]
  if (totals.discountTotal)
    rows.push({ key: 'discount', label: 'Discount', value: -totals.discountTotal })
  if (s.kind === 'tax_invoice') {
    if (s.exemptValue) rows.push({ key: 'exempt', label: 'Exempt value', value: s.exemptValue })
    rows.push({ key: 'taxable', label: 'Taxable value', value: s.taxableValue })
    for (const g of s.groups) {
      if (s.interState) {
        rows.push({
          key: `igst-${g.rate}`,
          label: `IGST @ ${rateLabel(g.igstRate)}`,
          value: g.igst,
        })
      } else {
        rows.push(
          { key: `cgst-${g.rate}`, label: `CGST @ ${rateLabel(g.cgstRate)}`, value: g.cgst },
          { key: `sgst-${g.rate}`, label: `SGST @ ${rateLabel(g.sgstRate)}`, value: g.sgst },
        )
      }
    }
  }
  return rows
}
