import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { assertPrivate, SECRETS_KEY_FILE } from '../data-dir'

/**
 * The keys that encrypt hospitals' secrets (docs/decisions/015-secrets.md).
 *
 * Written as SECRETS_KEY or in DATA_DIR/.secrets-key: one key, or a comma-separated list whose
 * first key encrypts and all decrypt (rotation). Each entry is `id:key` or a bare `key`, the
 * key being 32 random bytes in base64 or base64url; a bare key's id is its fingerprint (the
 * first 8 hex digits of its SHA-256), so `SECRETS_KEY=<new>,<old>` is a whole rotation.
 */
export interface SecretsKey {
  id: string
  key: Buffer
}

export interface SecretsKeyring {
  /** Encrypts every new secret. */
  current: SecretsKey
  /** Every key that may have encrypted a stored secret, by id. */
  byId: ReadonlyMap<string, Buffer>
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/
const BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/

/** The id a bare key gets: stable, and telling nothing useful about the key. */
export function keyFingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8)
}

function decodeKey(text: string, position: number): Buffer {
  const key = BASE64.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0)
  if (key.length !== 32) {
    // Never the key itself in a message.
    throw new Error(
      `SECRETS_KEY: key ${position} is not 32 bytes in base64 (make one with: openssl rand -base64 32)`,
    )
  }
  return key
}

/** Parses `key`, `id:key` or a comma-separated list of those; throws a message without keys. */
export function parseSecretsKeys(text: string): SecretsKeyring {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (!entries.length) throw new Error('SECRETS_KEY: no key given')
  const keys = entries.map((entry, i): SecretsKey => {
    const colon = entry.indexOf(':')
    if (colon === -1) {
      const key = decodeKey(entry, i + 1)
      return { id: keyFingerprint(key), key }
    }
    const id = entry.slice(0, colon)
    if (!KEY_ID.test(id)) {
      throw new Error(`SECRETS_KEY: key ${i + 1} has an id that is not 1-32 of A-Z a-z 0-9 _ -`)
    }
    return { id, key: decodeKey(entry.slice(colon + 1), i + 1) }
  })
  const byId = new Map<string, Buffer>()
  for (const { id, key } of keys) {
    if (byId.has(id)) throw new Error(`SECRETS_KEY: the key id ${id} is given twice`)
    byId.set(id, key)
  }
  return { current: keys[0] as SecretsKey, byId }
}

export interface LoadSecretsKeysOptions {
  /** env SECRETS_KEY. */
  given: string | undefined
  dataDir: string
  /**
   * May a key be generated into DATA_DIR when none is given? Not in production on
   * PostgreSQL: each instance would make its own key and could not read the others' secrets.
   */
  mayGenerate: boolean
}

/** SECRETS_KEY, else DATA_DIR/.secrets-key (0600, refused when others can read it), else a new one. */
export function loadSecretsKeys(options: LoadSecretsKeysOptions): SecretsKeyring {
  if (options.given) return parseSecretsKeys(options.given)
  const file = join(options.dataDir, SECRETS_KEY_FILE)
  if (existsSync(file)) {
    assertPrivate(file, 'The secrets key file')
    return parseSecretsKeys(readFileSync(file, 'utf8'))
  }
  if (!options.mayGenerate) {
    throw new Error(
      `No SECRETS_KEY and no ${file}. In production on PostgreSQL every instance must share ` +
        'one key: set SECRETS_KEY to the output of  openssl rand -base64 32  (keep a copy: ' +
        'without it the stored tokens and passwords cannot be read).',
    )
  }
  const key = randomBytes(32)
  // 'wx': two processes starting together never overwrite each other's key.
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error
    assertPrivate(file, 'The secrets key file')
    return parseSecretsKeys(readFileSync(file, 'utf8'))
  }
  return parseSecretsKeys(key.toString('base64'))
}
