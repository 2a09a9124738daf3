import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { jobs } from '../../db/schema/jobs'
import { withPlatform } from '../../db/tenant'
import type { JobHandler, JobLog } from '../../jobs/registry'
import { LEAD_IMPORT_JOB } from './leads.import'
import { hospitalsWithImports, pruneImportFiles } from './leads.import-files'
import { IN_FLIGHT_STATUSES } from './leads.import-limits'

/** The daily platform job that clears every hospital's old import files (all-jobs.ts). */
export const IMPORT_FILES_PRUNE_JOB = 'leads.import.prune'

/**
 * Walks DATA_DIR/imports/*: in each hospital's folder, uploads no queued, running or retrying
 * import needs (its import is done, dead or pruned) and every file older than 30 days go.
 * Runs for every hospital on a schedule, whether or not it imports again.
 */
export async function pruneAllImportFiles(
  db: AppDb,
  options: {
    maxAgeDays?: number
    orphanGraceMs?: number
    now?: number
    log?: JobLog
  } = {},
): Promise<{ hospitals: number; removed: number }> {
  const hospitals = await hospitalsWithImports()
  let removed = 0
  for (const hospitalId of hospitals) {
    // One hospital's failure (a query, a file it cannot remove) is its own: the others go on.
    try {
      const live = await withPlatform(db, (tx) =>
        tx
          .select({ fileId: sql<string | null>`${jobs.payload} ->> 'fileId'` })
          .from(jobs)
          .where(
            and(
              eq(jobs.hospitalId, hospitalId),
              eq(jobs.name, LEAD_IMPORT_JOB),
              inArray(jobs.status, [...IN_FLIGHT_STATUSES]),
            ),
          ),
      )
      const liveUploads = new Set(live.flatMap((r) => (r.fileId ? [r.fileId.toLowerCase()] : [])))
      removed += await pruneImportFiles(hospitalId, { ...options, liveUploads })
    } catch (error) {
      options.log?.error({ err: error, hospitalId }, 'import files prune: hospital skipped')
    }
  }
  return { hospitals: hospitals.length, removed }
}

export const pruneImportFilesJob: JobHandler = async (_job, ctx) =>
  pruneAllImportFiles(ctx.db, { log: ctx.log })
