import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Tx } from '../../src/server/db/client'
import { withPlatform } from '../../src/server/db/tenant'
import { type AttemptOptions, runAttempt } from '../../src/server/jobs/attempt'
import { claimNext } from '../../src/server/jobs/claim'
import { fencedTenant } from '../../src/server/jobs/fence'
import { enqueue, type EnqueueInput, getJob, readJob } from '../../src/server/jobs/queue'
import {
  type ClaimedJob,
  type JobLog,
  LeaseLostError,
  PermanentJobError,
  PublicJobError,
} from '../../src/server/jobs/registry'
import {
  type Fence,
  markDone,
  markFailed,
  pruneFinished,
  renewLease,
  saveProgress,
} from '../../src/server/jobs/store'
import { jobsTestBed, sleep, uniqueName } from '../support/jobs'
import { queryRows } from '../support/test-app'

// The job queue at its edges (mutation testing, docs/decisions/024): what enqueue stores, the
// fence of every worker statement, what an attempt stores and logs, ctx.withTenant and
// ctx.checkpoint, caps and turns of a claim, and what pruning deletes. Each test uses job
// names of its own, and the claim tests hospitals of their own, so they do not meet.

const bed = jobsTestBed()
const { handle } = bed

interface Row {
  status: string
  attempts: number
  max_attempts: number
  last_error: string | null
  result: unknown
  progress: unknown
  checkpoint: unknown
  payload: unknown
  dedupe_key: string | null
  locked_by: string | null
  lease_left_ms: number | null
  run_in_ms: number
  finished: boolean
}

async function row(id: string): Promise<Row> {
  const [r] = await queryRows<Row>(
    bed.db,
    sql`select status, attempts, max_attempts, last_error, result, progress, checkpoint, payload,
               dedupe_key, locked_by,
               extract(epoch from locked_until - clock_timestamp())::float8 * 1000 as lease_left_ms,
               extract(epoch from run_at - clock_timestamp())::float8 * 1000 as run_in_ms,
               finished_at is not null as finished
        from jobs where id = ${id}`,
  )
  if (!r) throw new Error(`no job ${id}`)
  return r
}

const add = (input: EnqueueInput) => withPlatform(bed.db, (tx) => enqueue(tx, input))

async function newHospital(): Promise<string> {
  const n = randomUUID().slice(0, 8)
  const [h] = await queryRows<{ id: string }>(
    bed.db,
    sql`insert into hospitals (name, email) values (${`H ${n}`}, ${`h-${n}@jobs.test`}) returning id`,
  )
  return h?.id ?? ''
}

function capturingLog(lines: { level: string; msg: string; obj: Record<string, unknown> }[]) {
  const capture = (level: string) => (obj: object, msg: string) => {
    lines.push({ level, msg, obj: obj as Record<string, unknown> })
  }
  return { info: capture('info'), warn: capture('warn'), error: capture('error') } as JobLog
}

async function claimOne(name: string, workerId = 'w-test', leaseMs = 60_000) {
  const job = await claimNext(bed.db, workerId, [name], leaseMs, { perHospitalRunning: 100 })
  if (!job) throw new Error(`nothing to claim for ${name}`)
  return job
}

describe('enqueue', () => {
  it('refuses maxAttempts under 1 or not a number, and stores 1 and the default 5', async () => {
    const name = uniqueName('attempts')
    for (const maxAttempts of [0, -1, Number.NaN]) {
      await expect(add({ name, hospitalId: bed.a, maxAttempts })).rejects.toThrow(
        'enqueue: maxAttempts must be at least 1',
      )
    }
    const one = await add({ name, hospitalId: bed.a, maxAttempts: 1 })
    const plain = await add({ name, hospitalId: bed.a })
    expect((await row(one.id)).max_attempts).toBe(1)
    expect((await row(plain.id)).max_attempts).toBe(5)
  })

  it('stores the payload ({} without one), run_at, and dedupe keys per hospital or platform', async () => {
    const name = uniqueName('stored')
    const bare = await add({ name, hospitalId: bed.a })
    expect(bare.created).toBe(true)
    expect((await row(bare.id)).payload).toEqual({})
    expect((await row(bare.id)).dedupe_key).toBeNull()
    expect((await row(bare.id)).run_in_ms).toBeLessThan(1_000)
    const later = await add({
      name,
      hospitalId: bed.a,
      payload: { file: 'x.csv' },
      runAt: new Date(Date.now() + 3_600_000),
    })
    const stored = await row(later.id)
    expect(stored.payload).toEqual({ file: 'x.csv' })
    expect(stored.run_in_ms).toBeGreaterThan(3_500_000)

    const ofA = await add({ name, hospitalId: bed.a, dedupeKey: 'k' })
    const platform = await add({ name, hospitalId: null, dedupeKey: 'k' })
    expect(ofA.created && platform.created).toBe(true)
    expect((await row(ofA.id)).dedupe_key).toBe(`${bed.a}:k`)
    expect((await row(platform.id)).dedupe_key).toBe('platform:k')
    expect(await add({ name, hospitalId: null, dedupeKey: 'k' })).toEqual({
      id: platform.id,
      created: false,
    })
  })
})

describe('readJob and getJob', () => {
  it('finds a job by an upper-case id, and nothing for an id or hospital with trailing text', async () => {
    const name = uniqueName('lookup')
    const job = await add({ name, hospitalId: bed.a })
    await withPlatform(bed.db, async (tx) => {
      expect(await readJob(tx, job.id.toUpperCase(), bed.a)).toMatchObject({ id: job.id })
      expect(await readJob(tx, `${job.id}0`, bed.a)).toBeNull()
      expect(await readJob(tx, `x${job.id}`, bed.a)).toBeNull()
      expect(await readJob(tx, job.id, `${bed.a}0`)).toBeNull()
    })
    expect(await getJob(bed.db, job.id, `${bed.a}0`)).toBeNull()
    expect(await getJob(bed.db, job.id, 'not-a-hospital')).toBeNull()
    const view = await getJob(bed.db, job.id, bed.a)
    expect(view).toMatchObject({
      id: job.id,
      name,
      status: 'queued',
      attempts: 0,
      maxAttempts: 5,
      progress: null,
      result: null,
      lastError: null,
      checkpoint: null,
      finishedAt: null,
    })
    expect(view?.runAt).toBeInstanceOf(Date)
    expect(view?.createdAt).toBeInstanceOf(Date)
    expect(view).not.toHaveProperty('payload')
  })
})

describe('the fence of worker statements', () => {
  it('renews, reports, finishes and fails only the claimed attempt of this worker', async () => {
    const name = uniqueName('fence')
    const { id } = await add({ name, hospitalId: bed.a })
    const job = await claimOne(name, 'w-1', 60_000)
    const fence: Fence = { id, workerId: 'w-1', attempts: job.attempts }
    const others: Fence[] = [
      { ...fence, workerId: 'w-2' },
      { ...fence, attempts: fence.attempts + 1 },
      { ...fence, id: randomUUID() },
    ]
    for (const f of others) {
      expect(await renewLease(bed.db, f, 1_000)).toBe(false)
      expect(await saveProgress(bed.db, f, { done: 9, total: 9 })).toBe(false)
      expect(await markDone(bed.db, f, 'theirs', null)).toBe(false)
      expect(await markFailed(bed.db, f, 'theirs', null)).toBe(false)
    }
    expect((await row(id)).status).toBe('running')

    expect(await renewLease(bed.db, fence, 5_000)).toBe(true)
    const renewed = await row(id)
    expect(renewed.lease_left_ms).toBeGreaterThan(3_000)
    expect(renewed.lease_left_ms).toBeLessThanOrEqual(5_000)

    expect(await saveProgress(bed.db, fence, { done: 3, total: 7 })).toBe(true)
    expect((await row(id)).progress).toEqual({ done: 3, total: 7 })

    await bed.db.execute(sql`update jobs set last_error = 'earlier' where id = ${id}`)
    expect(await markDone(bed.db, fence, undefined, null)).toBe(true)
    const done = await row(id)
    expect(done).toMatchObject({
      status: 'done',
      result: null,
      progress: { done: 3, total: 7 },
      last_error: null,
      locked_by: null,
      lease_left_ms: null,
      finished: true,
    })
    // A finished job is no longer running: nothing more is accepted for it.
    expect(await renewLease(bed.db, fence, 1_000)).toBe(false)
    expect(await markFailed(bed.db, fence, 'late', null)).toBe(false)
  })

  it('stores the last progress with the result when given one', async () => {
    const name = uniqueName('done-progress')
    const { id } = await add({ name, hospitalId: bed.a })
    const job = await claimOne(name)
    const fence = { id, workerId: 'w-test', attempts: job.attempts }
    await saveProgress(bed.db, fence, { done: 1, total: 2 })
    expect(await markDone(bed.db, fence, { rows: 2 }, { done: 2, total: 2 })).toBe(true)
    expect(await row(id)).toMatchObject({ result: { rows: 2 }, progress: { done: 2, total: 2 } })
  })

  it('fails into a retry after its delay (never in the past), or dead', async () => {
    const name = uniqueName('fail')
    const retried = await add({ name, hospitalId: bed.a })
    let job = await claimOne(name)
    expect(
      await markFailed(
        bed.db,
        { id: retried.id, workerId: 'w-test', attempts: job.attempts },
        'E1',
        120_000,
      ),
    ).toBe(true)
    const failed = await row(retried.id)
    expect(failed).toMatchObject({
      status: 'failed',
      last_error: 'E1',
      locked_by: null,
      lease_left_ms: null,
      finished: false,
    })
    expect(failed.run_in_ms).toBeGreaterThan(110_000)
    expect(failed.run_in_ms).toBeLessThanOrEqual(120_000)

    const soon = await add({ name: uniqueName('fail-negative'), hospitalId: bed.a })
    job = await claimOne(await nameOf(soon.id))
    await markFailed(
      bed.db,
      { id: soon.id, workerId: 'w-test', attempts: job.attempts },
      'E',
      -60_000,
    )
    expect((await row(soon.id)).run_in_ms).toBeGreaterThan(-5_000)

    const dead = await add({ name: uniqueName('dead'), hospitalId: bed.a })
    job = await claimOne(await nameOf(dead.id))
    await markFailed(
      bed.db,
      { id: dead.id, workerId: 'w-test', attempts: job.attempts },
      'E2',
      null,
    )
    expect(await row(dead.id)).toMatchObject({ status: 'dead', last_error: 'E2', finished: true })
  })
})

async function nameOf(id: string): Promise<string> {
  const [r] = await queryRows<{ name: string }>(bed.db, sql`select name from jobs where id = ${id}`)
  return r?.name ?? ''
}

describe('pruneFinished', () => {
  it('deletes done jobs after doneDays and dead ones after deadDays, and idle lanes', async () => {
    const name = uniqueName('prune')
    const age = async (status: string, days: number) => {
      const { id } = await add({ name, hospitalId: bed.a })
      await bed.db.execute(
        sql`update jobs set status = ${status},
                   finished_at = case when ${status} in ('done', 'dead')
                                      then now() - ${days}::int * interval '1 day' end,
                   created_at = now() - ${days}::int * interval '1 day'
            where id = ${id}`,
      )
      return id
    }
    const doneOld = await age('done', 8)
    const doneNew = await age('done', 6)
    const deadMid = await age('dead', 8)
    const deadOld = await age('dead', 31)
    const deadNew = await age('dead', 29)
    const queuedOld = await age('queued', 60)

    const lane = (claimedDaysAgo: number | null, maxRunning: number | null) => {
      const id = randomUUID()
      const claimed =
        claimedDaysAgo === null ? sql`null` : sql`now() - ${claimedDaysAgo}::int * interval '1 day'`
      return bed.db
        .execute(
          sql`insert into job_lanes (lane, last_claimed_at, max_running)
              values (${id}, ${claimed}, ${maxRunning})`,
        )
        .then(() => id)
    }
    const idleOld = await lane(31, null)
    const idleNever = await lane(null, null)
    const idleRecent = await lane(29, null)
    const capped = await lane(31, 3)
    // A lane that still has a job (the queued one above, in hospital A's lane).
    await bed.db.execute(
      sql`insert into job_lanes (lane, last_claimed_at) values (${bed.a}, now() - interval '40 days')
          on conflict (lane) do update set last_claimed_at = excluded.last_claimed_at,
                                           max_running = null`,
    )

    expect(await pruneFinished(bed.db, 7, 30)).toBe(2)
    const left = await queryRows<{ id: string }>(
      bed.db,
      sql`select id from jobs where name = ${name}`,
    )
    expect(left.map((r) => r.id).sort()).toEqual([doneNew, deadMid, deadNew, queuedOld].sort())
    expect(left.map((r) => r.id)).not.toContain(doneOld)
    expect(left.map((r) => r.id)).not.toContain(deadOld)
    const lanes = await queryRows<{ lane: string }>(
      bed.db,
      sql`select lane::text from job_lanes
          where lane in (${idleOld}, ${idleNever}, ${idleRecent}, ${capped}, ${bed.a})`,
    )
    expect(lanes.map((l) => l.lane).sort()).toEqual([idleRecent, capped, bed.a].sort())
  })
})

describe('claimNext', () => {
  it('claims nothing for no names, and refuses a cap that is not a whole number of at least 1', async () => {
    expect(await claimNext(bed.db, 'w', [], 1_000)).toBeNull()
    for (const perHospitalRunning of [0, -1, 1.5, Number.NaN]) {
      await expect(claimNext(bed.db, 'w', ['x.y'], 1_000, { perHospitalRunning })).rejects.toThrow(
        'perHospitalRunning must be >= 1',
      )
    }
  })

  it('returns the claimed attempt as stored: number, hospital, payload, checkpoint', async () => {
    const name = uniqueName('claimed')
    const h = await newHospital()
    const runAt = new Date(Date.now() - 60_000)
    const { id } = await add({ name, hospitalId: h, payload: { n: 1 }, maxAttempts: 3, runAt })
    const job = await claimNext(bed.db, 'w-c', [name], 1_000)
    expect(job).toMatchObject({
      id,
      name,
      hospitalId: h,
      payload: { n: 1 },
      attempts: 1,
      maxAttempts: 3,
      checkpoint: null,
    })
    expect(typeof job?.attempts).toBe('number')
    expect(job?.runAt.getTime()).toBe(runAt.getTime())
    const r = await row(id)
    expect(r.locked_by).toBe('w-c')
    expect(r.lease_left_ms).toBeGreaterThan(0)
    expect(r.lease_left_ms).toBeLessThanOrEqual(1_000)
    // Its lease runs out: the next claim is attempt 2, with the checkpoint committed meanwhile.
    await bed.db.execute(
      sql`update jobs set locked_until = now() - interval '1 second', checkpoint = '{"page":2}'::jsonb
          where id = ${id}`,
    )
    expect(await claimNext(bed.db, 'w-d', [name], 1_000)).toMatchObject({
      id,
      attempts: 2,
      checkpoint: { page: 2 },
    })
  })

  it('runs at most 2 jobs of a hospital at once by default, counting live leases only', async () => {
    const name = uniqueName('default-cap')
    const h = await newHospital()
    const other = await newHospital()
    for (let i = 0; i < 3; i++) await add({ name, hospitalId: h })
    await add({ name, hospitalId: other })
    const claimed: (ClaimedJob | null)[] = []
    for (let i = 0; i < 5; i++) claimed.push(await claimNext(bed.db, 'w', [name], 60_000))
    expect(claimed.filter((j) => j?.hospitalId === h)).toHaveLength(2)
    expect(claimed.filter((j) => j?.hospitalId === other)).toHaveLength(1)
    expect(claimed.filter((j) => j === null)).toHaveLength(2)
    // A running job whose lease ran out no longer counts (and is claimable again itself).
    const first = claimed.find((j) => j?.hospitalId === h)
    await bed.db.execute(
      sql`update jobs set locked_until = now() - interval '1 second' where id = ${first?.id ?? ''}`,
    )
    const next = await claimNext(bed.db, 'w', [name], 60_000)
    expect(next?.hospitalId).toBe(h)
  })

  it("takes the worker's cap, and a lane's own max_running over it", async () => {
    const name = uniqueName('cap')
    const h = await newHospital()
    const other = await newHospital()
    for (let i = 0; i < 4; i++) await add({ name, hospitalId: h })
    await add({ name, hospitalId: other })
    const one = { perHospitalRunning: 1 }
    expect((await claimNext(bed.db, 'w', [name], 60_000, one))?.hospitalId).toBeDefined()
    expect((await claimNext(bed.db, 'w', [name], 60_000, one))?.hospitalId).toBeDefined()
    expect(await claimNext(bed.db, 'w', [name], 60_000, one)).toBeNull()
    await bed.db.execute(sql`update job_lanes set max_running = 3 where lane = ${h}`)
    expect((await claimNext(bed.db, 'w', [name], 60_000, one))?.hospitalId).toBe(h)
    expect((await claimNext(bed.db, 'w', [name], 60_000, one))?.hospitalId).toBe(h)
    expect(await claimNext(bed.db, 'w', [name], 60_000, one)).toBeNull()
    await bed.db.execute(sql`update job_lanes set max_running = 0 where lane = ${other}`)
    await bed.db.execute(sql`update job_lanes set max_running = 10 where lane = ${h}`)
    expect((await claimNext(bed.db, 'w', [name], 60_000, one))?.hospitalId).toBe(h)
  })

  it('serves hospitals in turn, least recently served first', async () => {
    const name = uniqueName('turns')
    const h1 = await newHospital()
    const h2 = await newHospital()
    for (let i = 0; i < 3; i++) await add({ name, hospitalId: h1 })
    await add({ name, hospitalId: h2 })
    await add({ name, hospitalId: h2 })
    const order: string[] = []
    for (let i = 0; i < 5; i++) {
      const job = await claimNext(bed.db, 'w', [name], 60_000, { perHospitalRunning: 10 })
      order.push(job?.hospitalId === h1 ? '1' : job?.hospitalId === h2 ? '2' : '-')
    }
    expect(['12121', '21211']).toContain(order.join(''))
    expect(await claimNext(bed.db, 'w', [name], 60_000, { perHospitalRunning: 10 })).toBeNull()
  })

  it('claims only due jobs, the oldest first, and a failed job once its delay is over', async () => {
    const name = uniqueName('due')
    const h = await newHospital()
    const later = await add({ name, hospitalId: h, runAt: new Date(Date.now() + 3_600_000) })
    const newer = await add({ name, hospitalId: h, runAt: new Date(Date.now() - 1_000) })
    const older = await add({ name, hospitalId: h, runAt: new Date(Date.now() - 60_000) })
    const cap = { perHospitalRunning: 10 }
    expect((await claimNext(bed.db, 'w', [name], 60_000, cap))?.id).toBe(older.id)
    const second = await claimNext(bed.db, 'w', [name], 60_000, cap)
    expect(second?.id).toBe(newer.id)
    expect(await claimNext(bed.db, 'w', [name], 60_000, cap)).toBeNull()
    await markFailed(bed.db, { id: newer.id, workerId: 'w', attempts: 1 }, 'E', 0)
    expect((await claimNext(bed.db, 'w', [name], 60_000, cap))?.id).toBe(newer.id)
    expect((await row(later.id)).status).toBe('queued')
  })
})

describe('runAttempt', () => {
  const options = (log: JobLog, over: Partial<AttemptOptions> = {}): AttemptOptions => ({
    db: bed.db,
    workerId: 'w-test',
    leaseMs: 60_000,
    progressMs: 0,
    backoff: (n) => n * 120_000,
    log,
    ...over,
  })
  type Line = { level: string; msg: string; obj: Record<string, unknown> }

  it('stores the result and logs the job as done, with its id, name, attempt and hospital', async () => {
    const name = uniqueName('attempt-done')
    handle(name, () => Promise.resolve({ ok: 1 }))
    const { id } = await add({ name, hospitalId: bed.a })
    const lines: Line[] = []
    await runAttempt(options(capturingLog(lines)), await claimOne(name), new AbortController())
    expect(await row(id)).toMatchObject({ status: 'done', result: { ok: 1 } })
    expect(lines).toEqual([
      {
        level: 'info',
        msg: 'job done',
        obj: { jobId: id, job: name, attempt: 1, hospitalId: bed.a },
      },
    ])
  })

  it('retries a failure after backoff(attempt), and the last attempt or a permanent error is dead', async () => {
    const name = uniqueName('attempt-fail')
    handle(name, () => Promise.reject(new PublicJobError('The file could not be read')))
    const { id } = await add({ name, hospitalId: bed.a, maxAttempts: 2 })
    const lines: Line[] = []
    await runAttempt(options(capturingLog(lines)), await claimOne(name), new AbortController())
    const failed = await row(id)
    expect(failed).toMatchObject({ status: 'failed', last_error: 'The file could not be read' })
    expect(failed.run_in_ms).toBeGreaterThan(110_000)
    expect(failed.run_in_ms).toBeLessThanOrEqual(120_000)
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: 'job failed; will retry',
        obj: {
          jobId: id,
          job: name,
          attempt: 1,
          hospitalId: bed.a,
          retryInMs: 120_000,
          error: 'The file could not be read',
        },
      },
    ])
    await bed.db.execute(sql`update jobs set run_at = now() where id = ${id}`)
    lines.length = 0
    await runAttempt(options(capturingLog(lines)), await claimOne(name), new AbortController())
    expect(await row(id)).toMatchObject({ status: 'dead', attempts: 2, finished: true })
    expect(lines).toMatchObject([{ level: 'warn', msg: 'job dead', obj: { retryInMs: null } }])

    const permanent = uniqueName('attempt-permanent')
    handle(permanent, () => Promise.reject(new PermanentJobError('Bad file')))
    const p = await add({ name: permanent, hospitalId: bed.a, maxAttempts: 5 })
    await runAttempt(options(capturingLog([])), await claimOne(permanent), new AbortController())
    expect(await row(p.id)).toMatchObject({ status: 'dead', attempts: 1, last_error: 'Bad file' })
  })

  it('marks dead a job whose last attempt was lost, and a job without a handler', async () => {
    const name = uniqueName('attempt-lost')
    handle(name, () => Promise.resolve('ran'))
    const { id } = await add({ name, hospitalId: bed.a, maxAttempts: 1 })
    await claimOne(name)
    await bed.db.execute(
      sql`update jobs set locked_until = now() - interval '1 second' where id = ${id}`,
    )
    const lines: Line[] = []
    await runAttempt(options(capturingLog(lines)), await claimOne(name), new AbortController())
    expect(await row(id)).toMatchObject({
      status: 'dead',
      result: null,
      last_error: 'no attempts left after attempt 1 was lost',
    })
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: 'job dead: no attempts left after attempt 1 was lost',
        obj: { jobId: id, job: name, attempt: 2, hospitalId: bed.a },
      },
    ])

    const orphan = uniqueName('attempt-orphan')
    const o = await add({ name: orphan, hospitalId: bed.a, maxAttempts: 3 })
    lines.length = 0
    await runAttempt(options(capturingLog(lines)), await claimOne(orphan), new AbortController())
    expect(await row(o.id)).toMatchObject({ status: 'dead', last_error: 'no handler' })
    expect(lines.map((l) => l.msg)).toEqual(['job dead: no handler'])
  })

  it('writes progress at most every progressMs, and always the last of a run', async () => {
    const name = uniqueName('attempt-progress')
    const seen: unknown[] = []
    handle(name, async (job, ctx) => {
      await ctx.progress(1, 10)
      seen.push((await row(job.id)).progress)
      await ctx.progress(2, 10)
      seen.push((await row(job.id)).progress)
      await ctx.progress(10, 10)
      seen.push((await row(job.id)).progress)
      await ctx.progress(9, 10)
      return 'ok'
    })
    const { id } = await add({ name, hospitalId: bed.a })
    await runAttempt(
      options(capturingLog([]), { progressMs: 60_000 }),
      await claimOne(name),
      new AbortController(),
    )
    expect(seen).toEqual([
      { done: 1, total: 10 },
      { done: 1, total: 10 },
      { done: 10, total: 10 },
    ])
    expect((await row(id)).progress).toEqual({ done: 9, total: 10 })
  })

  it('aborts the handler when its progress finds the job taken over, and drops its result', async () => {
    const name = uniqueName('attempt-taken')
    let aborted: boolean | undefined
    handle(name, async (job, ctx) => {
      await bed.db.execute(sql`update jobs set locked_by = 'someone-else' where id = ${job.id}`)
      await ctx.progress(1, 2)
      aborted = ctx.signal.aborted
      return 'mine'
    })
    const { id } = await add({ name, hospitalId: bed.a })
    const lines: Line[] = []
    await runAttempt(options(capturingLog(lines)), await claimOne(name), new AbortController())
    expect(aborted).toBe(true)
    expect(await row(id)).toMatchObject({
      status: 'running',
      result: null,
      locked_by: 'someone-else',
    })
    expect(lines).toMatchObject([
      { level: 'warn', msg: 'job finished after its lease was lost; result dropped' },
    ])
  })

  it('renews the lease every leaseMs / 3 while the handler runs', async () => {
    const name = uniqueName('attempt-renew')
    let leftAtEnd = 0
    handle(name, async (job) => {
      await sleep(1_200)
      leftAtEnd = (await row(job.id)).lease_left_ms ?? 0
      return 'ok'
    })
    const { id } = await add({ name, hospitalId: bed.a })
    await runAttempt(
      options(capturingLog([]), { leaseMs: 600 }),
      await claimOne(name, 'w-test', 600),
      new AbortController(),
    )
    expect(leftAtEnd).toBeGreaterThan(0)
    expect((await row(id)).status).toBe('done')
  })
})

describe('ctx.withTenant and ctx.checkpoint', () => {
  const attemptOptions = (over: Partial<AttemptOptions> = {}): AttemptOptions => ({
    db: bed.db,
    workerId: 'w-test',
    leaseMs: 60_000,
    progressMs: 0,
    backoff: () => 120_000,
    log: capturingLog([]),
    ...over,
  })

  it('refuses a platform job, and a hospital id that is not a UUID', async () => {
    const name = uniqueName('tenant-platform')
    let refusal: unknown
    handle(name, async (_job, ctx) => {
      refusal = await ctx.withTenant(() => Promise.resolve('ran')).catch((e: unknown) => e)
      return 'ok'
    })
    await add({ name, hospitalId: null })
    await runAttempt(attemptOptions(), await claimOne(name), new AbortController())
    expect(refusal).toBeInstanceOf(Error)
    expect((refusal as Error).message).toBe(`job ${name} is a platform job: no hospital`)

    // An id with text before or after the UUID (the check is anchored at both ends).
    for (const hospitalId of [`x${bed.a}`, `${bed.a}x`]) {
      const fake: ClaimedJob = {
        id: randomUUID(),
        name,
        hospitalId,
        payload: {},
        attempts: 1,
        maxAttempts: 1,
        runAt: new Date(),
        checkpoint: null,
      }
      const ctx = fencedTenant({
        db: bed.db,
        job: fake,
        fence: { id: fake.id, workerId: 'w', attempts: 1 },
        leaseMs: 1_000,
        onLost: () => undefined,
      })
      let ran = false
      await expect(
        ctx.withTenant(() => {
          ran = true
          return Promise.resolve()
        }),
      ).rejects.toThrow('withTenant: the hospital id is not a UUID')
      expect(ran).toBe(false)
    }
  })

  it("runs as app_user in the job's hospital, and throws LeaseLostError for a taken job", async () => {
    const name = uniqueName('tenant-role')
    let seen: { role: string; hospital: string } | undefined
    let lostError: unknown
    let lostCalled = false
    handle(name, async (job, ctx) => {
      seen = await ctx.withTenant(async (tx) => {
        const [r] = await queryRows<{ role: string; hospital: string }>(
          tx,
          sql`select current_user as role, current_setting('app.hospital_id') as hospital`,
        )
        return r
      })
      const stale = fencedTenant({
        db: bed.db,
        job,
        fence: { id: job.id, workerId: 'w-test', attempts: job.attempts + 1 },
        leaseMs: 1_000,
        onLost: () => {
          lostCalled = true
        },
      })
      lostError = await stale.withTenant(() => Promise.resolve()).catch((e: unknown) => e)
      return 'ok'
    })
    await add({ name, hospitalId: bed.b })
    await runAttempt(attemptOptions(), await claimOne(name), new AbortController())
    expect(seen).toEqual({ role: 'app_user', hospital: bed.b })
    expect(lostError).toBeInstanceOf(LeaseLostError)
    expect(lostCalled).toBe(true)
  })

  it('stores a checkpoint with the batch (undefined as null), only from its own transaction', async () => {
    const name = uniqueName('checkpoint')
    const refusals: string[] = []
    let kept: Tx | undefined
    handle(name, async (job, ctx) => {
      await ctx.withTenant(async (tx) => {
        kept = tx
        await ctx.checkpoint(tx, { page: 3 })
      })
      expect((await row(job.id)).checkpoint).toEqual({ page: 3 })
      await ctx.withTenant(async (tx) => {
        await ctx.checkpoint(tx, undefined)
        await ctx.checkpoint(tx, () => 1).catch((e: Error) => refusals.push(e.message))
      })
      if (kept)
        await ctx.checkpoint(kept, { page: 4 }).catch((e: Error) => refusals.push(e.message))
      return 'ok'
    })
    const { id } = await add({ name, hospitalId: bed.a })
    await runAttempt(attemptOptions(), await claimOne(name), new AbortController())
    expect(refusals).toEqual([
      'ctx.checkpoint: the value is not JSON',
      'ctx.checkpoint: pass the transaction ctx.withTenant gave this handler',
    ])
    const r = await row(id)
    expect(r.status).toBe('done')
    expect(r.checkpoint).toBeNull()
    expect((await getJob(bed.db, id, bed.a))?.checkpoint).toBeNull()
  })

  it('keeps the last checkpoint through a batch that sets none', async () => {
    const name = uniqueName('checkpoint-kept')
    const { id } = await add({ name, hospitalId: bed.a })
    const job = await claimOne(name)
    const ctx = fencedTenant({
      db: bed.db,
      job,
      fence: { id, workerId: 'w-test', attempts: job.attempts },
      leaseMs: 60_000,
      onLost: () => undefined,
    })
    await ctx.withTenant((tx) => ctx.checkpoint(tx, { page: 1 }))
    await ctx.withTenant(() => Promise.resolve())
    expect((await row(id)).checkpoint).toEqual({ page: 1 })
  })

  it('does not renew again after a batch shorter than a third of the lease', async () => {
    const name = uniqueName('short-batch')
    const { id } = await add({ name, hospitalId: bed.a })
    const job = await claimOne(name, 'w-test', 3_000)
    const ctx = fencedTenant({
      db: bed.db,
      job,
      fence: { id, workerId: 'w-test', attempts: job.attempts },
      leaseMs: 3_000,
      onLost: () => undefined,
    })
    // 800 ms < 1,000 ms: the lease still runs from the start of the batch.
    await ctx.withTenant(() => sleep(800))
    expect((await row(id)).lease_left_ms).toBeLessThan(2_600)
  })

  it('renews the lease again before COMMIT after a batch that took a third of it', async () => {
    const name = uniqueName('long-batch')
    const { id } = await add({ name, hospitalId: bed.a })
    const job = await claimOne(name, 'w-test', 1_500)
    // fencedTenant alone: no interval renewal beside it.
    const ctx = fencedTenant({
      db: bed.db,
      job,
      fence: { id, workerId: 'w-test', attempts: job.attempts },
      leaseMs: 1_500,
      onLost: () => undefined,
    })
    await ctx.withTenant(() => sleep(700))
    expect((await row(id)).lease_left_ms).toBeGreaterThan(1_150)
    await ctx.withTenant(() => Promise.resolve())
    const left = (await row(id)).lease_left_ms ?? 0
    expect(left).toBeGreaterThan(1_150)
    expect(left).toBeLessThanOrEqual(1_500)
  })
})
