import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  dateInZone,
  financialYear,
  formatInvoiceNumber,
  invoiceKind,
  invoiceTotals,
  lineAmounts,
  paiseToDecimal,
  percentOf,
  upiPayUri,
} from './invoice-math'

describe('invoice maths', () => {
  it('line: taxable = qty × price − discount, tax rounded half up in paise', () => {
    expect(lineAmounts({ quantity: 2, unitPrice: 50_000, discount: 10_000, gstRate: 18 })).toEqual({
      gross: 100_000,
      taxableValue: 90_000,
      tax: 16_200,
      total: 106_200,
    })
    expect(percentOf(250, 18)).toBe(45) // 45.00
    expect(percentOf(1050, 5)).toBe(53) // 52.5 → 53 (half up)
    expect(percentOf(1049, 5)).toBe(52) // 52.45 → 52
    expect(percentOf(1, 12)).toBe(0) // 0.12 → 0
  })

  it('intra-state splits the tax in CGST + SGST, CGST taking the odd paisa', () => {
    const t = invoiceTotals([{ quantity: 1, unitPrice: 1050, discount: 0, gstRate: 5 }], false)
    expect([t.cgst, t.sgst, t.igst]).toEqual([27, 26, 0])
    expect(t.amount).toBe(1103)
    expect(t.kind).toBe('tax_invoice')
  })

  it('inter-state puts the whole tax in IGST', () => {
    const t = invoiceTotals([{ quantity: 3, unitPrice: 1000, discount: 0, gstRate: 12 }], true)
    expect([t.cgst, t.sgst, t.igst]).toEqual([0, 0, 360])
  })

  it('all exempt lines make a Bill of Supply', () => {
    expect(invoiceKind([{ gstRate: 0 }, { gstRate: 0 }])).toBe('bill_of_supply')
    expect(invoiceKind([{ gstRate: 0 }, { gstRate: 5 }])).toBe('tax_invoice')
  })

  it('totals are exact for any lines', () => {
    const line = fc
      .record({
        quantity: fc.integer({ min: 1, max: 1000 }),
        unitPrice: fc.integer({ min: 0, max: 1_000_000_000 }),
        gstRate: fc.constantFrom(0, 5, 12, 18),
        d: fc.double({ min: 0, max: 1, noNaN: true }),
      })
      .map(({ d, ...l }) => ({ ...l, discount: Math.floor(l.quantity * l.unitPrice * d) }))
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 50 }), fc.boolean(), (lines, inter) => {
        const t = invoiceTotals(lines, inter)
        const tax = t.lines.reduce((s, l) => s + l.tax, 0)
        expect(t.cgst + t.sgst + t.igst).toBe(tax)
        expect(Math.abs(t.cgst - t.sgst)).toBeLessThanOrEqual(1)
        expect(t.amount).toBe(t.lines.reduce((s, l) => s + l.total, 0))
        expect(t.subtotal - t.discountTotal).toBe(t.taxableTotal + t.exemptTotal)
        expect(Number.isSafeInteger(t.amount)).toBe(true)
      }),
    )
  })

  it('financial year runs April to March', () => {
    expect(financialYear('2026-04-01')).toBe('2026-27')
    expect(financialYear('2027-03-31')).toBe('2026-27')
    expect(financialYear('2027-04-01')).toBe('2027-28')
    expect(financialYear('2099-12-31')).toBe('2099-00')
    expect(financialYear('2026-01-15')).toBe('2025-26')
  })

  it('numbers invoices prefix/fy/6 digits', () => {
    expect(formatInvoiceNumber('SMH', '2026-27', 123)).toBe('SMH/2026-27/000123')
    expect(formatInvoiceNumber('AB', '2026-27', 1_234_567)).toBe('AB/2026-27/1234567')
  })

  it('dates in the hospital zone: 31 March 23:30 IST is still March', () => {
    expect(dateInZone(new Date('2027-03-31T18:00:00Z'), 'Asia/Kolkata')).toBe('2027-03-31')
    expect(dateInZone(new Date('2027-03-31T18:30:00Z'), 'Asia/Kolkata')).toBe('2027-04-01')
  })

  it('builds the UPI link with encoded values and 2-decimal rupees', () => {
    expect(paiseToDecimal(150_050)).toBe('1500.50')
    expect(paiseToDecimal(5)).toBe('0.05')
    expect(
      upiPayUri({
        vpa: 'sanjeevani@okhdfc',
        payee: 'Sanjeevani Hospital & Co',
        amountPaise: 106_200,
        invoiceNumber: 'SMH/2026-27/000001',
      }),
    ).toBe(
      'upi://pay?pa=sanjeevani%40okhdfc&pn=Sanjeevani%20Hospital%20%26%20Co&am=1062.00&cu=INR&tn=SMH%2F2026-27%2F000001',
    )
  })
})
