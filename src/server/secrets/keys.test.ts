import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { prepareDataDir, SECRETS_KEY_FILE } from '../data-dir'
import { keyFingerprint, loadSecretsKeys, parseSecretsKeys } from './keys'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arogya-secrets-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const key = () => randomBytes(32).toString('base64')

describe('parseSecretsKeys', () => {
  it('reads one key, id:key pairs, base64url, and puts the first key first', () => {
    const k1 = key()
    const ring = parseSecretsKeys(k1)
    expect(ring.current.id).toBe(keyFingerprint(Buffer.from(k1, 'base64')))
    const k2 = randomBytes(32)
    const list = parseSecretsKeys(` new:${k2.toString('base64url')} , old:${k1}`)
    expect(list.current.id).toBe('new')
    expect(list.current.key.equals(k2)).toBe(true)
    expect([...list.byId.keys()]).toEqual(['new', 'old'])
  })

  it('refuses short, long and malformed keys and repeated ids, without echoing a key', () => {
    const secretish = randomBytes(16).toString('base64')
    for (const bad of [
      '',
      secretish,
      randomBytes(33).toString('base64'),
      `a:${key()},a:${key()}`,
      `bad id:${key()}`,
      `a:${key()},b:${secretish}`,
    ]) {
      expect(() => parseSecretsKeys(bad)).toThrow(/SECRETS_KEY/)
      try {
        parseSecretsKeys(bad)
      } catch (error) {
        expect((error as Error).message).not.toContain(secretish)
      }
    }
  })
})

describe('loadSecretsKeys', () => {
  it('prefers SECRETS_KEY, else generates DATA_DIR/.secrets-key (0600) once and reuses it', () => {
    const given = key()
    expect(loadSecretsKeys({ given, dataDir: dir, mayGenerate: true }).current.key).toEqual(
      Buffer.from(given, 'base64'),
    )
    const first = loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: true })
    const file = join(dir, SECRETS_KEY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const again = loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: false })
    expect(again.current.key.equals(first.current.key)).toBe(true)
    expect(readFileSync(file, 'utf8').trim()).toBe(first.current.key.toString('base64'))
  })

  it('refuses a key file other users can read, at load and at start-up', () => {
    loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: true })
    const file = join(dir, SECRETS_KEY_FILE)
    chmodSync(file, 0o644)
    expect(() => loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: true })).toThrow(
      /secrets key file .* open to other users/,
    )
    chmodSync(dir, 0o700)
    expect(() => prepareDataDir(dir)).toThrow(/secrets key file .* open to other users/)
  })

  it('does not generate a key where it may not (production on PostgreSQL)', () => {
    expect(() => loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: false })).toThrow(
      /set SECRETS_KEY/,
    )
    writeFileSync(join(dir, SECRETS_KEY_FILE), `k1:${key()}\n`, { mode: 0o600 })
    expect(loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: false }).current.id).toBe(
      'k1',
    )
  })
})
