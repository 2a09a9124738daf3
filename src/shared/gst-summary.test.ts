import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { gstSummary, gstTotalRows, invoiceGstSummary, placeOfSupplyLabel } from './gst-summary'
import { lineAmounts } from './invoice-math'

/** An OPD consultation ₹500 (exempt) and a knee brace ₹1,450 at 12 % (issue 40 item 3). */
const consultation = { quantity: 1, unitPrice: 50_000, discount: 0, gstRate: 0 }
const kneeBrace = { quantity: 1, unitPrice: 145_000, discount: 0, gstRate: 12 }
const line = (l: typeof consultation) => ({ ...lineAmounts(l), gstRate: l.gstRate })

describe('gstSummary', () => {
  it('exempt lines are exempt value, not taxable value', () => {
    const s = gstSummary([line(consultation), line(kneeBrace)], false)
    expect(s.kind).toBe('tax_invoice')
    expect(s.taxableValue).toBe(145_000)
    expect(s.exemptValue).toBe(50_000)
    // 12 % of ₹1,450 is ₹174: CGST 6 % ₹87 + SGST 6 % ₹87.
    expect(s.groups).toEqual([
      {
        rate: 12,
        taxableValue: 145_000,
        tax: 17_400,
        cgstRate: 6,
        cgst: 8_700,
        sgstRate: 6,
        sgst: 8_700,
        igstRate: 0,
        igst: 0,
      },
    ])
    expect([s.cgst, s.sgst, s.igst, s.tax]).toEqual([8_700, 8_700, 0, 17_400])
    expect(s.total).toBe(212_400)
  })

  it('only exempt lines: a Bill of Supply with no taxable value and no tax', () => {
    const s = gstSummary([line(consultation), line({ ...consultation, quantity: 2 })], false)
    expect(s.kind).toBe('bill_of_supply')
    expect(s.taxableValue).toBe(0)
    expect(s.exemptValue).toBe(150_000)
    expect(s.groups).toEqual([])
    expect(s.total).toBe(150_000)
  })

  it('inter-state: the whole tax is IGST at the full rate', () => {
    const s = invoiceGstSummary({
      lines: [line(consultation), line(kneeBrace)],
      patientStateCode: '29',
      hospital: { stateCode: '27' },
    })
    expect(s.interState).toBe(true)
    expect(s.taxableValue).toBe(145_000)
    expect(s.groups[0]).toMatchObject({ rate: 12, igstRate: 12, igst: 17_400, cgst: 0, sgst: 0 })
    expect([s.cgst, s.sgst, s.igst]).toEqual([0, 0, 17_400])
  })

  it('groups lines by rate, lowest first, and the odd paise go to CGST and SGST in turn', () => {
    // 5 % of ₹10.50 = 53 paise (odd), 12 % of ₹10.08 = 121 paise (odd), 18 % of ₹1 = 18.
    const s = gstSummary(
      [
        line({ quantity: 1, unitPrice: 1_008, discount: 0, gstRate: 12 }),
        line({ quantity: 1, unitPrice: 1_050, discount: 0, gstRate: 5 }),
        line({ quantity: 1, unitPrice: 100, discount: 0, gstRate: 18 }),
      ],
      false,
    )
    expect(s.groups.map((g) => [g.rate, g.cgstRate, g.cgst, g.sgst])).toEqual([
      [5, 2.5, 27, 26],
      [12, 6, 60, 61],
      [18, 9, 9, 9],
    ])
    expect([s.cgst, s.sgst]).toEqual([96, 96])
  })

  it('totals: CGST = ⌈tax / 2⌉, each group adds up, the total is exact', () => {
    const arb = fc
      .record({
        quantity: fc.integer({ min: 1, max: 1000 }),
        unitPrice: fc.integer({ min: 0, max: 1_000_000_000 }),
        gstRate: fc.constantFrom(0, 5, 12, 18),
      })
      .map((l) => line({ ...l, discount: 0 }))
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 30 }), fc.boolean(), (lines, inter) => {
        const s = gstSummary(lines, inter)
        const tax = lines.reduce((n, l) => n + l.tax, 0)
        expect(s.tax).toBe(tax)
        if (!inter) expect([s.cgst, s.sgst]).toEqual([Math.ceil(tax / 2), Math.floor(tax / 2)])
        for (const g of s.groups) expect(g.cgst + g.sgst + g.igst).toBe(g.tax)
        expect(s.total).toBe(lines.reduce((n, l) => n + l.total, 0))
      }),
    )
  })
})

describe('placeOfSupplyLabel', () => {
  it('names the state from the GST state code table', () => {
    expect(placeOfSupplyLabel('27')).toBe('Maharashtra (27)')
    expect(placeOfSupplyLabel('29')).toBe('Karnataka (29)')
    expect(placeOfSupplyLabel('99')).toBe('99')
    expect(placeOfSupplyLabel(null)).toBeNull()
  })
})

describe('gstTotalRows', () => {
  const labels = (rows: ReturnType<typeof gstTotalRows>) => rows.map((r) => [r.label, r.value])

  it('a Tax Invoice: exempt value apart, taxable value of the taxable lines, CGST and SGST with rates', () => {
    const s = gstSummary([line(consultation), line(kneeBrace)], false)
    expect(labels(gstTotalRows(s, { subtotal: 195_000, discountTotal: 0 }))).toEqual([
      ['Subtotal', 195_000],
      ['Exempt value', 50_000],
      ['Taxable value', 145_000],
      ['CGST @ 6%', 8_700],
      ['SGST @ 6%', 8_700],
    ])
  })

  it('across states: IGST at the whole rate', () => {
    const s = gstSummary([line(kneeBrace)], true)
    expect(labels(gstTotalRows(s, { subtotal: 145_000, discountTotal: 0 }))).toEqual([
      ['Subtotal', 145_000],
      ['Taxable value', 145_000],
      ['IGST @ 12%', 17_400],
    ])
  })

  it('a Bill of Supply shows no taxable value and no tax', () => {
    const s = gstSummary([line({ ...consultation, discount: 5_000 })], false)
    expect(labels(gstTotalRows(s, { subtotal: 50_000, discountTotal: 5_000 }))).toEqual([
      ['Subtotal', 50_000],
      ['Discount', -5_000],
    ])
  })
})
