import { describe, expect, it } from 'vitest'
import { isInterState, previewInvoice } from './invoice-preview'

const consultation = { quantity: 1, unitPrice: 80_000, discount: 0, gstRate: 0 }
const cream = { quantity: 2, unitPrice: 45_000, discount: 10_000, gstRate: 18 }

describe('previewInvoice', () => {
  it('a taxable and an exempt line within the state: a Tax Invoice with CGST + SGST', () => {
    const p = previewInvoice([consultation, cream], false)
    expect(p.kind).toBe('tax_invoice')
    expect(p.subtotal).toBe(170_000)
    expect(p.discountTotal).toBe(10_000)
    // The exempt consultation is exempt value, not taxable value (issue 40 item 3).
    expect(p.taxableTotal).toBe(80_000)
    expect(p.exemptTotal).toBe(80_000)
    // 18 % of ₹800.00 is ₹144.00, split ₹72.00 + ₹72.00.
    expect(p.cgst).toBe(7_200)
    expect(p.sgst).toBe(7_200)
    expect(p.igst).toBe(0)
    expect(p.amount).toBe(174_400)
    expect(p.lines.map((l) => l.total)).toEqual([80_000, 94_400])
  })

  it('across states the same tax is IGST', () => {
    const p = previewInvoice([consultation, cream], true)
    expect([p.cgst, p.sgst, p.igst]).toEqual([0, 0, 14_400])
    expect(p.amount).toBe(174_400)
  })

  it('only exempt lines: a Bill of Supply with no tax', () => {
    const p = previewInvoice([consultation, { ...consultation, quantity: 3 }], false)
    expect(p.kind).toBe('bill_of_supply')
    expect(p.amount).toBe(320_000)
    expect(p.cgst + p.sgst + p.igst).toBe(0)
  })

  it('rounds tax half up to the paisa, as the server does, and gives the odd paisa to CGST', () => {
    // 5 % of ₹0.99 is 4.95 paise → 5 paise: 3 CGST + 2 SGST.
    const p = previewInvoice([{ quantity: 1, unitPrice: 99, discount: 0, gstRate: 5 }], false)
    expect([p.cgst, p.sgst]).toEqual([3, 2])
    expect(p.amount).toBe(104)
  })

  it('a discount never makes a line negative', () => {
    const p = previewInvoice([{ quantity: 1, unitPrice: 500, discount: 9_999, gstRate: 12 }], false)
    expect(p.taxableTotal).toBe(0)
    expect(p.amount).toBe(0)
  })

  it('no lines: nothing to pay', () => {
    expect(previewInvoice([], false).amount).toBe(0)
  })
})

describe('isInterState', () => {
  it('IGST only when both states are known and differ', () => {
    expect(isInterState('29', '27')).toBe(true)
    expect(isInterState('27', '27')).toBe(false)
    expect(isInterState(null, '27')).toBe(false)
    expect(isInterState('', '27')).toBe(false)
    expect(isInterState('29', null)).toBe(false)
  })
})
