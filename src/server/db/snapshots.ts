import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import type { Database } from './client'

/**
 * Snapshots of the embedded database (issue 16): PGlite's own dump of its data directory,
 * written to a temporary file, synced to disk, then renamed into place, so a snapshot on disk
 * is always whole. The newest `keep` are kept.
 */
export const SNAPSHOT_PREFIX = 'arogya-'
const SUFFIX = '.tar.gz'

async function writeDurably(path: string, bytes: Uint8Array): Promise<void> {
  const file = await open(path, 'wx', 0o600)
  try {
    await file.writeFile(bytes)
    await file.sync()
  } finally {
    await file.close()
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Snapshot files in dir, oldest first. */
export function listSnapshots(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => f.startsWith(SNAPSHOT_PREFIX) && f.endsWith(SUFFIX))
    .sort()
    .map((f) => join(dir, f))
}

const PARTIAL_PREFIX = '.partial-'

export async function takeSnapshot(database: Database, dir: string, keep = 7): Promise<string> {
  if (!database.dump) throw new Error('Snapshots are for the embedded database only')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  // Left by a snapshot that was killed while writing (never listed, never restored): one
  // server writes the snapshots of its DATA_DIR, so any found now is dead.
  for (const f of readdirSync(dir)) {
    if (f.startsWith(PARTIAL_PREFIX)) rmSync(join(dir, f), { force: true })
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const path = join(dir, `${SNAPSHOT_PREFIX}${stamp}${SUFFIX}`)
  const temporary = join(dir, `${PARTIAL_PREFIX}${stamp}`)
  try {
    await writeDurably(temporary, await database.dump())
    renameSync(temporary, path)
    await syncDir(dir)
  } finally {
    rmSync(temporary, { force: true })
  }
  const all = listSnapshots(dir)
  for (const old of all.slice(0, Math.max(0, all.length - keep))) rmSync(old, { force: true })
  return path
}
