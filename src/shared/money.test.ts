import { describe, expect, it } from 'vitest'
import { currencies, currencyDecimals, DEFAULT_CURRENCY, findCurrency } from './currency'
import { formatMoney, formatRupees, rupeesToPaise } from './money'

/** Arabic-Indic digits (ar-SA) read as ASCII so every locale can be compared. */
function asciiDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/\D/g, '')
}

const specCodes = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CAD',
  'AUD',
  'CHF',
  'CNY',
  'INR',
  'KRW',
  'BRL',
  'MXN',
  'SGD',
  'HKD',
  'NZD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'RUB',
  'AED',
  'SAR',
  'ZAR',
  'TRY',
]

describe('formatMoney', () => {
  it('shows INR paise as rupees with Indian grouping and 2 decimals', () => {
    expect(formatMoney(12345600, 'INR')).toBe('₹1,23,456.00')
    expect(formatMoney(10000000000, 'INR')).toBe('₹10,00,00,000.00')
    expect(formatMoney(12345678, 'INR')).toBe('₹1,23,456.78')
    expect(formatMoney(5, 'INR')).toBe('₹0.05')
    expect(formatMoney(0, 'INR')).toBe('₹0.00')
    expect(formatMoney(-5050, 'INR')).toBe('-₹50.50')
  })

  it('defaults to INR', () => {
    expect(DEFAULT_CURRENCY).toBe('INR')
    expect(formatMoney(240000)).toBe('₹2,400.00')
  })

  it('shows JPY and KRW with no decimals', () => {
    expect(currencyDecimals('JPY')).toBe(0)
    expect(currencyDecimals('KRW')).toBe(0)
    expect(formatMoney(12345600, 'KRW')).toBe('₩123,456')
    const yen = formatMoney(12345600, 'JPY')
    expect(yen).toMatch(/^[¥￥]123,456$/)
    expect(formatMoney(12345678, 'JPY')).toMatch(/123,457$/)
  })

  it('uses each currency’s own locale for grouping', () => {
    expect(formatMoney(12345678, 'USD')).toBe('$123,456.78')
    expect(formatMoney(12345678, 'GBP')).toBe('£123,456.78')
    expect(formatMoney(12345678, 'EUR')).toBe('123.456,78\u00a0€')
  })

  it('falls back to INR for an unknown code', () => {
    expect(findCurrency('XXX').code).toBe('INR')
    expect(formatMoney(12345600, 'XXX')).toBe('₹1,23,456.00')
  })
})

describe('the currency table', () => {
  it('has exactly the 24 currencies of the spec, in order, each complete', () => {
    expect(currencies.map((c) => c.code)).toEqual(specCodes)
    for (const c of currencies) {
      expect(c.symbol.length, c.code).toBeGreaterThan(0)
      expect(c.name.length, c.code).toBeGreaterThan(0)
      expect(c.country.length, c.code).toBeGreaterThan(0)
      expect(() => new Intl.NumberFormat(c.locale), c.code).not.toThrow()
    }
  })

  it.each(specCodes)('%s formats with the right number of decimals', (code) => {
    const text = formatMoney(12345678, code)
    const decimals = code === 'JPY' || code === 'KRW' ? 0 : 2
    expect(currencyDecimals(code)).toBe(decimals)
    expect(asciiDigits(text)).toBe(decimals === 0 ? '123457' : '12345678')
  })
})

describe('rupees helpers', () => {
  it('formats whole rupees with Indian grouping', () => {
    expect(formatRupees(29999)).toBe('₹29,999')
    expect(formatRupees(100000)).toBe('₹1,00,000')
  })

  it('turns typed rupees into integer paise', () => {
    expect(rupeesToPaise(2400)).toBe(240000)
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30)
    expect(rupeesToPaise(19.99)).toBe(1999)
    expect(Number.isInteger(rupeesToPaise(1.005))).toBe(true)
  })
})
