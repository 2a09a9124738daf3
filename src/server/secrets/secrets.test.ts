import { randomBytes } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { keyFingerprint, parseSecretsKeys } from './keys'
import {
  decryptSecret,
  encryptSecret,
  installSecretsKeys,
  SecretDecryptError,
  secretHint,
  secretKeyId,
} from './secrets'

const keyA = randomBytes(32).toString('base64')
const keyB = randomBytes(32).toString('base64')

beforeEach(() => installSecretsKeys(parseSecretsKeys(`a:${keyA}`)))

function refused(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(SecretDecryptError)
    return (error as Error).message
  }
  throw new Error('expected the secret to be refused')
}

describe('encryptSecret / decryptSecret', () => {
  it('round-trips any text, with a new IV each time', () => {
    for (const plain of ['', 'x', 'EAAG…token', 'पासवर्ड 🔑', 'a'.repeat(10_000)]) {
      const stored = encryptSecret(plain)
      expect(stored).toMatch(/^v1:a:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]*$/)
      expect(decryptSecret(stored)).toBe(plain)
    }
    expect(encryptSecret('same')).not.toBe(encryptSecret('same'))
    expect(encryptSecret('EAAGsecret')).not.toContain('EAAGsecret')
  })

  it('refuses a change to any byte of the IV, the tag or the ciphertext', () => {
    const stored = encryptSecret('twilio-auth-token-0123456789')
    const parts = stored.split(':')
    for (const index of [2, 3, 4]) {
      const bytes = Buffer.from(parts[index] ?? '', 'base64url')
      for (let i = 0; i < bytes.length; i++) {
        for (const flip of [0x01, 0x80]) {
          const changed = Buffer.from(bytes)
          changed[i] = (changed[i] ?? 0) ^ flip
          const copy = [...parts]
          copy[index] = changed.toString('base64url')
          const message = refused(() => decryptSecret(copy.join(':')))
          expect(message).not.toContain('twilio')
        }
      }
    }
  })

  it('refuses truncated, extended and malformed values', () => {
    const stored = encryptSecret('smtp-password')
    const [v, id, iv = '', tag = '', ct = ''] = stored.split(':')
    for (const bad of [
      `${v}:${id}:${iv}:${tag.slice(0, -2)}:${ct}`,
      `${v}:${id}:${iv}:${tag}:${ct.slice(0, -1)}`,
      `${v}:${id}:${iv}:${tag}:${ct}AA`,
      `${v}:${id}:${iv.slice(0, -1)}:${tag}:${ct}`,
      `v2:${id}:${iv}:${tag}:${ct}`,
      `${v}:${id}:${iv}:${tag}`,
      `${v}:${id}:${iv}:${tag}:${ct}:x`,
      `${v}:${id}:${iv}:${tag}:${ct}=`,
      'plain text',
      '',
    ]) {
      refused(() => decryptSecret(bad))
    }
  })

  it('binds a ciphertext to its context', () => {
    const stored = encryptSecret('meta-token', 'meta:hospital-a')
    expect(decryptSecret(stored, 'meta:hospital-a')).toBe('meta-token')
    refused(() => decryptSecret(stored, 'meta:hospital-b'))
    refused(() => decryptSecret(stored))
  })

  it('refuses a key id it does not hold, and a key id swapped for another key', () => {
    const stored = encryptSecret('drive-token')
    installSecretsKeys(parseSecretsKeys(`b:${keyB}`))
    expect(refused(() => decryptSecret(stored))).toMatch(/key a, which SECRETS_KEY does not hold/)
    refused(() => decryptSecret(stored.replace(/^v1:a:/, 'v1:b:')))
  })

  it('rotates: after a new first key, old secrets still decrypt and new ones use the new key', () => {
    const old = encryptSecret('old-secret')
    installSecretsKeys(parseSecretsKeys(`b:${keyB},a:${keyA}`))
    expect(decryptSecret(old)).toBe('old-secret')
    const fresh = encryptSecret('new-secret')
    expect(secretKeyId(fresh)).toBe('b')
    expect(secretKeyId(old)).toBe('a')
    expect(decryptSecret(fresh)).toBe('new-secret')
    // Bare keys: the id is the key's fingerprint, so `<new>,<old>` is the whole rotation.
    installSecretsKeys(parseSecretsKeys(keyA))
    const bare = encryptSecret('bare')
    installSecretsKeys(parseSecretsKeys(`${keyB},${keyA}`))
    expect(secretKeyId(bare)).toBe(keyFingerprint(Buffer.from(keyA, 'base64')))
    expect(decryptSecret(bare)).toBe('bare')
  })
})

describe('secretHint', () => {
  it('says whether a secret is set and shows at most its last 4 characters', () => {
    expect(secretHint(null)).toEqual({ set: false })
    expect(secretHint('')).toEqual({ set: false })
    expect(secretHint('short-pass')).toEqual({ set: true, last4: null })
    expect(secretHint('EAAGm0PX4ZCpsBAKZD9f7')).toEqual({ set: true, last4: 'D9f7' })
  })
})
