import { describe, expect, it } from 'vitest'
import { paiseToRupeesText, rupeesTextToPaise, unitPriceError } from './money-input'

describe('rupeesTextToPaise', () => {
  it.each([
    ['500', 50_000],
    ['0', 0],
    ['0.29', 29],
    ['0.5', 50],
    ['99.5', 9_950],
    ['1200.05', 120_005],
    ['1,20,000', 12_000_000],
    ['1,20,000.50', 12_000_050],
    ['120,000.50', 12_000_050],
    ['₹ 1,500', 150_000],
    ['Rs. 750', 75_000],
    [' 250 ', 25_000],
    ['12.', 1_200],
  ])('%s is %d paise', (text, paise) => {
    expect(rupeesTextToPaise(text)).toBe(paise)
  })

  it.each(['', ' ', '-5', 'abc', '1.234', '1,2,3', '12,34', '1e3', '.5', '1..2', '+10', '0x10'])(
    'refuses %j',
    (text) => {
      expect(rupeesTextToPaise(text)).toBeNull()
    },
  )
})

describe('paiseToRupeesText', () => {
  it.each([
    [120_000, '1200'],
    [120_050, '1200.50'],
    [120_005, '1200.05'],
    [5, '0.05'],
    [0, '0'],
  ])('%d paise is %s', (paise, text) => {
    expect(paiseToRupeesText(paise)).toBe(text)
  })

  it('round-trips every amount a person types', () => {
    for (const paise of [0, 1, 99, 100, 101, 12_345, 99_999_999, 1_000_000_000]) {
      expect(rupeesTextToPaise(paiseToRupeesText(paise))).toBe(paise)
    }
  })
})

describe('unitPriceError', () => {
  it('accepts up to ₹1 crore and refuses more or nonsense', () => {
    expect(unitPriceError('1,00,00,000')).toBeUndefined()
    expect(unitPriceError('0')).toBeUndefined()
    expect(unitPriceError('1,00,00,000.01')).toMatch(/1 crore/)
    expect(unitPriceError('ten')).toMatch(/Enter an amount/)
  })
})
