import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import type { AppDb } from '../../src/server/db/client'
import { withPlatform } from '../../src/server/db/tenant'
import { claimNext } from '../../src/server/jobs/claim'
import { enqueue, type EnqueueInput } from '../../src/server/jobs/queue'
import { jobsTestBed, onPostgres, sleep, uniqueName } from '../support/jobs'
import { queryRows } from '../support/test-app'

// Claims at their edges (claim.ts, mutation testing, docs/decisions/024): job names with
// per-hospital limits, the order of a new lane, and lanes under contention. On PostgreSQL a
// second connection holds a lane's row or a job's row locked, as another claimer would, so
// the skip-locked and waiting paths run deterministically (PGlite has one connection).

const bed = jobsTestBed()
const { handle } = bed

const add = (input: EnqueueInput) => withPlatform(bed.db, (tx) => enqueue(tx, input))

async function newHospital(): Promise<string> {
  const n = randomUUID().slice(0, 8)
  const [h] = await queryRows<{ id: string }>(
    bed.db,
    sql`insert into hospitals (name, email) values (${`H ${n}`}, ${`h-${n}@claims.test`}) returning id`,
  )
  return h?.id ?? ''
}

/** A lane's row in job_lanes, last served `minutesAgo` (null: never). */
async function lane(hospitalId: string, minutesAgo: number | null): Promise<void> {
  const at = minutesAgo === null ? sql`null` : sql`now() - ${minutesAgo}::int * interval '1 minute'`
  await bed.db.execute(
    sql`insert into job_lanes (lane, last_claimed_at) values (${hospitalId}, ${at})
        on conflict (lane) do update set last_claimed_at = excluded.last_claimed_at`,
  )
}

const cap = { perHospitalRunning: 10 }

describe('claimNext without work', () => {
  it('claims nothing for no job names, without a database round trip', async () => {
    // Not a database: any statement would throw.
    expect(await claimNext({} as AppDb, 'w', [], 1_000)).toBeNull()
  })
})

describe("claimNext and job names' per-hospital limits", () => {
  it('claims across several names, each up to its own running and per-minute limit', async () => {
    const running = uniqueName('limit-running')
    const perMinute = uniqueName('limit-minute')
    handle(running, () => Promise.resolve(), { perHospitalRunning: 1 })
    handle(perMinute, () => Promise.resolve(), { perHospitalPerMinute: 1 })
    const h = await newHospital()
    for (let i = 0; i < 2; i++) {
      await add({ name: running, hospitalId: h })
      await add({ name: perMinute, hospitalId: h })
    }
    const names = [running, perMinute]
    const first = await claimNext(bed.db, 'w', names, 60_000, cap)
    const second = await claimNext(bed.db, 'w', names, 60_000, cap)
    expect([first?.name, second?.name].sort()).toEqual([...names].sort())
    expect(await claimNext(bed.db, 'w', names, 60_000, cap)).toBeNull()
  })
})

describe('claimNext and a new lane', () => {
  it('serves a lane without a row first, before a lane whose row exists but was never served', async () => {
    const name = uniqueName('new-lane')
    const [low, high] = [await newHospital(), await newHospital()].sort()
    if (!low || !high) throw new Error('no hospitals')
    // The lower id would come first among never-served lanes; the lane without a row still wins.
    await lane(low, null)
    await add({ name, hospitalId: low })
    await add({ name, hospitalId: high })
    expect((await claimNext(bed.db, 'w', [name], 60_000, cap))?.hospitalId).toBe(high)
    expect((await claimNext(bed.db, 'w', [name], 60_000, cap))?.hospitalId).toBe(low)
  })
})

describe.skipIf(!onPostgres)('claimNext under contention (PostgreSQL)', () => {
  /** Another claimer: a transaction on a connection of its own, holding row locks. */
  async function holder(): Promise<{
    run: (q: string, v?: unknown[]) => Promise<unknown>
    end: () => Promise<void>
  }> {
    const client = new pg.Client({ connectionString: bed.t.directUrl })
    await client.connect()
    await client.query('begin')
    let open = true
    return {
      run: (q, v) => client.query(q, v),
      end: async () => {
        if (!open) return
        open = false
        await client.query('commit').catch(() => undefined)
        await client.end()
      },
    }
  }

  it('waits for a lane another claimer holds when every lane with work is locked, then claims', async () => {
    const name = uniqueName('wait-lane')
    const h1 = await newHospital()
    const h2 = await newHospital()
    await lane(h1, 10)
    await lane(h2, 5)
    const j1 = await add({ name, hospitalId: h1 })
    const j2 = await add({ name, hospitalId: h2 })
    const other = await holder()
    try {
      await other.run('select lane from job_lanes where lane = any($1::uuid[]) for update', [
        [h1, h2],
      ])
      let settled = false
      const claim = claimNext(bed.db, 'w', [name], 60_000, cap).finally(() => {
        settled = true
      })
      await sleep(400)
      expect(settled).toBe(false)
      await other.end()
      const job = await claim
      // The lane first in turn: the one served longest ago.
      expect(job?.id).toBe(j1.id)
      expect(job?.id).not.toBe(j2.id)
    } finally {
      await other.end()
    }
  })

  it('claims nothing, and does not fail, when the lane it waited for was deleted meanwhile', async () => {
    const name = uniqueName('gone-lane')
    const h = await newHospital()
    await lane(h, 10)
    await add({ name, hospitalId: h })
    const other = await holder()
    try {
      await other.run('delete from job_lanes where lane = $1', [h])
      const claim = claimNext(bed.db, 'w', [name], 60_000, cap)
      await sleep(300)
      await other.end()
      expect(await claim).toBeNull()
    } finally {
      await other.end()
    }
  })

  it("takes the next free lane in turn when its lane's job was taken meanwhile", async () => {
    const name = uniqueName('next-lane')
    const [x, z, y] = [await newHospital(), await newHospital(), await newHospital()]
    if (!x || !y || !z) throw new Error('no hospitals')
    // Turn order x, z, y: x's job is locked by another claimer, z's lane too; y is free.
    await lane(x, 30)
    await lane(z, 20)
    await lane(y, 10)
    const jx = await add({ name, hospitalId: x })
    await add({ name, hospitalId: z })
    const jy = await add({ name, hospitalId: y })
    const other = await holder()
    try {
      await other.run('select id from jobs where id = $1 for update', [jx.id])
      await other.run('select lane from job_lanes where lane = $1 for update', [z])
      const started = Date.now()
      const job = await claimNext(bed.db, 'w', [name], 60_000, cap)
      expect(job?.id).toBe(jy.id)
      expect(Date.now() - started).toBeLessThan(3_000)
    } finally {
      await other.end()
    }
  })

  it('gives up waiting for a locked lane after 5 seconds (lock_timeout), with an error', async () => {
    const name = uniqueName('lane-timeout')
    const h = await newHospital()
    await lane(h, 10)
    await add({ name, hospitalId: h })
    const other = await holder()
    try {
      await other.run('select lane from job_lanes where lane = $1 for update', [h])
      const started = Date.now()
      const outcome = await Promise.race([
        claimNext(bed.db, 'w', [name], 60_000, cap).then(
          () => 'claimed',
          (e: unknown) => (e as { cause?: { code?: string } }).cause?.code ?? String(e),
        ),
        sleep(8_000).then(() => 'still waiting'),
      ])
      // 55P03: lock_not_available (lock_timeout; drizzle wraps the driver's error).
      expect(outcome).toBe('55P03')
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500)
    } finally {
      await other.end()
    }
  })

  it('tries at most three lanes in one claim when the jobs of the first ones were taken', async () => {
    const name = uniqueName('three-lanes')
    const taken = [await newHospital(), await newHospital(), await newHospital()]
    const y = await newHospital()
    const ids: string[] = []
    for (const [i, h] of taken.entries()) {
      await lane(h, 40 - i * 10)
      ids.push((await add({ name, hospitalId: h })).id)
    }
    await lane(y, 5)
    const jy = await add({ name, hospitalId: y })
    const other = await holder()
    try {
      await other.run('select id from jobs where id = any($1::uuid[]) for update', [ids])
      expect(await claimNext(bed.db, 'w', [name], 60_000, cap)).toBeNull()
      await other.end()
      // The next claim takes them in turn again; the fourth lane's job waits for its turn.
      expect((await claimNext(bed.db, 'w', [name], 60_000, cap))?.hospitalId).toBe(taken[0])
      expect(
        (
          await queryRows<{ status: string }>(
            bed.db,
            sql`select status from jobs where id = ${jy.id}`,
          )
        )[0]?.status,
      ).toBe('queued')
    } finally {
      await other.end()
    }
  })

  it("claims nothing at once when its lane's job was taken and every other lane is locked", async () => {
    const name = uniqueName('no-free-lane')
    const x = await newHospital()
    const z = await newHospital()
    await lane(x, 30)
    await lane(z, 20)
    const jx = await add({ name, hospitalId: x })
    await add({ name, hospitalId: z })
    const other = await holder()
    try {
      await other.run('select id from jobs where id = $1 for update', [jx.id])
      await other.run('select lane from job_lanes where lane = $1 for update', [z])
      const started = Date.now()
      expect(await claimNext(bed.db, 'w', [name], 60_000, cap)).toBeNull()
      expect(Date.now() - started).toBeLessThan(3_000)
    } finally {
      await other.end()
    }
  })
})
