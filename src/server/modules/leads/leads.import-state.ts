import { readFile } from 'node:fs/promises'
import { statePath } from './leads.import-files'
import type { ReportCounts } from './leads.import-report'

/** Where an import stands: what its next attempt continues from, and what progress shows. */
export interface ImportState extends ReportCounts {
  /** Data records read (valid or not). */
  records: number
  /** Records the parser skipped (broken quoting, too long). */
  skips: number
  total: number
  created: number
  merged: number
  failed: number
  finished: boolean
  /** Explains a stop or an import without rows (shown with a finished import). */
  message: string | null
  /** Why the import cannot go on: one of its own texts, never row data (shown when dead). */
  failure: string | null
}

export function newState(total: number): ImportState {
  return {
    records: 0,
    skips: 0,
    total,
    created: 0,
    merged: 0,
    failed: 0,
    errorsBytes: 0,
    listed: 0,
    unlisted: {},
    finished: false,
    message: null,
    failure: null,
  }
}

/** A saved state, completed with what older versions did not keep. */
export function asState(value: unknown): ImportState | null {
  if (!value || typeof value !== 'object' || !('records' in value)) return null
  const saved = value as Partial<ImportState>
  return { ...newState(0), listed: saved.failed ?? 0, ...saved }
}

/**
 * The state file of an import begun before states became job checkpoints (issue 24): read
 * once so that such an import continues where it stopped; nothing writes these any more.
 */
export async function readState(hospitalId: string, jobId: string): Promise<ImportState | null> {
  try {
    return asState(JSON.parse(await readFile(statePath(hospitalId, jobId), 'utf8')))
  } catch {
    return null
  }
}
