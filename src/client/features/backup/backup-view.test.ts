import { describe, expect, it } from 'vitest'
import { clampPercent, dataTypesText, previewTotals, tableLabel } from './backup-view'

describe('backup view helpers', () => {
  it('names data types in the spec order with its labels', () => {
    expect(dataTypesText(['billing', 'leads'])).toBe('Leads, Billing')
    expect(dataTypesText(['sales', 'billing', 'leads'])).toBe('Leads, Sales, Billing')
    expect(dataTypesText([])).toBe('')
  })

  it('keeps a progress figure between 0 and 100', () => {
    expect(clampPercent(42.4)).toBe(42)
    expect(clampPercent(-3)).toBe(0)
    expect(clampPercent(180)).toBe(100)
    expect(clampPercent(null)).toBe(0)
    expect(clampPercent(Number.NaN)).toBe(0)
  })

  it('reads table names as words', () => {
    expect(tableLabel('invoice_items')).toBe('Invoice items')
    expect(tableLabel('leads')).toBe('Leads')
  })

  it('adds up the dry run', () => {
    const row = (n: number) => ({
      table: 't',
      inBackup: n,
      current: n,
      toInsert: n,
      toUpdate: 1,
      toDelete: 0,
    })
    expect(previewTotals([row(2), row(3)])).toEqual({
      inBackup: 5,
      toInsert: 5,
      toUpdate: 2,
      toDelete: 0,
    })
  })
})
