import { currencyDecimals, DEFAULT_CURRENCY, findCurrency } from './currency'

/**
 * Money is stored as integer minor units (paise for INR) and divided by 100 for display.
 * INR uses Indian digit grouping: ₹1,23,456.00.
 */
export function formatMoney(minorUnits: number, currencyCode: string = DEFAULT_CURRENCY): string {
  const currency = findCurrency(currencyCode)
  const decimals = currencyDecimals(currency.code)
  return new Intl.NumberFormat(currency.locale, {
    style: 'currency',
    currency: currency.code,
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(minorUnits / 100)
}

/** Whole rupees with Indian grouping and no decimals, for prices: ₹29,999 or ₹1,00,000. */
export function formatRupees(rupees: number): string {
  return `₹${new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 }).format(rupees)}`
}

/** Rupees typed by a person (may have decimals) to integer paise, rounding half away from zero. */
export function rupeesToPaise(rupees: number): number {
  return Math.round(rupees * 100)
}
