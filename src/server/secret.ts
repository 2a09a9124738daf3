import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { assertPrivate, AUTH_SECRET_FILE } from './data-dir'

/** The session-signing secret: given, or generated once and kept (0600) in the data directory. */
export function loadAuthSecret(given: string | undefined, dataDir: string): string {
  if (given) return given
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = join(dataDir, AUTH_SECRET_FILE)
  if (existsSync(file)) {
    assertPrivate(file, 'The session secret file')
    return readFileSync(file, 'utf8').trim()
  }
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' })
  return secret
}
