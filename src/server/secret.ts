import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { assertPrivate, prepareDataDir } from './data-dir'

/** The session-signing secret: given, or generated once and kept (0600) in the data directory. */
export function loadAuthSecret(given: string | undefined, dataDir: string): string {
  if (given) return given
  prepareDataDir(dataDir)
  const file = join(dataDir, '.auth-secret')
  if (existsSync(file)) {
    assertPrivate(file, 'The session secret file')
    return readFileSync(file, 'utf8').trim()
  }
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' })
  return secret
}
