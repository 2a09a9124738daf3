import { parsePhoneNumberFromString } from 'libphonenumber-js/min'

// Showing a number needs only libphonenumber's formats (the `min` metadata, about 20 KB gzip),
// not the types that checking one needs (`max`, about 40 KB gzip, in phone.ts): screens that
// only show numbers import this file, so they do not download the larger set.

/** '+919876543210' shown as '+91 98765 43210'. */
export function formatPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164)
  return parsed ? parsed.formatInternational() : e164
}

/**
 * A number typed in free text ('98765 43210', '098765-43210'), read as Indian without a country
 * code, in E.164 when it has a valid length and prefix for its country; null otherwise. For
 * showing text only: checking a number the clinic will call is phone.ts's job.
 */
export function phoneInText(text: string): string | null {
  const parsed = parsePhoneNumberFromString(text.trim(), 'IN')
  return parsed?.isValid() ? parsed.number : null
}
