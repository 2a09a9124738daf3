import { describe, expect, it } from 'vitest'
import { shortRupees, toRevenueRows } from './revenue-data'

describe('toRevenueRows', () => {
  it('labels each month and keeps paise beside rupees', () => {
    expect(
      toRevenueRows([
        { month: '2025-12', paid: 0 },
        { month: '2026-11', paid: 12_000_050 },
      ]),
    ).toEqual([
      { month: '2025-12', label: 'Dec 25', longLabel: 'December 2025', paid: 0, rupees: 0 },
      {
        month: '2026-11',
        label: 'Nov 26',
        longLabel: 'November 2026',
        paid: 12_000_050,
        rupees: 120_000.5,
      },
    ])
  })
})

describe('shortRupees', () => {
  it.each([
    [0, '₹0'],
    [950, '₹950'],
    [12_000, '₹12K'],
    [350_000, '₹3.5L'],
    [12_000_000, '₹1.2Cr'],
  ])('%d is %s', (rupees, text) => {
    expect(shortRupees(rupees)).toBe(text)
  })
})
