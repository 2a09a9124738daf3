import { parsePhoneNumberFromString } from 'libphonenumber-js/min'

/**
 * Normalises a phone number typed by a person to E.164. Numbers without a country code
 * are read as Indian: '98765 43210', '09876543210' and '+91 98765 43210' all become
 * '+919876543210'. Returns null when the text is not a valid number.
 */
export function normalizePhone(input: string, defaultCountry: 'IN' = 'IN'): string | null {
  const trimmed = input.trim()
  if (!/^[+(\d][\d\s().-]*$/.test(trimmed)) return null
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry)
  if (!parsed || !parsed.isValid()) return null
  return parsed.number
}

/** '+919876543210' shown as '+91 98765 43210'. */
export function formatPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164)
  return parsed ? parsed.formatInternational() : e164
}
