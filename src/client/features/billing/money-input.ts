import { MAX_LINE_PRICE_PAISE } from '@/shared/billing'

/**
 * Rupees as a person types them ('1,20,000.50', '₹ 500', '99.5') to integer paise, and back.
 * Amounts are integer paise end to end (spec section 9); only this boundary sees decimals.
 */

/** What a rupee field may hold: digits with optional Indian or Western grouping, ≤ 2 decimals. */
const RUPEES = /^(\d+|\d{1,3}(,\d{2})*,\d{3}|\d{1,3}(,\d{3})+)(\.\d{0,2})?$/

/**
 * Integer paise for typed rupees, or null when the text is not an amount (empty, negative,
 * letters, a third decimal, misplaced commas). Computed on the digits, never through a float
 * multiplication, so '0.29' is 29 paise and not 28.999….
 */
export function rupeesTextToPaise(text: string): number | null {
  const cleaned = text.replace(/[₹\s]/g, '').replace(/^Rs\.?/i, '')
  if (!RUPEES.test(cleaned)) return null
  const [whole = '', fraction = ''] = cleaned.replace(/,/g, '').split('.')
  const paise = Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
  return Number.isSafeInteger(paise) ? paise : null
}

/** Paise as editable rupees: 120000 → '1200', 120050 → '1200.50', 5 → '0.05'. */
export function paiseToRupeesText(paise: number): string {
  const whole = Math.trunc(paise / 100)
  const rest = Math.abs(paise % 100)
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0')}`
}

export const RUPEES_MESSAGE = 'Enter an amount in rupees, e.g. 1500 or 1,500.50'
export const PRICE_LIMIT_MESSAGE = 'A line’s unit price can be at most ₹1,00,00,000.00 (₹1 crore)'

/** The message for a typed unit price, or undefined when it is a valid one (0 to ₹1 crore). */
export function unitPriceError(text: string): string | undefined {
  const paise = rupeesTextToPaise(text)
  if (paise === null) return RUPEES_MESSAGE
  if (paise > MAX_LINE_PRICE_PAISE) return PRICE_LIMIT_MESSAGE
  return undefined
}
