import { createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto'

/**
 * Webhook signatures of the messaging providers (issue 25). Meta's X-Hub-Signature-256 is
 * integrations/meta/signature.ts's verifyMetaSignature (the same scheme for WhatsApp).
 */

/**
 * Twilio's X-Twilio-Signature: Base64 of HMAC-SHA1 under the auth token, over the full URL
 * followed by each POST parameter's name and value, sorted by name (a repeated name: each
 * value, in order). The fakes sign their callbacks with it too.
 */
export function twilioSignature(
  url: string,
  params: Record<string, string | string[]>,
  authToken: string,
): string {
  let data = url
  for (const name of Object.keys(params).sort()) {
    const value = params[name]
    for (const v of Array.isArray(value) ? value : [value]) data += name + (v ?? '')
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64')
}

/** Constant-time check of a request's X-Twilio-Signature; missing or malformed is false. */
export function verifyTwilioSignature(
  url: string,
  params: Record<string, string | string[]>,
  header: string | string[] | undefined,
  authToken: string,
): boolean {
  if (typeof header !== 'string' || header.length === 0 || header.length > 200) return false
  const sent = Buffer.from(header, 'base64')
  const expected = Buffer.from(twilioSignature(url, params, authToken), 'base64')
  return sent.length === expected.length && timingSafeEqual(sent, expected)
}

/**
 * SendGrid's signed event webhook: ECDSA (P-256, SHA-256) over the
 * X-Twilio-Email-Event-Webhook-Timestamp header followed by the raw body, checked with the
 * verification key SendGrid shows (base64 DER, SubjectPublicKeyInfo). The signature header is
 * base64 DER too.
 */
export function verifySendGridSignature(
  rawBody: Buffer,
  signature: string | string[] | undefined,
  timestamp: string | string[] | undefined,
  publicKeyBase64: string,
): boolean {
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return false
  if (signature.length > 500 || timestamp.length > 20) return false
  try {
    const key = createPublicKey({
      key: Buffer.from(publicKeyBase64, 'base64'),
      format: 'der',
      type: 'spki',
    })
    return verify(
      'sha256',
      Buffer.concat([Buffer.from(timestamp, 'utf8'), rawBody]),
      key,
      Buffer.from(signature, 'base64'),
    )
  } catch {
    return false
  }
}
