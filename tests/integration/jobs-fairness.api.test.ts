import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Database } from '../../src/server/db/client'
import { withPlatform, withTenant } from '../../src/server/db/tenant'
import { enqueue } from '../../src/server/jobs/queue'
import type { WorkerOptions } from '../../src/server/jobs/worker'
import { onPostgres, sleep, uniqueName, jobsTestBed, waitFor } from '../support/jobs'

// docs/decisions/020-fair-jobs.md: hospitals take turns at the queue, each under a cap of
// running jobs, and a job name may have a per-hospital limit. On PostgreSQL every test runs
// two workers on two pools (two instances); on PGlite one or two workers on its one
// connection. Assertions are on order and counts, never on wall-clock times.

const bed = jobsTestBed()
const { handle, worker, cleanup, count } = bed

/** Two workers on PostgreSQL (the second on its own pool), one on PGlite unless told. */
function workers(names: string[], options: Partial<WorkerOptions> = {}, pairOnPglite = false) {
  const one = worker(names, { concurrency: 4, id: 'one', ...options })
  if (!onPostgres && !pairOnPglite) return [one]
  const database = (bed.second as Database | undefined) ?? bed.t.database
  return [one, worker(names, { concurrency: 4, id: 'two', database, ...options })]
}

describe('fair claiming', () => {
  it("runs hospital B's 10 jobs while most of hospital A's 5,000 still wait", async () => {
    const name = uniqueName('fair')
    cleanup(() => bed.db.execute(sql`delete from jobs where name = ${name}`))
    const runs: ('A' | 'B')[] = []
    handle(name, async (job) => {
      runs.push(job.hospitalId === bed.a ? 'A' : 'B')
    })
    // A's backlog: 5,000 jobs in one tenant transaction (the rows enqueue() writes).
    await withTenant(bed.db, { hospitalId: bed.a, userId: null }, (tx) =>
      tx.execute(
        sql`insert into jobs (name, hospital_id, payload)
            select ${name}, ${bed.a}, jsonb_build_object('n', g) from generate_series(1, 5000) g`,
      ),
    )
    await Promise.all(workers([name]).map((w) => w.start()))
    await waitFor(async () => runs.length >= 20, "A's backlog to be under way")
    await withTenant(bed.db, { hospitalId: bed.b, userId: null }, async (tx) => {
      for (let n = 0; n < 10; n++) await enqueue(tx, { name, hospitalId: bed.b, payload: { n } })
    })
    // From B's commit on (A's jobs claimed before it may still be finishing).
    const from = runs.length
    await waitFor(async () => (await count(name, 'done', bed.b)) === 10, "B's 10 jobs")
    const lastB = runs.lastIndexOf('B')
    const aMeanwhile = runs.slice(from, lastB + 1).filter((h) => h === 'A').length
    // Turns: about one of A's jobs per one of B's, plus what was running at B's commit.
    expect(aMeanwhile).toBeLessThanOrEqual(30)
    expect(runs.indexOf('B', from) - from).toBeLessThanOrEqual(12)
    expect(await count(name, 'queued', bed.a)).toBeGreaterThan(4_000)
  })

  it('serves platform jobs as one more hospital in the rotation', async () => {
    const name = uniqueName('platform-lane')
    cleanup(() => bed.db.execute(sql`delete from jobs where name = ${name}`))
    const runs: string[] = []
    handle(name, async (job) => {
      runs.push(job.hospitalId ?? 'platform')
    })
    await withPlatform(bed.db, (tx) =>
      tx.execute(
        sql`insert into jobs (name, hospital_id) select ${name}, ${bed.a} from generate_series(1, 300)`,
      ),
    )
    await withPlatform(bed.db, async (tx) => {
      for (let n = 0; n < 3; n++) await enqueue(tx, { name, hospitalId: null })
    })
    await Promise.all(workers([name]).map((w) => w.start()))
    await waitFor(
      async () => runs.filter((h) => h === 'platform').length === 3,
      'the platform jobs',
    )
    expect(runs.lastIndexOf('platform')).toBeLessThanOrEqual(20)
    expect(await count(name, 'queued', bed.a)).toBeGreaterThan(250)
  })
})

describe('a busy queue', () => {
  it('leaves the event loop free for timers and requests (PGlite answers in microtasks)', async () => {
    const name = uniqueName('busy')
    cleanup(() => bed.db.execute(sql`delete from jobs where name = ${name}`))
    let runs = 0
    handle(name, async () => {
      runs += 1
    })
    await withPlatform(bed.db, (tx) =>
      tx.execute(
        sql`insert into jobs (name, hospital_id) select ${name}, ${bed.a} from generate_series(1, 500)`,
      ),
    )
    await Promise.all(workers([name]).map((w) => w.start()))
    await waitFor(async () => runs > 0, 'the first job')
    // A 5 ms timer fires while the backlog is still being worked through, not after it.
    const atTimer = await new Promise<number>((resolve) => setTimeout(() => resolve(runs), 5))
    expect(atTimer).toBeLessThan(100)
  })
})

describe('caps', () => {
  it("never runs more of one hospital's jobs at once than its cap, across two workers", async () => {
    const name = uniqueName('cap')
    const running = new Map<string, number>()
    const most = new Map<string, number>()
    handle(name, async (job) => {
      const h = job.hospitalId ?? 'platform'
      running.set(h, (running.get(h) ?? 0) + 1)
      most.set(h, Math.max(most.get(h) ?? 0, running.get(h) ?? 0))
      await sleep(40)
      running.set(h, (running.get(h) ?? 1) - 1)
    })
    // A's own cap in job_lanes (what an operator sets); B gets the workers' perHospitalRunning.
    const capA = onPostgres ? 2 : 1
    const capDefault = onPostgres ? 3 : 2
    await bed.db.execute(
      sql`insert into job_lanes (lane, max_running) values (${bed.a}, ${capA})
          on conflict (lane) do update set max_running = excluded.max_running`,
    )
    cleanup(() => bed.db.execute(sql`update job_lanes set max_running = null`))
    await Promise.all(
      workers([name], { perHospitalRunning: capDefault }, true).map((w) => w.start()),
    )
    // One hospital at a time, so nothing but the cap keeps idle slots from its jobs.
    for (const [hospitalId, cap] of [
      [bed.a, capA],
      [bed.b, capDefault],
    ] as const) {
      await withPlatform(bed.db, async (tx) => {
        for (let n = 0; n < 12; n++) await enqueue(tx, { name, hospitalId })
      })
      await waitFor(async () => (await count(name, 'done', hospitalId)) === 12, '12 jobs')
      expect(most.get(hospitalId)).toBe(cap)
    }
  })

  it('runs at most perHospitalRunning of a job name per hospital at once', async () => {
    const name = uniqueName('name-running')
    let running = 0
    let most = 0
    handle(
      name,
      async () => {
        running += 1
        most = Math.max(most, running)
        await sleep(30)
        running -= 1
      },
      { perHospitalRunning: 1 },
    )
    await Promise.all(workers([name], { perHospitalRunning: 4 }, true).map((w) => w.start()))
    await withPlatform(bed.db, async (tx) => {
      for (let n = 0; n < 8; n++) await enqueue(tx, { name, hospitalId: bed.a })
    })
    await waitFor(async () => (await count(name, 'done', bed.a)) === 8, '8 jobs')
    expect(most).toBe(1)
  })

  it('starts at most perHospitalPerMinute of a job name per hospital in any minute', async () => {
    const name = uniqueName('rate')
    const started: string[] = []
    handle(
      name,
      async (job) => {
        started.push(job.hospitalId ?? 'platform')
      },
      { perHospitalPerMinute: 3 },
    )
    await withPlatform(bed.db, async (tx) => {
      for (let n = 0; n < 6; n++) await enqueue(tx, { name, hospitalId: bed.a })
      for (let n = 0; n < 2; n++) await enqueue(tx, { name, hospitalId: bed.b })
    })
    await Promise.all(workers([name]).map((w) => w.start()))
    await waitFor(
      async () =>
        (await count(name, 'done', bed.a)) === 3 && (await count(name, 'done', bed.b)) === 2,
      "A's first 3 and B's 2",
    )
    await sleep(300) // about 15 more claims
    expect(await count(name, 'done', bed.a)).toBe(3)
    expect(await count(name, 'queued', bed.a)).toBe(3)
    // A minute later (the starts moved back), the rest start.
    await bed.db.execute(
      sql`update jobs set started_at = started_at - interval '61 seconds' where name = ${name}`,
    )
    await waitFor(async () => (await count(name, 'done', bed.a)) === 6, "A's other 3")
    expect(started.filter((h) => h === bed.a)).toHaveLength(6)
  })
})
