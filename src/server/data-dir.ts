import { existsSync, mkdirSync, statSync } from 'node:fs'

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
 * The data directory: created 0700 if missing, and refused at start-up when group or others
 * have any access to it (ASVS 14.2/13.3). Call after process.umask(PRIVATE_UMASK).
 */
export function prepareDataDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 })
  assertPrivate(dir, 'DATA_DIR')
}
