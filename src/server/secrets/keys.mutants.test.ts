import { createHash, randomBytes } from 'node:crypto'
import type * as nodeFs from 'node:fs'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SECRETS_KEY_FILE } from '../data-dir'
import { keyFingerprint, loadSecretsKeys, parseSecretsKeys } from './keys'

// The secrets keyring at its edges (mutation testing, docs/decisions/024): key ids, which
// entry a message names, what counts as a key, and two processes generating a key at once.

// existsSync can be made to miss a file once: the moment between another process's check
// and its write, when both start together.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof nodeFs>()
  return { ...fs, existsSync: vi.fn(fs.existsSync) }
})

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arogya-keys-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const key = () => randomBytes(32).toString('base64')
const short = randomBytes(31).toString('base64')

describe('parseSecretsKeys', () => {
  it('names a bare key by the first 8 hex digits of its SHA-256', () => {
    const k = randomBytes(32)
    const expected = createHash('sha256').update(k).digest('hex').slice(0, 8)
    expect(keyFingerprint(k)).toBe(expected)
    expect(parseSecretsKeys(k.toString('base64')).current.id).toBe(expected)
  })

  it('names the entry at fault by its position, counting from 1', () => {
    expect(() => parseSecretsKeys(short)).toThrow(
      'SECRETS_KEY: key 1 is not 32 bytes in base64 (make one with: openssl rand -base64 32)',
    )
    expect(() => parseSecretsKeys(`${key()},${short}`)).toThrow('SECRETS_KEY: key 2 is not')
    expect(() => parseSecretsKeys(`a:${key()},b:${short}`)).toThrow('SECRETS_KEY: key 2 is not')
    expect(() => parseSecretsKeys(`a:${key()},b c:${key()}`)).toThrow(
      'SECRETS_KEY: key 2 has an id that is not 1-32 of A-Z a-z 0-9 _ -',
    )
    expect(() => parseSecretsKeys(`a:${key()},a:${key()}`)).toThrow(
      'SECRETS_KEY: the key id a is given twice',
    )
  })

  it('takes ids of 1 to 32 of A-Z a-z 0-9 _ -', () => {
    const id = `${'A'.repeat(10)}z_9-${'b'.repeat(18)}`
    expect(id).toHaveLength(32)
    expect(parseSecretsKeys(`${id}:${key()}`).current.id).toBe(id)
    for (const bad of [`${id}x`, 'a.b', 'ä', 'a b']) {
      expect(() => parseSecretsKeys(`${bad}:${key()}`), bad).toThrow(/has an id that is not/)
    }
    expect(() => parseSecretsKeys(`:${key()}`)).toThrow(/has an id that is not/)
  })

  it('takes a key only as exactly 43 base64 characters and an optional =', () => {
    const k = key()
    expect(parseSecretsKeys(`k:${k.replace(/=$/, '')}`).current.key).toEqual(
      Buffer.from(k, 'base64'),
    )
    for (const bad of [
      `***${k}`,
      `${k}***`,
      `${k}=`,
      `A${k}`,
      `${k.slice(0, 40)} ${k.slice(40)}`,
    ]) {
      expect(() => parseSecretsKeys(`k:${bad}`), bad).toThrow(/is not 32 bytes/)
    }
  })

  it('skips empty entries of the list', () => {
    const k = key()
    expect([...parseSecretsKeys(`a:${k},`).byId.keys()]).toEqual(['a'])
    expect([...parseSecretsKeys(` , a:${k} ,, b:${key()} `).byId.keys()]).toEqual(['a', 'b'])
    expect(() => parseSecretsKeys(' , ')).toThrow('SECRETS_KEY: no key given')
  })
})

describe('loadSecretsKeys', () => {
  it('says how to set a shared key where none may be generated', () => {
    const file = join(dir, SECRETS_KEY_FILE)
    expect(() => loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: false })).toThrow(
      `No SECRETS_KEY and no ${file}. In production on PostgreSQL every instance must share one key: set SECRETS_KEY to the output of  openssl rand -base64 32  (keep a copy: without it the stored tokens and passwords cannot be read).`,
    )
  })

  it("keeps the other process's key when both generate one at once", () => {
    const file = join(dir, SECRETS_KEY_FILE)
    const theirs = key()
    writeFileSync(file, `${theirs}\n`, { mode: 0o600 })
    vi.mocked(existsSync).mockReturnValueOnce(false)
    const ring = loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: true })
    expect(ring.current.key).toEqual(Buffer.from(theirs, 'base64'))
    expect(readFileSync(file, 'utf8')).toBe(`${theirs}\n`)
  })

  it("refuses the other process's key file when others can read it", () => {
    const file = join(dir, SECRETS_KEY_FILE)
    writeFileSync(file, `${key()}\n`, { mode: 0o644 })
    vi.mocked(existsSync).mockReturnValueOnce(false)
    expect(() => loadSecretsKeys({ given: undefined, dataDir: dir, mayGenerate: true })).toThrow(
      /secrets key file .* open to other users/,
    )
  })

  it('passes on any other failure to write the key', () => {
    expect(() =>
      loadSecretsKeys({ given: undefined, dataDir: join(dir, 'missing'), mayGenerate: true }),
    ).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'open' }))
  })
})
