import type { AppDb, Tx } from '../db/client'
import type { JobProgress } from '../db/schema/jobs'
import { PUBLIC_MESSAGE } from '../http/logging'

/** A job as its handler sees it. */
export interface ClaimedJob {
  id: string
  name: string
  /** The job row's hospital (never the payload's): the tenant ctx.withTenant runs as. */
  hospitalId: string | null
  payload: unknown
  /** This attempt's number, from 1. */
  attempts: number
  maxAttempts: number
  runAt: Date
  /** What the last ctx.checkpoint committed (null before the first). */
  checkpoint: unknown
}

export interface JobLog {
  info: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

export interface JobContext {
  db: AppDb
  /** Aborted when the lease is lost (another worker may now run the job) or at a forced stop. */
  signal: AbortSignal
  /** Progress for the UI's bar, e.g. rows imported of rows in the file. Call per batch. */
  progress: (done: number, total: number) => Promise<void>
  /**
   * The job's hospital's tenant transaction (app_user under RLS), fenced: it first renews the
   * lease and holds the job row's lock until COMMIT, and throws LeaseLostError (nothing
   * commits) when the job is no longer this worker's. Throws for a platform job.
   */
  withTenant: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>
  /**
   * Stores `value` (JSON) as the job's checkpoint in `tx`, which must be this job's
   * ctx.withTenant transaction: it commits with the batch or not at all. The next attempt
   * reads it as job.checkpoint.
   */
  checkpoint: (tx: Tx, value: unknown) => Promise<void>
  log: JobLog
}

/**
 * Runs one attempt. May run more than once for one job (a retry, a lease that ran out), so it
 * must be idempotent. Its return value is stored as the job's result (JSON).
 */
export type JobHandler = (job: ClaimedJob, ctx: JobContext) => Promise<unknown>

/** Per-hospital limits of one job name, for providers that need them (counted in the database). */
export interface HandlerOptions {
  /** At most this many of these jobs running at once per hospital, across all workers. */
  perHospitalRunning?: number
  /** At most this many of these jobs started per hospital in any 60 seconds. */
  perHospitalPerMinute?: number
  /**
   * Runs once when the job is about to go dead (its last attempt failed, or a worker died
   * during it), while the lease is still this worker's, so ctx.withTenant works: the place to
   * settle what the job left half done (a message left queued or sending). Its own failure is
   * logged, not retried.
   */
  onDead?: (job: ClaimedJob, ctx: JobContext, why: string) => Promise<void>
}

/**
 * A failure whose message was written for the hospital's staff (no row data, no values):
 * stored in last_error and shown as it is. The job is retried like any failure.
 */
export class PublicJobError extends Error {
  override name = 'PublicJobError'
  readonly [PUBLIC_MESSAGE] = true
}

/**
 * Thrown by a handler when retrying cannot help (bad payload, revoked token): the job is dead.
 * Its message is shown to users as it is: write it for them, without row data.
 */
export class PermanentJobError extends PublicJobError {
  override name = 'PermanentJobError'
}

/** ctx.withTenant found the job no longer this worker's: its transaction was rolled back. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError'
  constructor() {
    super('the job lease was lost; nothing was committed')
  }
}

interface Registered {
  handler: JobHandler
  options: HandlerOptions
}

const handlers = new Map<string, Registered>()

const JOB_NAME = /^[a-z][a-z0-9_.:-]{0,99}$/

export function assertJobName(name: string): void {
  if (!JOB_NAME.test(name)) throw new Error(`bad job name ${JSON.stringify(name)}`)
}

function assertLimit(value: number | undefined, what: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
    throw new Error(`registerHandler: ${what} must be a whole number of at least 1`)
  }
}

/** One handler per job name (code, the same in every instance). Returns its removal. */
export function registerHandler(
  name: string,
  handler: JobHandler,
  options: HandlerOptions = {},
): () => void {
  assertJobName(name)
  assertLimit(options.perHospitalRunning, 'perHospitalRunning')
  assertLimit(options.perHospitalPerMinute, 'perHospitalPerMinute')
  if (handlers.has(name)) throw new Error(`a handler for job ${name} is registered already`)
  const entry = { handler, options: { ...options } }
  handlers.set(name, entry)
  return () => {
    if (handlers.get(name) === entry) handlers.delete(name)
  }
}

export function handlerFor(name: string): JobHandler | undefined {
  return handlers.get(name)?.handler
}

/** The per-hospital limits registered for `name` ({} when none). */
export function handlerOptions(name: string): HandlerOptions {
  return handlers.get(name)?.options ?? {}
}

export function registeredJobNames(): string[] {
  return [...handlers.keys()]
}

export type { JobProgress }
