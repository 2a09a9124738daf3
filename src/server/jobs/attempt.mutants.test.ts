import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AppDb } from '../db/client'
import { type AttemptOptions, runAttempt } from './attempt'
import {
  type ClaimedJob,
  type JobContext,
  type JobHandler,
  type HandlerOptions,
  type JobLog,
  PermanentJobError,
  registerHandler,
} from './registry'
import { markDone, markFailed, renewLease, saveProgress } from './store'

// One attempt (attempt.ts) against a store that answers what each test needs: a renewal that
// finds the job taken or fails, a failure that cannot be stored, onDead and its failure, the
// progress throttle at its edge. The same paths against a real database are in
// tests/integration/jobs-mutants.api.test.ts; these reach the ones a database hardly does.

vi.mock('./store', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  renewLease: vi.fn(),
  saveProgress: vi.fn(),
  markDone: vi.fn(),
  markFailed: vi.fn(),
}))

const renew = vi.mocked(renewLease)
const progressWrite = vi.mocked(saveProgress)
const done = vi.mocked(markDone)
const failed = vi.mocked(markFailed)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Never queried: the store is mocked. */
const db = {} as AppDb
const HOSPITAL = '00000000-0000-4000-8000-000000000001'

type Line = { level: string; msg: string; obj: Record<string, unknown> }
let lines: Line[]
const log: JobLog = {
  info: (obj, msg) => lines.push({ level: 'info', msg, obj: obj as Record<string, unknown> }),
  warn: (obj, msg) => lines.push({ level: 'warn', msg, obj: obj as Record<string, unknown> }),
  error: (obj, msg) => lines.push({ level: 'error', msg, obj: obj as Record<string, unknown> }),
}

let counter = 0
const removals: (() => void)[] = []
function handle(handler: JobHandler, options?: HandlerOptions): string {
  counter += 1
  const name = `test.attempt-unit.${counter}`
  removals.push(registerHandler(name, handler, options))
  return name
}

function claimed(name: string, attempts = 1, maxAttempts = 3): ClaimedJob {
  return {
    id: `job-${name}`,
    name,
    hospitalId: HOSPITAL,
    payload: {},
    attempts,
    maxAttempts,
    runAt: new Date(),
    checkpoint: null,
  }
}

const options = (over: Partial<AttemptOptions> = {}): AttemptOptions => ({
  db,
  workerId: 'w-unit',
  leaseMs: 60_000,
  progressMs: 0,
  backoff: (n) => n * 1_000,
  log,
  ...over,
})

const about = (job: ClaimedJob) => ({
  jobId: job.id,
  job: job.name,
  attempt: job.attempts,
  hospitalId: HOSPITAL,
})

beforeEach(() => {
  lines = []
  renew.mockReset().mockResolvedValue(true)
  progressWrite.mockReset().mockResolvedValue(true)
  done.mockReset().mockResolvedValue(true)
  failed.mockReset().mockResolvedValue(true)
})

afterEach(() => {
  vi.useRealTimers()
  for (const remove of removals.splice(0)) remove()
})

describe('a job that cannot run', () => {
  it('logs when a job without a handler cannot be marked dead, and still reports it dead', async () => {
    failed.mockRejectedValue(new Error('connection refused'))
    const job = claimed('test.attempt-unit.unregistered')
    await runAttempt(options(), job, new AbortController())
    expect(failed).toHaveBeenCalledWith(db, expect.anything(), 'no handler', null)
    expect(lines).toEqual([
      { level: 'error', msg: 'jobs: cannot mark dead', obj: { ...about(job), error: 'Error' } },
      { level: 'warn', msg: 'job dead: no handler', obj: about(job) },
    ])
  })

  it('runs onDead with the reason before marking dead a job whose last attempt was lost', async () => {
    const order: string[] = []
    const onDead = vi.fn((_job: ClaimedJob, _ctx: JobContext, why: string) => {
      order.push(`onDead: ${why}`)
      return Promise.resolve()
    })
    failed.mockImplementation((_db, _fence, error) => {
      order.push(`dead: ${error}`)
      return Promise.resolve(true)
    })
    const handler = vi.fn(() => Promise.resolve('ran'))
    const name = handle(handler, { onDead })
    const job = claimed(name, 3, 2)
    await runAttempt(options(), job, new AbortController())
    const why = 'no attempts left after attempt 2 was lost'
    expect(order).toEqual([`onDead: ${why}`, `dead: ${why}`])
    expect(onDead).toHaveBeenCalledWith(job, expect.objectContaining({ db }), why)
    expect(handler).not.toHaveBeenCalled()
  })
})

describe('a failed attempt', () => {
  it('runs onDead only when the failure is final: a permanent error or the last attempt', async () => {
    const onDead = vi.fn(() => Promise.resolve())
    const name = handle(() => Promise.reject(new Error('timeout')), { onDead })
    await runAttempt(options(), claimed(name, 1, 3), new AbortController())
    expect(onDead).not.toHaveBeenCalled()
    expect(failed).toHaveBeenLastCalledWith(db, expect.anything(), 'Error', 1_000)
    expect(lines.map((l) => l.msg)).toEqual(['job failed; will retry'])

    await runAttempt(options(), claimed(name, 3, 3), new AbortController())
    expect(onDead).toHaveBeenCalledTimes(1)
    expect(onDead).toHaveBeenLastCalledWith(expect.anything(), expect.anything(), 'Error')
    expect(failed).toHaveBeenLastCalledWith(db, expect.anything(), 'Error', null)

    const permanent = handle(() => Promise.reject(new PermanentJobError('Bad file')), { onDead })
    await runAttempt(options(), claimed(permanent, 1, 3), new AbortController())
    expect(onDead).toHaveBeenCalledTimes(2)
    expect(onDead).toHaveBeenLastCalledWith(expect.anything(), expect.anything(), 'Bad file')
    expect(failed).toHaveBeenLastCalledWith(db, expect.anything(), 'Bad file', null)
  })

  it('logs a failing onDead and still marks the job dead', async () => {
    const name = handle(() => Promise.reject(new PermanentJobError('Bad file')), {
      onDead: () => Promise.reject(new TypeError('boom')),
    })
    const job = claimed(name)
    await runAttempt(options(), job, new AbortController())
    expect(failed).toHaveBeenCalledWith(db, expect.anything(), 'Bad file', null)
    expect(lines).toEqual([
      {
        level: 'error',
        msg: 'jobs: onDead failed',
        obj: { jobId: job.id, job: name, error: 'TypeError' },
      },
      {
        level: 'warn',
        msg: 'job dead',
        obj: { ...about(job), retryInMs: null, error: 'Bad file' },
      },
    ])
  })

  it('logs a failure that cannot be stored, as an attempt that lost its lease', async () => {
    failed.mockRejectedValue(new Error('connection refused'))
    const name = handle(() => Promise.reject(new PermanentJobError('Bad file')))
    const job = claimed(name)
    await runAttempt(options(), job, new AbortController())
    expect(lines).toEqual([
      {
        level: 'error',
        msg: 'jobs: cannot record a failure',
        obj: { ...about(job), error: 'Error' },
      },
      {
        level: 'warn',
        msg: 'job attempt ended after its lease was lost',
        obj: { ...about(job), error: 'Bad file' },
      },
    ])
  })

  it('says the attempt lost its lease when its failure is fenced out', async () => {
    failed.mockResolvedValue(false)
    const name = handle(() => Promise.reject(new Error('late')))
    const job = claimed(name)
    await runAttempt(options(), job, new AbortController())
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: 'job attempt ended after its lease was lost',
        obj: { ...about(job), error: 'Error' },
      },
    ])
  })
})

describe('lease renewal', () => {
  it('renews every leaseMs / 3 while the handler runs, never after, and keeps the signal', async () => {
    let signal: AbortSignal | undefined
    const name = handle(async (_job, ctx) => {
      signal = ctx.signal
      await sleep(350)
      return 'ok'
    })
    const job = claimed(name)
    await runAttempt(options({ leaseMs: 300 }), job, new AbortController())
    const during = renew.mock.calls.length
    expect(during).toBeGreaterThanOrEqual(1)
    expect(during).toBeLessThanOrEqual(4)
    expect(renew).toHaveBeenCalledWith(db, { id: job.id, workerId: 'w-unit', attempts: 1 }, 300)
    expect(signal?.aborted).toBe(false)
    await sleep(250)
    expect(renew.mock.calls.length).toBe(during)
  })

  it('does not renew within the first third of a long lease', async () => {
    const name = handle(() => sleep(200).then(() => 'ok'))
    await runAttempt(options({ leaseMs: 3_000 }), claimed(name), new AbortController())
    expect(renew).not.toHaveBeenCalled()
  })

  it('runs one renewal at a time when a renewal takes longer than the interval', async () => {
    let inFlight = 0
    let most = 0
    renew.mockImplementation(async () => {
      inFlight += 1
      most = Math.max(most, inFlight)
      await sleep(100)
      inFlight -= 1
      return true
    })
    const name = handle(() => sleep(260).then(() => 'ok'))
    // Every 10 ms (30 / 3), each renewal taking 100 ms.
    await runAttempt(options({ leaseMs: 30 }), claimed(name), new AbortController())
    expect(renew.mock.calls.length).toBeGreaterThanOrEqual(1)
    expect(renew.mock.calls.length).toBeLessThanOrEqual(4)
    expect(most).toBe(1)
    await sleep(120)
  })

  it('aborts the handler with "lease lost" when a renewal finds the job taken', async () => {
    renew.mockResolvedValue(false)
    let reason: unknown
    const name = handle(async (_job, ctx) => {
      for (let i = 0; i < 50 && !ctx.signal.aborted; i++) await sleep(20)
      reason = ctx.signal.reason
      return 'mine'
    })
    await runAttempt(options({ leaseMs: 60 }), claimed(name), new AbortController())
    expect(reason).toBeInstanceOf(Error)
    expect((reason as Error).message).toBe('lease lost')
  })

  it('logs a renewal that fails and keeps running the job', async () => {
    renew.mockRejectedValue(new Error('connection reset'))
    let aborted: boolean | undefined
    const name = handle(async (_job, ctx) => {
      await sleep(150)
      aborted = ctx.signal.aborted
      return 'ok'
    })
    const job = claimed(name)
    await runAttempt(options({ leaseMs: 300 }), job, new AbortController())
    expect(aborted).toBe(false)
    expect(lines[0]).toEqual({
      level: 'warn',
      msg: 'jobs: lease renewal failed',
      obj: { ...about(job), error: 'Error' },
    })
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'job done' })
  })
})

describe('progress', () => {
  it('writes again once progressMs has passed, to the millisecond', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const t0 = new Date('2026-11-25T10:00:00Z').getTime()
    const name = handle(async (_job, ctx) => {
      vi.setSystemTime(t0)
      await ctx.progress(1, 10)
      vi.setSystemTime(t0 + 999)
      await ctx.progress(2, 10)
      vi.setSystemTime(t0 + 1_000)
      await ctx.progress(3, 10)
      return 'ok'
    })
    await runAttempt(options({ progressMs: 1_000 }), claimed(name), new AbortController())
    expect(progressWrite.mock.calls.map((c) => c[2])).toEqual([
      { done: 1, total: 10 },
      { done: 3, total: 10 },
    ])
  })

  it('writes every call within one millisecond when progressMs is 0', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-25T10:00:00Z'))
    const name = handle(async (_job, ctx) => {
      await ctx.progress(1, 10)
      await ctx.progress(2, 10)
      return 'ok'
    })
    await runAttempt(options({ progressMs: 0 }), claimed(name), new AbortController())
    expect(progressWrite).toHaveBeenCalledTimes(2)
  })
})
