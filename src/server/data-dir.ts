import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Nothing the server writes (database, secrets, later uploads, backups, exports) is for others. */
export const PRIVATE_UMASK = 0o077

function modeText(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0')
}

/** Throws a clear message when a path can be read or written by other users. */
export function assertPrivate(path: string, what: string): void {
  const mode = statSync(path).mode
  if ((mode & 0o077) === 0) return
  throw new Error(
    `${what} ${path} is open to other users (mode ${modeText(mode)}). It holds patient data, ` +
      `password hashes and session secrets. Fix it with:  chmod -R go-rwx ${path}`,
  )
}

/**
 * Takes group and other access off everything below dir. PGlite (Emscripten's NODEFS)
 * chmods the files it creates to 0666 whatever the umask; the 0700 folders already keep
 * other users out, and this makes the files themselves private again at each start.
 */
function tighten(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isSymbolicLink()) continue
    const path = join(entry.parentPath, entry.name)
    const mode = statSync(path).mode
    if (mode & 0o077) chmodSync(path, mode & 0o7700)
  }
}

/**
 * The data directory: created 0700 if missing, refused at start-up when group or others
 * have any access to it (ASVS 14.2/13.3), and its contents made private. Call after
 * process.umask(PRIVATE_UMASK).
 */
export function prepareDataDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 })
  assertPrivate(dir, 'DATA_DIR')
  const secret = join(dir, AUTH_SECRET_FILE)
  if (existsSync(secret)) assertPrivate(secret, 'The session secret file')
  const secretsKey = join(dir, SECRETS_KEY_FILE)
  if (existsSync(secretsKey)) assertPrivate(secretsKey, 'The secrets key file')
  tighten(dir)
}

/** The generated session-signing secret, inside DATA_DIR. */
export const AUTH_SECRET_FILE = '.auth-secret'

/** The generated key that encrypts hospitals' secrets (secrets/keys.ts), inside DATA_DIR. */
export const SECRETS_KEY_FILE = '.secrets-key'
