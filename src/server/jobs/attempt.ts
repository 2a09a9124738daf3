import type { AppDb } from '../db/client'
import type { JobProgress } from '../db/schema/jobs'
import { errorText } from '../http/logging'
import { fencedTenant } from './fence'
import {
  type ClaimedJob,
  type JobContext,
  type JobLog,
  handlerFor,
  handlerOptions,
  PermanentJobError,
} from './registry'
import { type Fence, markDone, markFailed, renewLease, saveProgress } from './store'

export interface AttemptOptions {
  db: AppDb
  workerId: string
  leaseMs: number
  progressMs: number
  backoff: (attempt: number) => number
  log: JobLog
}

/**
 * One attempt of a claimed job (worker.ts claims it): its handler runs with the lease renewed
 * every leaseMs / 3, a fenced ctx.withTenant and ctx.checkpoint (fence.ts), and progress; then
 * done, failed (retried after backoff) or dead. What is stored and logged about a failure is
 * errorText's: an error class and code, or the message of an error written for users.
 */
export async function runAttempt(
  w: AttemptOptions,
  job: ClaimedJob,
  controller: AbortController,
): Promise<void> {
  const fence: Fence = { id: job.id, workerId: w.workerId, attempts: job.attempts }
  const about = {
    jobId: job.id,
    job: job.name,
    attempt: job.attempts,
    hospitalId: job.hospitalId,
  }
  const handler = handlerFor(job.name)
  const lost = () => controller.abort(new Error('lease lost'))
  if (job.attempts > job.maxAttempts || !handler) {
    // A lease that ran out on the last attempt (the worker died), or a handler removed.
    const why = handler
      ? `no attempts left after attempt ${job.attempts - 1} was lost`
      : 'no handler'
    if (handler) await settleDead(w, job, baseContext(w, job, fence, controller, lost), why)
    await markFailed(w.db, fence, why, null).catch((error: unknown) =>
      w.log.error({ ...about, error: errorText(error) }, 'jobs: cannot mark dead'),
    )
    w.log.warn(about, `job dead: ${why}`)
    return
  }
  let latest: JobProgress | null = null
  let lastWrite = 0
  let renewing = false
  const renewal = setInterval(
    () => {
      // One renewal at a time: a fenced tenant transaction holds the row until it commits.
      if (renewing) return
      renewing = true
      renewLease(w.db, fence, w.leaseMs)
        .then(
          (ok) => {
            if (!ok) lost()
          },
          (error: unknown) =>
            w.log.warn({ ...about, error: errorText(error) }, 'jobs: lease renewal failed'),
        )
        .finally(() => {
          renewing = false
        })
    },
    Math.max(10, Math.floor(w.leaseMs / 3)),
  )
  const ctx: JobContext = {
    ...baseContext(w, job, fence, controller, lost),
    progress: async (done, total) => {
      latest = { done, total }
      if (Date.now() - lastWrite < w.progressMs && done < total) return
      lastWrite = Date.now()
      if (!(await saveProgress(w.db, fence, latest))) lost()
    },
  }
  try {
    let result: unknown
    try {
      result = await handler(job, ctx)
    } finally {
      clearInterval(renewal)
    }
    if (await markDone(w.db, fence, result, latest)) w.log.info(about, 'job done')
    else w.log.warn(about, 'job finished after its lease was lost; result dropped')
  } catch (error) {
    const permanent = error instanceof PermanentJobError
    const retryInMs = permanent || job.attempts >= job.maxAttempts ? null : w.backoff(job.attempts)
    const text = errorText(error)
    if (retryInMs === null) await settleDead(w, job, ctx, text)
    const stored = await markFailed(w.db, fence, text, retryInMs).catch((e: unknown) => {
      w.log.error({ ...about, error: errorText(e) }, 'jobs: cannot record a failure')
      return false
    })
    if (stored) {
      w.log.warn(
        { ...about, retryInMs, error: text },
        retryInMs === null ? 'job dead' : 'job failed; will retry',
      )
    } else {
      w.log.warn({ ...about, error: text }, 'job attempt ended after its lease was lost')
    }
  }
}

/** A job's context without progress writes (the dead path has nothing to report). */
function baseContext(
  w: AttemptOptions,
  job: ClaimedJob,
  fence: Fence,
  controller: AbortController,
  lost: () => void,
): JobContext {
  return {
    db: w.db,
    signal: controller.signal,
    log: w.log,
    progress: async () => undefined,
    ...fencedTenant({ db: w.db, job, fence, leaseMs: w.leaseMs, onLost: lost }),
  }
}

/** The handler's onDead (registry.ts), once, before the job is marked dead; errors are logged. */
async function settleDead(
  w: AttemptOptions,
  job: ClaimedJob,
  ctx: JobContext,
  why: string,
): Promise<void> {
  const onDead = handlerOptions(job.name).onDead
  if (!onDead) return
  try {
    await onDead(job, ctx, why)
  } catch (error) {
    w.log.error({ jobId: job.id, job: job.name, error: errorText(error) }, 'jobs: onDead failed')
  }
}
