import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'

/**
 * The booking page's one-time codes: 6 random digits, stored only as an HMAC-SHA256 under a key
 * derived from the server's secret and bound to the hospital and hold, so a code (or its hash)
 * is worth nothing for any other hold, and the table alone does not reveal it (10^6 guesses
 * need the key).
 */
export interface CodeKey {
  key: Buffer
}

/** The code key, derived from the server's signing secret (never the secret itself). */
export function bookingCodeKey(serverSecret: string): CodeKey {
  return { key: createHmac('sha256', serverSecret).update('arogya:booking-code:v1').digest() }
}

export function newBookingCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

export function hashBookingCode(
  k: CodeKey,
  hold: { hospitalId: string; id: string },
  code: string,
): string {
  return createHmac('sha256', k.key).update(`${hold.hospitalId}:${hold.id}:${code}`).digest('hex')
}

/** Compares in constant time. */
export function bookingCodeMatches(
  k: CodeKey,
  hold: { hospitalId: string; id: string; codeHash: string },
  code: string,
): boolean {
  const given = Buffer.from(hashBookingCode(k, hold, code), 'hex')
  const stored = Buffer.from(hold.codeHash, 'hex')
  return given.length === stored.length && timingSafeEqual(given, stored)
}

/** '+919876543210' shown as '+91 98765 •••10' (where the code went, without the whole number). */
export function maskedPhone(e164: string): string {
  const digits = e164.replace(/^\+91/, '')
  if (digits.length !== 10) return `${e164.slice(0, -4)}••${e164.slice(-2)}`
  return `+91 ${digits.slice(0, 5)} •••${digits.slice(8)}`
}

/** The code's text: which clinic, and that it expires. */
export function bookingCodeText(code: string, hospitalName: string, minutes: number): string {
  return `${code} is your code to confirm your appointment at ${hospitalName}. It expires in ${minutes} minutes. Do not share it with anyone.`
}
