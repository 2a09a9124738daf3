import type { AppDb, Tx } from '../db/client'
import type { JobProgress } from '../db/schema/jobs'

/** A job as its handler sees it. */
export interface ClaimedJob {
  id: string
  name: string
  hospitalId: string | null
  payload: unknown
  /** This attempt's number, from 1. */
  attempts: number
  maxAttempts: number
  runAt: Date
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
  /** The job's hospital's tenant transaction (withTenant); throws for a platform job. */
  withTenant: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>
  log: JobLog
}

/**
 * Runs one attempt. May run more than once for one job (a retry, a lease that ran out), so it
 * must be idempotent. Its return value is stored as the job's result (JSON).
 */
export type JobHandler = (job: ClaimedJob, ctx: JobContext) => Promise<unknown>

/** Thrown by a handler when retrying cannot help (bad payload, revoked token): the job is dead. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError'
}

const handlers = new Map<string, JobHandler>()

const JOB_NAME = /^[a-z][a-z0-9_.:-]{0,99}$/

export function assertJobName(name: string): void {
  if (!JOB_NAME.test(name)) throw new Error(`bad job name ${JSON.stringify(name)}`)
}

/** One handler per job name (code, the same in every instance). Returns its removal. */
export function registerHandler(name: string, handler: JobHandler): () => void {
  assertJobName(name)
  if (handlers.has(name)) throw new Error(`a handler for job ${name} is registered already`)
  handlers.set(name, handler)
  return () => {
    if (handlers.get(name) === handler) handlers.delete(name)
  }
}

export function handlerFor(name: string): JobHandler | undefined {
  return handlers.get(name)
}

export function registeredJobNames(): string[] {
  return [...handlers.keys()]
}

export type { JobProgress }
