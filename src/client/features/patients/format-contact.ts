import { formatPhone, phoneInText } from '@/shared/phone-format'

/** Runs of digits (with spaces, dashes, brackets, a leading +) long enough to be a phone. */
const NUMBER_LIKE = /\+?\d[\d\s().-]{7,}\d/g

/**
 * Emergency contacts are free text ('Ravi (husband) 9876543210'); any phone number in them is
 * shown the way phones are shown everywhere ('+91 98765 43210'). Other text stays as typed.
 */
export function formatContact(text: string): string {
  return text.replace(NUMBER_LIKE, (match) => {
    const e164 = phoneInText(match)
    return e164 ? formatPhone(e164) : match
  })
}
