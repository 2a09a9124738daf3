import { readdir, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'

/**
 * Where imports keep their files: DATA_DIR/imports/<hospital>/ holds uploads (<file id>.csv,
 * removed once imported), error reports (<job>.errors.csv) and state (<job>.state.json).
 * Shared storage when several instances run, since any worker may take the job.
 */

/** DATA_DIR/imports (DATA_DIR as in env.ts, './data' by default). */
export function importsRoot(): string {
  return resolve(process.env.DATA_DIR ?? './data', 'imports')
}

export function hospitalDir(hospitalId: string): string {
  return join(importsRoot(), hospitalId)
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const UPLOAD = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.csv$/i

export const uploadPath = (hospitalId: string, fileId: string) =>
  join(hospitalDir(hospitalId), `${fileId}.csv`)
export const errorsPath = (hospitalId: string, jobId: string) =>
  join(hospitalDir(hospitalId), `${jobId}.errors.csv`)
export const statePath = (hospitalId: string, jobId: string) =>
  join(hospitalDir(hospitalId), `${jobId}.state.json`)

/** Bytes of the files in a hospital's import folder (0 when there is none). */
export async function folderBytes(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[])
  let total = 0
  for (const name of names) {
    const info = await stat(join(dir, name)).catch(() => null)
    if (info?.isFile()) total += info.size
  }
  return total
}

export interface PruneOptions {
  /** File ids of uploads whose imports are still queued, running or waiting to retry. */
  liveUploads: ReadonlySet<string>
  /** Files older than this go (error reports, state, anything else). Default 30. */
  maxAgeDays?: number
  /**
   * An upload no live import needs goes once untouched this long (default 1 hour): the grace
   * covers an upload still streaming in, whose job is not enqueued yet.
   */
  orphanGraceMs?: number
  now?: number
}

/**
 * One hospital's folder: uploads of finished, dead or pruned imports, and every file older
 * than maxAgeDays (jobs are pruned after 7 or 30 days, decision 014, so their reports cannot
 * be asked for by then). A live import's upload stays whatever its age. Returns files removed.
 */
export async function pruneImportFiles(hospitalId: string, options: PruneOptions): Promise<number> {
  const dir = hospitalDir(hospitalId)
  const now = options.now ?? Date.now()
  const cutoff = now - (options.maxAgeDays ?? 30) * 86_400_000
  const orphanCutoff = now - (options.orphanGraceMs ?? 3_600_000)
  let removed = 0
  const names = await readdir(dir).catch(() => [] as string[])
  for (const name of names) {
    const path = join(dir, name)
    const info = await stat(path).catch(() => null)
    if (!info?.isFile()) continue
    const upload = UPLOAD.exec(name)?.[1]
    const gone = upload
      ? !options.liveUploads.has(upload.toLowerCase()) && info.mtimeMs < orphanCutoff
      : info.mtimeMs < cutoff
    if (gone) {
      await rm(path, { force: true })
      removed++
    }
  }
  return removed
}

/** The hospitals that have an import folder (directory names that are UUIDs). */
export async function hospitalsWithImports(): Promise<string[]> {
  const entries = await readdir(importsRoot(), { withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isDirectory() && UUID.test(e.name)).map((e) => e.name)
}
