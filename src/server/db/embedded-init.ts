import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A first start of the embedded database that is killed while PGlite's initdb runs (or while
 * a snapshot is being loaded) leaves a data directory that has PG_VERSION but is not whole,
 * and PGlite then fails on every later start ("PGlite failed to initialize properly"). So a
 * new data directory is made under a marker file: written before initdb, removed once PGlite
 * has opened the new database. A start that finds the marker knows the database was never
 * whole (migrations and data come after), removes PGlite's files and makes it again.
 */
const MARKER = '.initializing'

/** PGlite's own entries in its data directory; anything else there (the session secret,
 * the dev outbox) belongs to the server and is left alone. */
const PGLITE_ENTRY =
  /^(PG_VERSION|base|global|pg_[a-z_]+|postgresql(\.auto)?\.conf|postmaster\.(pid|opts)|current_logfiles)$/

type Kind = 'initdb' | 'restore'

/**
 * Before PGlite.create on dataDir. Returns a function to call once PGlite has opened the
 * database (it removes the marker), or undefined when the directory already held a database.
 */
export function beginEmbeddedInit(dataDir: string, restoring: boolean): (() => void) | undefined {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const marker = join(dataDir, MARKER)
  if (existsSync(marker)) {
    const interrupted = readFileSync(marker, 'utf8').trim() as Kind
    if (interrupted === 'restore' && !restoring) {
      throw new Error(
        'An earlier restore from a snapshot was interrupted before it finished. Run npm run db:restore again',
      )
    }
    for (const entry of readdirSync(dataDir)) {
      if (PGLITE_ENTRY.test(entry)) rmSync(join(dataDir, entry), { recursive: true, force: true })
    }
  } else if (existsSync(join(dataDir, 'PG_VERSION'))) {
    return undefined
  }
  writeFileSync(marker, restoring ? 'restore' : 'initdb', { mode: 0o600 })
  return () => rmSync(marker, { force: true })
}
