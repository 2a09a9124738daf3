import { randomBytes } from 'node:crypto'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { parseSecretsKeys } from './keys'
import {
  decryptSecret,
  encryptSecret,
  installSecretsKeys,
  SecretDecryptError,
  secretHint,
  secretKeyId,
} from './secrets'

// Secrets at rest at their edges (mutation testing, docs/decisions/024): each refusal says
// which kind it is, only canonical spellings are read, and the hint shows 4 characters from
// 12 on.

const keyA = randomBytes(32).toString('base64')
beforeEach(() => installSecretsKeys(parseSecretsKeys(`a:${keyA}`)))

function refusal(run: () => unknown): SecretDecryptError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(SecretDecryptError)
    return error as SecretDecryptError
  }
  throw new Error('expected the secret to be refused')
}

const MALFORMED = 'malformed secret'
const CHANGED = 'secret failed authentication (changed, or another context)'

/** Another base64url spelling of the same bytes: the last character's unused bits set. */
function respelled(text: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const last = alphabet.indexOf(text.at(-1) ?? 'A')
  return `${text.slice(0, -1)}${alphabet[last ^ 1]}`
}

describe('decryptSecret refusals', () => {
  it('names the error class', () => {
    expect(refusal(() => decryptSecret('plain')).name).toBe('SecretDecryptError')
  })

  it('calls a value of the wrong shape malformed', () => {
    const [v, id, iv = '', tag = '', ct = ''] = encryptSecret('smtp-password').split(':')
    for (const bad of [
      'plain',
      `${v}:${id}:${iv}:${tag}`,
      `v2:${id}:${iv}:${tag}:${ct}`,
      `${v}::${iv}:${tag}:${ct}`,
      `${v}:${id}:${iv}x!:${tag}:${ct}`,
      `${v}:${id}:${iv}:${tag}:${ct}*`,
      `${v}:${id}:${iv.slice(0, -2)}:${tag}:${ct}`,
      `${v}:${id}:${iv}AAAA:${tag}:${ct}`,
      `${v}:${id}:${iv}:${tag.slice(0, -3)}:${ct}`,
    ]) {
      expect(refusal(() => decryptSecret(bad)).message, bad).toBe(MALFORMED)
    }
  })

  it('reads only the canonical spelling of the tag and the ciphertext', () => {
    // 16 bytes each: 22 characters with 4 bits to spare (a 12-byte IV has none).
    const stored = encryptSecret('meta-page-token!')
    const parts = stored.split(':')
    for (const index of [3, 4]) {
      const copy = [...parts]
      copy[index] = respelled(copy[index] ?? '')
      expect(Buffer.from(copy[index] ?? '', 'base64url')).toEqual(
        Buffer.from(parts[index] ?? '', 'base64url'),
      )
      expect(refusal(() => decryptSecret(copy.join(':'))).message).toBe(MALFORMED)
    }
    expect(decryptSecret(stored)).toBe('meta-page-token!')
  })

  it('calls a changed or moved ciphertext unauthenticated', () => {
    const stored = encryptSecret('twilio-token', 'twilio:h1')
    expect(refusal(() => decryptSecret(stored, 'twilio:h2')).message).toBe(CHANGED)
    const parts = stored.split(':')
    const ct = Buffer.from(parts[4] ?? '', 'base64url')
    ct[0] = (ct[0] ?? 0) ^ 1
    parts[4] = ct.toString('base64url')
    expect(refusal(() => decryptSecret(parts.join(':'), 'twilio:h1')).message).toBe(CHANGED)
  })

  it('treats no context and an empty context alike', () => {
    expect(decryptSecret(encryptSecret('s1'), '')).toBe('s1')
    expect(decryptSecret(encryptSecret('s2', ''))).toBe('s2')
  })
})

describe('secretKeyId', () => {
  it('reads the key id of v1 values only', () => {
    expect(secretKeyId(encryptSecret('x'))).toBe('a')
    expect(secretKeyId('v2:a:b:c:d')).toBeUndefined()
    expect(secretKeyId('plain')).toBeUndefined()
  })
})

describe('secretHint', () => {
  it('shows the last 4 characters from 12 characters on', () => {
    expect(secretHint('12345678901')).toEqual({ set: true, last4: null })
    expect(secretHint('123456789012')).toEqual({ set: true, last4: '9012' })
    expect(secretHint(undefined)).toEqual({ set: false })
    // Characters, not UTF-16 units: an emoji counts once and is never cut in half.
    expect(secretHint('🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑')).toEqual({ set: true, last4: null })
    expect(secretHint('abcdefghijk🔑')).toEqual({ set: true, last4: 'ijk🔑' })
  })
})

describe('without keys installed', () => {
  it('refuses to encrypt or decrypt, saying why', async () => {
    vi.resetModules()
    const fresh = await import('./secrets')
    expect(() => fresh.encryptSecret('x')).toThrow(
      'secrets: no keys installed (installSecretsKeys at start-up)',
    )
    expect(() => fresh.decryptSecret(encryptSecret('x'))).toThrow(
      'secrets: no keys installed (installSecretsKeys at start-up)',
    )
  })
})
