import { type PhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max'

// The `max` metadata knows each number's type. The smaller `min` set checks little more than
// length (it takes 5555555555), and even `max` calls 1234567890 a valid Indian fixed line, so
// where a mobile is needed the type is checked too (ENGINEERING.md, "money, dates, phones").

/** Typed text that could be a phone number: digits, spaces, ( ) . - and one leading +. */
const PHONE_TEXT = /^[+(\d][\d\s().-]*$/

function parse(input: string): PhoneNumber | null {
  const trimmed = input.trim()
  if (!PHONE_TEXT.test(trimmed)) return null
  const parsed = parsePhoneNumberFromString(trimmed, 'IN')
  return parsed?.isValid() ? parsed : null
}

/**
 * Normalises a phone number typed by a person to E.164, reading numbers without a country
 * code as Indian: '98765 43210', '09876543210' and '+91 98765 43210' all become
 * '+919876543210'. Any valid number, landlines included ('020 2550 1234'); null otherwise.
 */
export function normalizePhone(input: string): string | null {
  return parse(input)?.number ?? null
}

/**
 * Like normalizePhone, for a number the clinic will call or message: an Indian number must be
 * a mobile ('98765 43210'; not '020 2550 1234', '1234567890' or '5555555555'). A number of
 * another country needs only be valid there ('+44 20 7946 0958'), since many countries do not
 * tell mobiles from landlines by the number.
 */
export function normalizeMobilePhone(input: string): string | null {
  const parsed = parse(input)
  if (!parsed) return null
  if (parsed.country === 'IN') {
    const type = parsed.getType()
    if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return null
  }
  return parsed.number
}

/** What a form says about a number normalizeMobilePhone refuses. */
export const MOBILE_PHONE_MESSAGE = 'Enter a valid mobile number, e.g. 98765 43210'

export { formatPhone } from './phone-format'
