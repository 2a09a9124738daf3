import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i

/**
 * Meta's `X-Hub-Signature-256: sha256=<hex>`: HMAC-SHA256 of the raw request body under the
 * app secret. Compared in constant time; a missing or malformed header is simply false.
 */
export function verifyMetaSignature(
  rawBody: Buffer,
  header: string | string[] | undefined,
  appSecret: string,
): boolean {
  if (typeof header !== 'string') return false
  const match = SIGNATURE.exec(header.trim())
  if (!match?.[1]) return false
  const sent = Buffer.from(match[1].toLowerCase(), 'hex')
  const expected = createHmac('sha256', appSecret).update(rawBody).digest()
  return sent.length === expected.length && timingSafeEqual(sent, expected)
}

/** The header value Meta would send for this body (tests, the bench). */
export function signMetaBody(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`
}

/** How a verify token is stored for the handshake lookup: SHA-256, hex. */
export function verifyTokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** Constant-time equality of two strings (compared as SHA-256 digests, so lengths leak nothing). */
export function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest()
  const db = createHash('sha256').update(b, 'utf8').digest()
  return timingSafeEqual(da, db)
}
