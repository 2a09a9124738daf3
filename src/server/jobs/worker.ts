import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Database } from '../db/client'
import { listen, type Listening } from '../db/notify'
import { withPlatform } from '../db/tenant'
import { errorText } from '../http/logging'
import { runAttempt } from './attempt'
import { exponentialBackoff } from './backoff'
import { claimNext } from './claim'
import { enqueue } from './queue'
import { type ClaimedJob, type JobLog, registeredJobNames } from './registry'
import { currentSlot, registeredSchedules, slotKey } from './schedule'

export interface WorkerOptions {
  database: Pick<Database, 'db' | 'driver'>
  /** Jobs run at the same time. PGlite: always 1 (one connection, one transaction at a time). */
  concurrency?: number
  /** Idle poll interval (default 1 s); a NOTIFY on a new job wakes the worker at once. */
  pollMs?: number
  /** A claimed job is this worker's for this long, renewed every leaseMs / 3 while it runs. */
  leaseMs?: number
  /** Delay before retry n (default: 10 s doubling to 1 h, with jitter). */
  backoff?: (attempt: number) => number
  /** Progress is written at most this often (and always at the end). */
  progressMs?: number
  /**
   * Running jobs at once per hospital (and for platform jobs), across every worker and
   * instance: counted in the database (default DEFAULT_PER_HOSPITAL_RUNNING, 2). Give every
   * instance the same value; job_lanes.max_running overrides it for one hospital.
   */
  perHospitalRunning?: number
  /** Only these job names (default: every registered handler). */
  names?: string[]
  /** PostgreSQL: a direct URL for LISTEN (DATABASE_DIRECT_URL); without it, polling only. */
  directUrl?: string | undefined
  /** The clock schedules read (tests move it). */
  now?: () => Date
  log?: JobLog
  /** Recorded in locked_by. */
  id?: string
}

const silent: JobLog = { info: () => undefined, warn: () => undefined, error: () => undefined }

/**
 * Claims and runs due jobs, hospitals in turn (docs/decisions/014-jobs.md, 020-fair-jobs.md).
 * Start with start(), stop with stop(): it claims nothing more and waits for the running jobs.
 * What it logs or stores about a failure is errorText's class and code (never a message that
 * may carry bound values), or the message of an error written for users.
 */
export class Worker {
  readonly id: string
  private readonly db: Database['db']
  private readonly concurrency: number
  private readonly pollMs: number
  private readonly leaseMs: number
  private readonly progressMs: number
  private readonly backoff: (attempt: number) => number
  private readonly now: () => Date
  private readonly log: JobLog
  private readonly running = new Map<Promise<void>, AbortController>()
  private readonly enqueuedSlots = new Map<string, string>()
  private stopping = false
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined
  private listening: Listening | undefined
  private lastScheduleTick = 0
  private lastClaimWarning = 0

  constructor(private readonly options: WorkerOptions) {
    this.db = options.database.db
    this.concurrency =
      options.database.driver === 'pglite' ? 1 : Math.max(1, options.concurrency ?? 4)
    this.pollMs = options.pollMs ?? 1_000
    this.leaseMs = options.leaseMs ?? 30_000
    this.progressMs = options.progressMs ?? 500
    this.backoff = options.backoff ?? exponentialBackoff()
    this.now = options.now ?? (() => new Date())
    this.log = options.log ?? silent
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  }

  async start(): Promise<void> {
    if (this.loop) return
    const { database, directUrl } = this.options
    if (database.driver === 'pglite' || directUrl) {
      this.listening = await listen({
        database,
        directUrl,
        channel: 'arogya_jobs',
        onNotify: () => this.wake(),
        onLive: () => undefined,
        log: { warn: (obj, msg) => this.log.warn(obj, msg), info: (msg) => this.log.info({}, msg) },
      })
    }
    this.loop = this.run()
  }

  /** Claims nothing more, then waits for running jobs (at most timeoutMs; then aborts them). */
  async stop(timeoutMs = 10_000): Promise<{ unfinished: number }> {
    this.stopping = true
    this.wake()
    await this.loop
    await this.listening?.close()
    const running = [...this.running.keys()]
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs)
    })
    const outcome = await Promise.race([
      Promise.allSettled(running).then(() => 'ok' as const),
      late,
    ])
    clearTimeout(timer)
    if (outcome === 'late') {
      // Their leases run out and another worker runs them again (handlers are idempotent).
      for (const controller of this.running.values()) controller.abort(new Error('worker stopped'))
      this.log.warn(
        { jobs: this.running.size },
        'jobs still running at shutdown; left to their leases',
      )
    }
    return { unfinished: this.running.size }
  }

  /** Jobs this worker is running now. */
  get busy(): number {
    return this.running.size
  }

  private wake() {
    this.wakeUp?.()
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.wakeUp = done
    })
  }

  private names(): string[] {
    const registered = registeredJobNames()
    return this.options.names
      ? registered.filter((n) => this.options.names?.includes(n))
      : registered
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      // PGlite answers in microtasks: without this, a busy queue would keep timers and HTTP
      // requests (macrotasks) waiting until it drained.
      await new Promise((resolve) => setImmediate(resolve))
      if (this.running.size >= this.concurrency) {
        await this.sleep(this.pollMs)
        continue
      }
      let job: ClaimedJob | null = null
      try {
        await this.tickSchedules()
        job = await claimNext(this.db, this.id, this.names(), this.leaseMs, {
          ...(this.options.perHospitalRunning
            ? { perHospitalRunning: this.options.perHospitalRunning }
            : {}),
        })
      } catch (error) {
        // One line per outage, not one a second.
        if (Date.now() - this.lastClaimWarning > 60_000) {
          this.lastClaimWarning = Date.now()
          this.log.warn(
            { error: errorText(error) },
            'jobs: cannot claim (database unavailable?); retrying',
          )
        }
      }
      if (!job) {
        if (!this.stopping) await this.sleep(this.pollMs)
        continue
      }
      this.execute(job)
    }
  }

  /** Enqueues each schedule's current slot once per slot (the dedupe key does the rest). */
  private async tickSchedules(): Promise<void> {
    const clock = Date.now()
    if (clock - this.lastScheduleTick < this.pollMs) return
    this.lastScheduleTick = clock
    const names = new Set(this.names())
    const now = this.now()
    for (const s of registeredSchedules()) {
      if (!names.has(s.name)) continue
      const slot = currentSlot(s.spec, now)
      const key = slotKey(s.name, slot)
      if (this.enqueuedSlots.get(s.name) === key) continue
      await withPlatform(this.db, (tx) =>
        enqueue(tx, {
          name: s.name,
          hospitalId: null,
          payload: s.payload,
          runAt: slot,
          dedupeKey: key,
          ...(s.maxAttempts ? { maxAttempts: s.maxAttempts } : {}),
        }),
      )
      this.enqueuedSlots.set(s.name, key)
    }
  }

  private execute(job: ClaimedJob): void {
    const controller = new AbortController()
    const task = runAttempt(
      {
        db: this.db,
        workerId: this.id,
        leaseMs: this.leaseMs,
        progressMs: this.progressMs,
        backoff: this.backoff,
        log: this.log,
      },
      job,
      controller,
    ).finally(() => {
      this.running.delete(task)
      this.wake()
    })
    this.running.set(task, controller)
  }
}
