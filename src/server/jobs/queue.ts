import { and, eq } from 'drizzle-orm'
import type { AppDb, Tx } from '../db/client'
import { jobs, type JobProgress, type JobStatus } from '../db/schema/jobs'
import { withTenant } from '../db/tenant'
import { assertJobName } from './registry'

export interface EnqueueInput {
  name: string
  /** The hospital whose work this is; null for platform work (backups, retention). */
  hospitalId: string | null
  payload?: unknown
  /** Not before this time (default: now). */
  runAt?: Date
  /** One job per key and hospital, ever (until finished jobs are pruned). */
  dedupeKey?: string
  maxAttempts?: number
}

export interface Enqueued {
  id: string
  /** False when a job with this dedupe key existed already (its id is returned). */
  created: boolean
}

/** The stored form of a dedupe key: a hospital's keys never collide with another's. */
export function storedDedupeKey(hospitalId: string | null, key: string): string {
  return `${hospitalId ?? 'platform'}:${key}`
}

/**
 * Adds a job in the caller's transaction (transactional outbox): it exists if and only if that
 * transaction commits, and a worker can claim it from then on. Inside withTenant a hospital
 * may enqueue only its own jobs (row-level security); platform jobs go through withPlatform.
 */
export async function enqueue(tx: Tx | AppDb, input: EnqueueInput): Promise<Enqueued> {
  assertJobName(input.name)
  if (input.maxAttempts !== undefined && !(input.maxAttempts >= 1)) {
    throw new Error('enqueue: maxAttempts must be at least 1')
  }
  const dedupeKey =
    input.dedupeKey === undefined ? null : storedDedupeKey(input.hospitalId, input.dedupeKey)
  const insert = tx.insert(jobs).values({
    name: input.name,
    hospitalId: input.hospitalId,
    payload: input.payload ?? {},
    ...(input.runAt ? { runAt: input.runAt } : {}),
    ...(input.maxAttempts ? { maxAttempts: input.maxAttempts } : {}),
    dedupeKey,
  })
  if (dedupeKey === null) {
    const [row] = await insert.returning({ id: jobs.id })
    if (!row) throw new Error('enqueue: no row returned')
    return { id: row.id, created: true }
  }
  const [row] = await insert
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id })
  if (row) return { id: row.id, created: true }
  const [existing] = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(eq(jobs.dedupeKey, dedupeKey))
  if (!existing) throw new Error('enqueue: the job with this dedupe key is not visible here')
  return { id: existing.id, created: false }
}

/** What a hospital's UI may see of its job (never the payload: it may name other records). */
export interface JobView {
  id: string
  name: string
  status: JobStatus
  attempts: number
  maxAttempts: number
  progress: JobProgress | null
  result: unknown
  /** An error class and code, or a message written for users (http/logging.ts errorText). */
  lastError: string | null
  /** What the handler's last ctx.checkpoint committed (its own shape; null before one). */
  checkpoint: unknown
  runAt: Date
  createdAt: Date
  finishedAt: Date | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The lookup of getJob in any transaction. It names the hospital itself, so it refuses another
 * hospital's job even where row-level security does not apply (a platform transaction, the
 * table's owner): RLS is the second line of defence, not the only one.
 */
export async function readJob(
  tx: Tx | AppDb,
  id: string,
  hospitalId: string,
): Promise<JobView | null> {
  if (!UUID.test(id) || !UUID.test(hospitalId)) return null
  const [row] = await tx
    .select({
      id: jobs.id,
      name: jobs.name,
      status: jobs.status,
      attempts: jobs.attempts,
      maxAttempts: jobs.maxAttempts,
      progress: jobs.progress,
      result: jobs.result,
      lastError: jobs.lastError,
      checkpoint: jobs.checkpoint,
      runAt: jobs.runAt,
      createdAt: jobs.createdAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.hospitalId, hospitalId)))
  return row ? { ...row, checkpoint: row.checkpoint ?? null } : null
}

/**
 * A hospital's job for progress polling; null for a missing id, a platform job or another
 * hospital's job (routes answer 404 for all three alike). Read in the hospital's tenant
 * transaction, so RLS hides other hospitals' jobs too.
 */
export async function getJob(db: AppDb, id: string, hospitalId: string): Promise<JobView | null> {
  if (!UUID.test(id) || !UUID.test(hospitalId)) return null
  return withTenant(db, { hospitalId, userId: null }, (tx) => readJob(tx, id, hospitalId))
}
