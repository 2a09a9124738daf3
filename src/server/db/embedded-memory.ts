import { setFlagsFromString } from 'node:v8'
import { PGlite } from '@electric-sql/pglite'

/**
 * How the embedded PostgreSQL (PGlite) is run so that the server stays under 300 MB of RSS
 * with 100,000 patients (docs/decisions/017-memory.md has the measurements).
 *
 * - shared_buffers 16 MB instead of PostgreSQL's 128 MB. PGlite allocates the buffer pool in
 *   its WASM memory at start and touches all of it, and WASM memory is never given back, so
 *   128 MB of it was resident from the first second. A page that is not in the pool is read
 *   from the data directory through the operating system's file cache, which keeps the files
 *   in memory anyway (outside the process); the bench's requests and a count or trigram scan
 *   over 100,000 patients measured no slower. wal_buffers follows (1/32 of it).
 * - The rest as PGlite's defaults (single user, no parallel workers, fsync off).
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB'

export function embeddedStartParams(): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`]
}

let baseline = false

/**
 * PGlite's WASM (PostgreSQL, 9 MB) runs on V8's baseline compiler (Liftoff) only, without
 * tiering hot functions up to TurboFan. TurboFan compiles on background threads whose
 * scratch memory stays with the process (about 55 MB after start-up and a few queries,
 * never returned), while the server's short queries ran no slower on Liftoff; only long
 * computations inside PostgreSQL are (a scan applying ILIKE to 100,000 rows: about 20 %).
 * Set before the first PGlite compiles its module; process-wide, so only the embedded
 * database turns it on (the PostgreSQL mode has no WASM worth speaking of).
 */
export function compileWasmWithBaselineOnly(): void {
  if (baseline) return
  baseline = true
  setFlagsFromString('--liftoff-only')
}
