import { sql, type SQL } from 'drizzle-orm'
import type { AppDb } from '../db/client'
import type { JobProgress } from '../db/schema/jobs'

/**
 * The worker's statements, each one platform statement in its own implicit transaction (one
 * round trip; BEGIN and COMMIT around a single statement cost two more and changed nothing):
 * nothing is held between them (no session state, no advisory lock), so they are safe behind
 * PgBouncer in transaction mode and never keep PGlite's single connection for long. Every
 * statement about a claimed job is fenced by (locked_by, attempts): a worker whose lease ran
 * out and whose job another worker claimed can no longer renew, report, finish or fail it.
 * Claiming is in claim.ts, a handler's tenant transaction in fence.ts.
 */

/** One platform statement (the worker's own role, like withPlatform), autocommitted. */
async function rows<T>(db: AppDb, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows
}

export interface Fence {
  id: string
  workerId: string
  attempts: number
}

export const ms = (n: number) =>
  sql`(${Math.max(0, Math.round(n))}::double precision * interval '1 millisecond')`

/** The rows of the job this worker claimed, while it is still this worker's. */
export function fenced(f: Fence): SQL {
  return sql`id = ${f.id} and locked_by = ${f.workerId} and attempts = ${f.attempts} and status = 'running'`
}

/** Extends the lease; false when the job is no longer this worker's. */
export async function renewLease(db: AppDb, fence: Fence, leaseMs: number): Promise<boolean> {
  const renewed = await rows(
    db,
    sql`update jobs set locked_until = now() + ${ms(leaseMs)}, updated_at = now()
        where ${fenced(fence)} returning id`,
  )
  return renewed.length > 0
}

export async function saveProgress(
  db: AppDb,
  fence: Fence,
  progress: JobProgress,
): Promise<boolean> {
  const saved = await rows(
    db,
    sql`update jobs set progress = ${JSON.stringify(progress)}::jsonb, updated_at = now()
        where ${fenced(fence)} returning id`,
  )
  return saved.length > 0
}

/** done, with the handler's result (and its last progress). */
export async function markDone(
  db: AppDb,
  fence: Fence,
  result: unknown,
  progress: JobProgress | null,
): Promise<boolean> {
  const done = await rows(
    db,
    sql`update jobs set status = 'done', result = ${JSON.stringify(result ?? null)}::jsonb,
               progress = coalesce(${progress ? JSON.stringify(progress) : null}::jsonb, progress),
               last_error = null, locked_by = null, locked_until = null,
               finished_at = now(), updated_at = now()
        where ${fenced(fence)} returning id`,
  )
  return done.length > 0
}

/** failed (retried after `retryInMs`) or, when retryInMs is null, dead. */
export async function markFailed(
  db: AppDb,
  fence: Fence,
  error: string,
  retryInMs: number | null,
): Promise<boolean> {
  const next =
    retryInMs === null
      ? sql`status = 'dead', finished_at = now()`
      : sql`status = 'failed', run_at = now() + ${ms(retryInMs)}`
  const failed = await rows(
    db,
    sql`update jobs set ${next}, last_error = ${error}, locked_by = null, locked_until = null,
               updated_at = now()
        where ${fenced(fence)} returning id`,
  )
  return failed.length > 0
}

/** Finished jobs older than these are deleted (their dedupe keys with them), and idle lanes. */
export async function pruneFinished(
  db: AppDb,
  doneDays: number,
  deadDays: number,
): Promise<number> {
  const deleted = await rows(
    db,
    sql`delete from jobs
        where (status = 'done' and finished_at < now() - ${doneDays}::double precision * interval '1 day')
           or (status = 'dead' and finished_at < now() - ${deadDays}::double precision * interval '1 day')
        returning id`,
  )
  // Lanes of hospitals with no job left and no cap of their own, idle for a month (a deleted
  // hospital's too). A lane that gets work again is added back by the next claim.
  await rows(
    db,
    sql`delete from job_lanes l
        where l.max_running is null
          and (l.last_claimed_at is null or l.last_claimed_at < now() - ${deadDays}::double precision * interval '1 day')
          and not exists (select 1 from jobs j where j.lane = l.lane)`,
  )
  return deleted.length
}
