import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/server/db/client'
import { withPlatform, withTenant } from '../../src/server/db/tenant'
import { enqueue, getJob } from '../../src/server/jobs/queue'
import { type JobHandler, PermanentJobError, registerHandler } from '../../src/server/jobs/registry'
import { schedule } from '../../src/server/jobs/schedule'
import { claimNext } from '../../src/server/jobs/claim'
import { markDone } from '../../src/server/jobs/store'
import { Worker, type WorkerOptions } from '../../src/server/jobs/worker'
import { hasPgBouncer, startPgBouncer } from '../support/pgbouncer'
import { openTestDatabase, queryRows, type TestDatabase } from '../support/test-app'

// docs/decisions/014-jobs.md: one PostgreSQL-backed queue on both drivers. Timings are short
// (20 ms polls, 10 ms backoff) but nothing here asserts on speed: waits are polls with a
// generous ceiling.

let t: TestDatabase
let db: Database['db']
/** PostgreSQL: a second pool on the same database, as a second instance would have. */
let second: Database | undefined
let a: string
let b: string
const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

beforeAll(async () => {
  t = await openTestDatabase()
  db = t.database.db
  if (t.directUrl) second = await openDatabase({ databaseUrl: t.directUrl })
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into hospitals (name, email) values ('A', 'a@jobs.test'), ('B', 'b@jobs.test') returning id`,
  )
  a = rows[0]?.id ?? ''
  b = rows[1]?.id ?? ''
})
afterAll(async () => {
  await second?.close()
  await t?.drop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string) {
  const deadline = Date.now() + 25_000
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

let counter = 0
/** A job name of its own for each test, and its handler removed afterwards. */
function uniqueName(label: string) {
  counter += 1
  return `test.${label}.${counter}`
}

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn()
})

function handle(name: string, handler: JobHandler) {
  cleanups.push(registerHandler(name, handler))
}

function worker(names: string[], options: Partial<WorkerOptions> = {}): Worker {
  const w = new Worker({
    database: t.database,
    names,
    pollMs: 20,
    leaseMs: 3_000,
    progressMs: 0,
    backoff: () => 10,
    directUrl: t.directUrl,
    ...options,
  })
  cleanups.push(() => w.stop())
  return w
}

interface JobRow {
  status: string
  attempts: number
  last_error: string | null
  result: unknown
  run_at: Date
}

async function jobRow(id: string): Promise<JobRow | undefined> {
  const [row] = await queryRows<JobRow>(
    db,
    sql`select status, attempts, last_error, result, run_at from jobs where id = ${id}`,
  )
  return row
}

describe('enqueue (transactional outbox)', () => {
  it('adds the job only when the transaction commits', async () => {
    const name = uniqueName('outbox')
    await expect(
      withTenant(db, { hospitalId: a, userId: null }, async (tx) => {
        await enqueue(tx, { name, hospitalId: a, payload: { n: 1 } })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    const none = await queryRows(db, sql`select id from jobs where name = ${name}`)
    expect(none).toEqual([])
    const { id } = await withTenant(db, { hospitalId: a, userId: null }, (tx) =>
      enqueue(tx, { name, hospitalId: a, payload: { n: 2 } }),
    )
    expect((await jobRow(id))?.status).toBe('queued')
  })

  it("lets a hospital's transaction enqueue its own jobs only, never another's or a platform job", async () => {
    const name = uniqueName('rls')
    for (const hospitalId of [b, null]) {
      await expect(
        withTenant(db, { hospitalId: a, userId: null }, (tx) => enqueue(tx, { name, hospitalId })),
      ).rejects.toThrow()
    }
    expect(await queryRows(db, sql`select id from jobs where name = ${name}`)).toEqual([])
    await withPlatform(db, (tx) => enqueue(tx, { name, hospitalId: null }))
  })

  it('keeps one job per dedupe key and hospital', async () => {
    const name = uniqueName('dedupe')
    const first = await withTenant(db, { hospitalId: a, userId: null }, (tx) =>
      enqueue(tx, { name, hospitalId: a, dedupeKey: 'lead:42' }),
    )
    const again = await withTenant(db, { hospitalId: a, userId: null }, (tx) =>
      enqueue(tx, { name, hospitalId: a, dedupeKey: 'lead:42' }),
    )
    const other = await withTenant(db, { hospitalId: b, userId: null }, (tx) =>
      enqueue(tx, { name, hospitalId: b, dedupeKey: 'lead:42' }),
    )
    expect(first.created).toBe(true)
    expect(again).toEqual({ id: first.id, created: false })
    expect(other.created).toBe(true)
    expect(other.id).not.toBe(first.id)
    // Twenty at once (PostgreSQL: in parallel transactions) still make one.
    const name2 = uniqueName('dedupe-race')
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        withTenant(db, { hospitalId: a, userId: null }, (tx) =>
          enqueue(tx, { name: name2, hospitalId: a, dedupeKey: 'import:file-1' }),
        ),
      ),
    )
    expect(new Set(results.map((r) => r.id)).size).toBe(1)
    expect(results.filter((r) => r.created)).toHaveLength(1)
  })
})

describe('privileges', () => {
  it('lets app_platform claim, update and delete jobs; app_user may not change them', async () => {
    const name = uniqueName('roles')
    const { id } = await withTenant(db, { hospitalId: a, userId: null }, (tx) =>
      enqueue(tx, { name, hospitalId: a }),
    )
    await expect(
      withTenant(db, { hospitalId: a, userId: null }, (tx) =>
        tx.execute(sql`update jobs set status = 'done' where id = ${id}`),
      ),
    ).rejects.toThrow()
    const changed = await db.transaction(async (tx) => {
      await tx.execute(sql`set local role app_platform`)
      const r = (await tx.execute(
        sql`update jobs set status = 'done' where id = ${id} returning id`,
      )) as unknown as { rows: unknown[] }
      await tx.execute(sql`delete from jobs where id = ${id}`)
      return r.rows.length
    })
    expect(changed).toBe(1)
    expect(await jobRow(id)).toBeUndefined()
  })
})

describe('worker', () => {
  it('runs a job once and stores its result', async () => {
    const name = uniqueName('once')
    const runs: unknown[] = []
    handle(name, async (job, ctx) => {
      runs.push(job.payload)
      const count = await ctx.withTenant(async (tx) => {
        const r = (await tx.execute(
          sql`select current_setting('app.hospital_id') as h`,
        )) as unknown as {
          rows: { h: string }[]
        }
        return r.rows[0]?.h
      })
      return { tenant: count }
    })
    const w = worker([name])
    await w.start()
    const { id } = await withPlatform(db, (tx) =>
      enqueue(tx, { name, hospitalId: a, payload: { leadId: 7 } }),
    )
    const row = await waitFor(async () => {
      const r = await jobRow(id)
      return r?.status === 'done' && r
    }, 'the job to finish')
    expect(row.result).toEqual({ tenant: a })
    expect(row.attempts).toBe(1)
    await sleep(100)
    expect(runs).toEqual([{ leadId: 7 }])
  })

  it('retries a failure with backoff, then marks it dead; a permanent error is dead at once', async () => {
    const name = uniqueName('retry')
    const delays: number[] = []
    let calls = 0
    handle(name, async (job) => {
      calls += 1
      if ((job.payload as { succeedOn?: number }).succeedOn === job.attempts) return 'ok'
      if ((job.payload as { permanent?: boolean }).permanent) {
        throw new PermanentJobError('bad payload')
      }
      throw new Error('provider said no: https://api.example/x?access_token=EAAGsecret')
    })
    const w = worker([name], {
      backoff: (attempt) => {
        delays.push(attempt)
        return 10
      },
    })
    await w.start()
    const dead = await withPlatform(db, (tx) =>
      enqueue(tx, { name, hospitalId: a, maxAttempts: 3 }),
    )
    const row = await waitFor(async () => {
      const r = await jobRow(dead.id)
      return r?.status === 'dead' && r
    }, 'the job to die')
    expect(row.attempts).toBe(3)
    expect(delays).toEqual([1, 2])
    // A plain Error's message may carry anything: its class is stored (errorText).
    expect(row.last_error).toBe('Error')

    const recovers = await withPlatform(db, (tx) =>
      enqueue(tx, { name, hospitalId: a, maxAttempts: 5, payload: { succeedOn: 2 } }),
    )
    await waitFor(
      async () => (await jobRow(recovers.id))?.status === 'done',
      'the retry to succeed',
    )
    expect((await jobRow(recovers.id))?.attempts).toBe(2)

    const permanent = await withPlatform(db, (tx) =>
      enqueue(tx, { name, hospitalId: a, payload: { permanent: true } }),
    )
    await waitFor(
      async () => (await jobRow(permanent.id))?.status === 'dead',
      'a permanent failure',
    )
    expect(await jobRow(permanent.id)).toMatchObject({ attempts: 1, last_error: 'bad payload' })
    expect(calls).toBe(3 + 2 + 1)
  })

  it('waits for run_at, and a failed job for its backoff', async () => {
    const name = uniqueName('later')
    let ran = false
    handle(name, async () => {
      ran = true
    })
    const w = worker([name])
    await w.start()
    const { id } = await withPlatform(db, (tx) =>
      enqueue(tx, { name, hospitalId: null, runAt: new Date(Date.now() + 3_600_000) }),
    )
    await sleep(150)
    expect(ran).toBe(false)
    await db.execute(sql`update jobs set run_at = now() where id = ${id}`)
    await waitFor(async () => (await jobRow(id))?.status === 'done', 'the job once due')
  })

  it('reclaims a job whose lease ran out (a crashed worker), and fences the old owner out', async () => {
    const name = uniqueName('lease')
    const runs: number[] = []
    handle(name, async (job) => {
      runs.push(job.attempts)
      return 'second worker'
    })
    const { id } = await withPlatform(db, (tx) => enqueue(tx, { name, hospitalId: a }))
    // A worker claims it with a short lease and "crashes": it never renews or finishes.
    const crashed = await claimNext(db, 'crashed-worker', [name], 50)
    expect(crashed?.id).toBe(id)
    const w = worker([name])
    await w.start()
    await waitFor(async () => (await jobRow(id))?.status === 'done', 'the reclaimed job')
    expect(runs).toEqual([2])
    // The crashed worker coming back cannot overwrite the outcome.
    expect(await markDone(db, { id, workerId: 'crashed-worker', attempts: 1 }, 'stale', null)).toBe(
      false,
    )
    expect((await jobRow(id))?.result).toBe('second worker')
  })

  it('marks dead a job whose last attempt was lost with its worker', async () => {
    const name = uniqueName('lost')
    let ran = false
    handle(name, async () => {
      ran = true
    })
    const { id } = await withPlatform(db, (tx) =>
      enqueue(tx, { name, hospitalId: a, maxAttempts: 1 }),
    )
    await claimNext(db, 'crashed-worker', [name], 10)
    await worker([name]).start()
    await waitFor(async () => (await jobRow(id))?.status === 'dead', 'the lost job to die')
    expect(ran).toBe(false)
  })

  it('shows progress to its hospital only, while other queries keep running', async () => {
    const name = uniqueName('progress')
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    handle(name, async (_job, ctx) => {
      await ctx.progress(1, 3)
      await released
      await ctx.progress(3, 3)
      return { imported: 3 }
    })
    await worker([name]).start()
    const { id } = await withTenant(db, { hospitalId: a, userId: null }, (tx) =>
      enqueue(tx, { name, hospitalId: a }),
    )
    const running = await waitFor(async () => {
      const job = await getJob(db, id, a)
      return job?.progress?.done === 1 && job
    }, 'progress 1 of 3')
    // The job is mid-way and the database still answers (PGlite: one connection, not held).
    expect(running).toMatchObject({ status: 'running', progress: { done: 1, total: 3 } })
    expect(await getJob(db, id, b)).toBeNull()
    expect(await getJob(db, 'not-a-uuid', a)).toBeNull()
    release()
    const done = await waitFor(async () => {
      const job = await getJob(db, id, a)
      return job?.status === 'done' && job
    }, 'the job to finish')
    expect(done).toMatchObject({ progress: { done: 3, total: 3 }, result: { imported: 3 } })
  })

  it('stops claiming at shutdown and waits for the running job', async () => {
    const name = uniqueName('shutdown')
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let started = false
    handle(name, async () => {
      started = true
      await released
      return 'finished'
    })
    const w = worker([name])
    await w.start()
    const { id } = await withPlatform(db, (tx) => enqueue(tx, { name, hospitalId: null }))
    await waitFor(async () => started, 'the job to start')
    let stopped = false
    const stopping = w.stop(30_000).then((r) => {
      stopped = true
      return r
    })
    const queuedLater = await withPlatform(db, (tx) => enqueue(tx, { name, hospitalId: null }))
    await sleep(200)
    expect(stopped).toBe(false)
    release()
    expect(await stopping).toEqual({ unfinished: 0 })
    expect((await jobRow(id))?.status).toBe('done')
    expect((await jobRow(queuedLater.id))?.status).toBe('queued')
  })

  it('fires each schedule slot once however many workers run', async () => {
    const name = uniqueName('schedule')
    const slots: string[] = []
    handle(name, async (job) => {
      slots.push(job.runAt.toISOString())
    })
    cleanups.push(schedule(name, { everyMs: 60_000 }))
    let now = new Date('2026-11-23T10:00:30Z')
    const clock = () => now
    const one = worker([name], { now: clock })
    const two = worker([name], { now: clock, ...(second ? { database: second } : {}) })
    await Promise.all([one.start(), two.start()])
    await waitFor(async () => slots.length === 1, 'the first slot')
    await sleep(150)
    now = new Date('2026-11-23T10:01:05Z')
    await waitFor(async () => slots.length === 2, 'the second slot')
    await sleep(150)
    expect(slots).toEqual(['2026-11-23T10:00:00.000Z', '2026-11-23T10:01:00.000Z'])
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from jobs where name = ${name}`,
    )
    expect(count?.n).toBe(2)
  })
})

describe.skipIf(!onPostgres)('two workers on two pools (PostgreSQL)', () => {
  it('never run one job twice over 200 jobs', async () => {
    const name = uniqueName('pair')
    const runs = new Map<string, string[]>()
    handle(name, async (job) => {
      await sleep(Math.random() * 5)
      const seen = runs.get(job.id) ?? []
      seen.push(String((job.payload as { n: number }).n))
      runs.set(job.id, seen)
    })
    const one = worker([name], { concurrency: 4, id: 'one' })
    const two = worker([name], { concurrency: 4, id: 'two', database: second as Database })
    await Promise.all([one.start(), two.start()])
    await withPlatform(db, async (tx) => {
      for (let n = 0; n < 200; n++)
        await enqueue(tx, { name, hospitalId: n % 2 ? a : b, payload: { n } })
    })
    await waitFor(async () => {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from jobs where name = ${name} and status = 'done'`,
      )
      return row?.n === 200
    }, '200 jobs done')
    expect(runs.size).toBe(200)
    expect([...runs.values()].filter((r) => r.length !== 1)).toEqual([])
    const [attempts] = await queryRows<{ max: number }>(
      db,
      sql`select max(attempts)::int as max from jobs where name = ${name}`,
    )
    expect(attempts?.max).toBe(1)
  })
})

describe.skipIf(!onPostgres || !hasPgBouncer)('through PgBouncer in transaction mode', () => {
  it('claims, retries and reports progress with no session state', async () => {
    const bouncer = await startPgBouncer(new URL(t.directUrl ?? ''))
    cleanups.push(() => bouncer.stop())
    const pooled = await openDatabase({
      databaseUrl: bouncer.url(new URL(t.directUrl ?? '').pathname.slice(1)),
    })
    cleanups.push(() => pooled.close())
    const name = uniqueName('bouncer')
    const runs = new Map<string, number>()
    handle(name, async (job, ctx) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1)
      await ctx.progress(1, 2)
      if (job.attempts === 1 && (job.payload as { n: number }).n % 5 === 0) throw new Error('once')
      await ctx.withTenant((tx) => tx.execute(sql`select 1`))
      return job.attempts
    })
    // One worker through the pooler, one on its own pool.
    const viaBouncer = worker([name], { database: pooled, concurrency: 4, directUrl: undefined })
    const direct = worker([name], { concurrency: 4 })
    await Promise.all([viaBouncer.start(), direct.start()])
    await withPlatform(pooled.db, async (tx) => {
      for (let n = 0; n < 60; n++) await enqueue(tx, { name, hospitalId: a, payload: { n } })
    })
    await waitFor(async () => {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from jobs where name = ${name} and status = 'done'`,
      )
      return row?.n === 60
    }, '60 jobs done through the pooler')
    const retried = [...runs.values()].filter((n) => n === 2).length
    expect(retried).toBe(12)
    expect([...runs.values()].every((n) => n === 1 || n === 2)).toBe(true)
  })
})
