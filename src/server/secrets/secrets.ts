import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import type { SecretsKeyring } from './keys'

/**
 * Hospitals' secrets at rest (Meta, Twilio and Drive tokens, SMTP passwords): AES-256-GCM with
 * a random 12-byte IV under the keyring's current key, stored as
 *
 *     v1:<keyId>:<iv>:<tag>:<ciphertext>      (the last three in base64url)
 *
 * `v1:<keyId>` and the optional context are authenticated too, so a changed byte anywhere, or
 * a ciphertext moved to another context, is refused. APIs answer with secretHint(), never the
 * secret; logs never carry one (http/logging.ts redacts the usual field names).
 */

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

let installed: SecretsKeyring | undefined

/** Start-up (index.ts, worker.ts) and tests: the keys encryptSecret and decryptSecret use. */
export function installSecretsKeys(keyring: SecretsKeyring): void {
  installed = keyring
}

function keyring(): SecretsKeyring {
  if (!installed) throw new Error('secrets: no keys installed (installSecretsKeys at start-up)')
  return installed
}

/** A stored secret that cannot be decrypted; the message never holds any part of it. */
export class SecretDecryptError extends Error {
  override name = 'SecretDecryptError'
}

function aad(keyId: string, context: string | undefined): Buffer {
  return Buffer.from(`${VERSION}:${keyId}:${context ?? ''}`, 'utf8')
}

/**
 * Encrypts one secret. `context` (e.g. `meta:<hospitalId>`) binds the ciphertext to where it
 * is stored: decryptSecret must be given the same context.
 */
export function encryptSecret(plain: string, context?: string): string {
  const { id, key } = keyring().current
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(aad(id, context))
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  const tag = cipher.getAuthTag()
  return [VERSION, id, iv, tag, ct]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join(':')
}

const B64URL = /^[A-Za-z0-9_-]*$/

function part(text: string | undefined, bytes?: number): Buffer {
  if (text === undefined || !B64URL.test(text)) throw new SecretDecryptError('malformed secret')
  const buffer = Buffer.from(text, 'base64url')
  // Only canonical encodings: a second spelling of the same bytes is not accepted either.
  if (buffer.toString('base64url') !== text) throw new SecretDecryptError('malformed secret')
  if (bytes !== undefined && buffer.length !== bytes) {
    throw new SecretDecryptError('malformed secret')
  }
  return buffer
}

/** Decrypts what encryptSecret stored; throws SecretDecryptError when it was changed. */
export function decryptSecret(stored: string, context?: string): string {
  const parts = stored.split(':')
  const [version, keyId] = parts
  if (parts.length !== 5 || version !== VERSION || !keyId) {
    throw new SecretDecryptError('malformed secret')
  }
  const key = keyring().byId.get(keyId)
  if (!key) {
    throw new SecretDecryptError(
      `secret encrypted under key ${keyId}, which SECRETS_KEY does not hold (keep old keys after the first when rotating)`,
    )
  }
  const iv = part(parts[2], IV_BYTES)
  const tag = part(parts[3], TAG_BYTES)
  const ct = part(parts[4])
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
    decipher.setAAD(aad(keyId, context))
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8')
  } catch {
    throw new SecretDecryptError('secret failed authentication (changed, or another context)')
  }
}

/** The id of the key a stored secret was encrypted under (re-encrypt those not current). */
export function secretKeyId(stored: string): string | undefined {
  const [version, keyId] = stored.split(':')
  return version === VERSION ? keyId : undefined
}

export type SecretHint = { set: false } | { set: true; last4: string | null }

/** Secrets shorter than this show no last characters (four would be too much of them). */
const HINT_MIN_LENGTH = 12

/** What an API says about a secret: whether it is set and, for long ones, its last 4. */
export function secretHint(plain: string | null | undefined): SecretHint {
  if (!plain) return { set: false }
  const chars = [...plain]
  return { set: true, last4: chars.length >= HINT_MIN_LENGTH ? chars.slice(-4).join('') : null }
}

/**
 * A 32-byte key derived (HKDF-SHA256) from a master key for one purpose, e.g.
 * `backup:<hospitalId>` (issue 29, docs/decisions/039-backups.md): the current key by default,
 * or the key `keyId` names (a file written before a rotation); null when the keyring does not
 * hold that key. The master key itself never leaves this module.
 */
export function derivedKey(purpose: string, keyId?: string): { id: string; key: Buffer } | null {
  const ring = keyring()
  const id = keyId ?? ring.current.id
  const master = keyId === undefined ? ring.current.key : ring.byId.get(keyId)
  if (!master) return null
  const key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `arogya:${purpose}`, 32))
  return { id, key }
}
