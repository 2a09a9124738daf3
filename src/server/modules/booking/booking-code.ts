import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { derivedKey } from '../../secrets/secrets'

/**
 * The booking page's one-time codes: 6 digits, stored only as an HMAC-SHA256 under a key
 * derived from the server's secret and bound to the hospital and hold, so a code (or its hash)
 * is worth nothing for any other hold, and the table alone does not reveal it (10^6 guesses
 * need the key).
 *
 * No row holds the code itself (issue 39, item 15): it is derived from the hold's id under a key
 * of the secrets keyring (SECRETS_KEY, HKDF purpose 'booking-code'), so the message queued for
 * it stores the text with the code masked (CODE_MASK), and the send job, and the Sandbox Outbox
 * for an admin in development or demo mode, derive it again (revealBookingCode). Without the
 * keyring the database alone gives neither the code nor a way to check a guess.
 */
export interface CodeKey {
  key: Buffer
}

/** The code key, derived from the server's signing secret (never the secret itself). */
export function bookingCodeKey(serverSecret: string): CodeKey {
  return { key: createHmac('sha256', serverSecret).update('arogya:booking-code:v1').digest() }
}

/** What a stored message shows in place of the code. */
export const CODE_MASK = '••••••'

const CODE_PURPOSE = 'booking-code'

/**
 * The hold's code: HMAC-SHA256 of hospital and hold under the keyring's key `keyId` (the current
 * one by default), as 6 digits; null when the keyring no longer holds that key.
 */
export function deriveBookingCode(
  hold: { hospitalId: string; id: string },
  keyId?: string,
): { code: string; keyId: string } | null {
  const key = derivedKey(CODE_PURPOSE, keyId)
  if (!key) return null
  const mac = createHmac('sha256', key.key).update(`${hold.hospitalId}:${hold.id}`).digest()
  return { code: String(mac.readUInt32BE(0) % 1_000_000).padStart(6, '0'), keyId: key.id }
}

/**
 * A hash no 6-digit code matches: the hold of a mobile that receives no code (opted out or
 * erased) is kept like any other, but can never be confirmed.
 */
export function unmatchableCodeHash(k: CodeKey, hold: { hospitalId: string; id: string }) {
  return hashBookingCode(k, hold, randomBytes(32).toString('base64url'))
}

/** A stored message of a booking code: which hold it is for, and under which key. */
export interface StoredCodeMessage {
  hospitalId: string
  bookingHoldId: string | null
  content: string
  metadata: Record<string, unknown>
}

/**
 * The text with the real code in place of CODE_MASK (the send job, and what an admin sees in a
 * development or demo Sandbox Outbox); any other message unchanged.
 */
export function revealBookingCode(row: StoredCodeMessage): string {
  const { metadata } = row
  if (!row.bookingHoldId || metadata.purpose !== 'booking_code') return row.content
  if (!row.content.startsWith(CODE_MASK)) return row.content
  // Codes stored before they were derived (masked by drizzle/0038) have no key: they stay masked.
  if (typeof metadata.codeKeyId !== 'string') return row.content
  const hold = { hospitalId: row.hospitalId, id: row.bookingHoldId }
  const derived = deriveBookingCode(hold, metadata.codeKeyId)
  return derived ? derived.code + row.content.slice(CODE_MASK.length) : row.content
}

/** The key of a mobile number's hold quota: an HMAC, so the limits' table holds no number. */
export function mobileQuotaKey(k: CodeKey, e164: string): string {
  return createHmac('sha256', k.key).update(`mobile:${e164}`).digest('base64url')
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

/** The code's text (stored with CODE_MASK for the code): which clinic, and that it expires. */
export function bookingCodeText(code: string, hospitalName: string, minutes: number): string {
  return `${code} is your code to confirm your appointment at ${hospitalName}. It expires in ${minutes} minutes. Do not share it with anyone.`
}
