import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ExportKind } from '../../../shared/schemas/data-export'

/**
 * Where exports are written: DATA_DIR/exports/<hospital>/<job id>.zip (or .ndjson). The folder
 * is shared storage when several instances run (as for imports): the worker that builds an
 * export and the instance that serves its download need not be the same.
 */
export function exportsRoot(): string {
  return resolve(process.env.DATA_DIR ?? './data', 'exports')
}

export const exportDir = (hospitalId: string) => join(exportsRoot(), hospitalId)

export const exportExtension = (kind: ExportKind) => (kind === 'fhir' ? 'ndjson' : 'zip')

export const exportPath = (hospitalId: string, jobId: string, kind: ExportKind) =>
  join(exportDir(hospitalId), `${jobId}.${exportExtension(kind)}`)

export async function ensureExportDir(hospitalId: string): Promise<string> {
  const dir = exportDir(hospitalId)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  return dir
}

/** Exports are kept this long for download, then removed. */
export const EXPORT_KEEP_MS = 48 * 3_600_000

/**
 * Removes the hospital's export files older than EXPORT_KEEP_MS (finished downloads and the
 * partial files of exports that died). Run before each new export. Returns files removed.
 */
export async function pruneExports(hospitalId: string, now = Date.now()): Promise<number> {
  const dir = exportDir(hospitalId)
  let removed = 0
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name)
    const info = await stat(path).catch(() => null)
    if (info?.isFile() && info.mtimeMs < now - EXPORT_KEEP_MS) {
      await rm(path, { force: true })
      removed++
    }
  }
  return removed
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The daily platform job that clears every hospital's old exports (jobs/all-jobs.ts). */
export const EXPORT_FILES_PRUNE_JOB = 'data.export.prune'

/** Every hospital's export folder: files older than EXPORT_KEEP_MS go. */
export async function pruneAllExports(now = Date.now()): Promise<{ removed: number }> {
  const entries = await readdir(exportsRoot(), { withFileTypes: true }).catch(() => [])
  let removed = 0
  for (const entry of entries) {
    if (entry.isDirectory() && UUID.test(entry.name)) removed += await pruneExports(entry.name, now)
  }
  return { removed }
}
