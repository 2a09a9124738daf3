// The jobs part (issue 24), on PostgreSQL and on embedded PGlite: hospital A enqueues 5,000
// no-op jobs, then hospital B 10, and the time until B's 10 have run (with how many of A's ran
// meanwhile); queue throughput of no-op jobs spread over 10 hospitals and all in one (the
// per-hospital cap); and the claim at 100,000 due jobs in one hospital: its EXPLAIN ANALYZE
// and the mean of 200 claims. PostgreSQL: two workers on two pools (two instances),
// concurrency 4 each; PGlite: one worker (one connection). Scratch databases only.
//
//   BENCH_PARTS=jobs npm run bench        this part alone
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type SQL } from 'drizzle-orm'
import pg from 'pg'
import { type Database, openDatabase } from '../../src/server/db/client'
import { withPlatform, withTenant } from '../../src/server/db/tenant'
import { claimInLaneQuery, claimNext, pickLaneQuery } from '../../src/server/jobs/claim'
import { enqueue } from '../../src/server/jobs/queue'
import { registerHandler } from '../../src/server/jobs/registry'
import { Worker } from '../../src/server/jobs/worker'
import { config } from './config'

export interface JobsDriverResult {
  /** From B's commit until B's 10th job had run, while A's backlog waited. */
  bTenMs: number
  /** A's jobs that ran in that time, and A's jobs still waiting when B's 10th ran. */
  aRanMeanwhile: number
  aWaiting: number
  /** No-op jobs a second, spread over 10 hospitals, and all in one hospital. */
  perSecond: number
  perSecondOneHospital: number
  /** The mean of 200 claims (claim + done) at 100,000 due jobs in one hospital. */
  claimMs100k: number
  plan: string[]
}

export interface JobsResult {
  postgres: JobsDriverResult | null
  pglite: JobsDriverResult | null
}

const NOOP = 'bench.noop'
const HOSPITALS = 10

/** Handler completions per hospital; `until(n)` resolves once n more have run in total. */
const ran = new Map<string, number>()
const order: string[] = []
let waiters: { total: number; resolve: () => void }[] = []
registerHandler(NOOP, async (job) => {
  const h = job.hospitalId ?? 'platform'
  ran.set(h, (ran.get(h) ?? 0) + 1)
  order.push(h)
  waiters = waiters.filter((w) => (order.length >= w.total ? (w.resolve(), false) : true))
})
const untilRuns = (total: number) =>
  new Promise<void>((resolve) => {
    if (order.length >= total) resolve()
    else waiters.push({ total, resolve })
  })
const runsOf = (h: string) => ran.get(h) ?? 0

async function rowsOf<T>(db: Database['db'], query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows
}

async function insertJobs(db: Database['db'], hospitalId: string, n: number) {
  await withTenant(db, { hospitalId, userId: null }, (tx) =>
    tx.execute(
      sql`insert into jobs (name, hospital_id) select ${NOOP}, ${hospitalId} from generate_series(1, ${n})`,
    ),
  )
}

async function runWorkers<T>(
  databases: Database[],
  directUrl: string | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  const workers = databases.map(
    (database, i) => new Worker({ database, names: [NOOP], id: `bench-${i}`, directUrl }),
  )
  await Promise.all(workers.map((w) => w.start()))
  try {
    return await fn()
  } finally {
    await Promise.all(workers.map((w) => w.stop()))
  }
}

async function benchDriver(
  databases: Database[],
  directUrl: string | undefined,
  log: (line: string) => void,
): Promise<JobsDriverResult> {
  const db = databases[0]!.db
  const hospitals = (
    await rowsOf<{ id: string }>(
      db,
      sql`insert into hospitals (name, email)
          select 'Bench jobs ' || g, 'jobs' || g || '@bench.test' from generate_series(1, ${HOSPITALS}) g
          returning id`,
    )
  ).map((r) => r.id)
  const [a, b] = hospitals as [string, string]
  const clear = () => db.execute(sql`delete from jobs where name = ${NOOP}`)

  // Fairness: A's 5,000, then B's 10.
  await insertJobs(db, a, 5_000)
  const fair = await runWorkers(databases, directUrl, async () => {
    await untilRuns(order.length + 20)
    await withTenant(db, { hospitalId: b, userId: null }, async (tx) => {
      for (let n = 0; n < 10; n++) await enqueue(tx, { name: NOOP, hospitalId: b })
    })
    const t0 = performance.now()
    const aBefore = runsOf(a)
    const bBefore = runsOf(b)
    while (runsOf(b) < bBefore + 10) await untilRuns(order.length + 1)
    const bTenMs = performance.now() - t0
    const aRanMeanwhile = runsOf(a) - aBefore
    return { bTenMs, aRanMeanwhile, aWaiting: 5_000 - runsOf(a) }
  })
  log(
    `  B's 10 jobs ran in ${fair.bTenMs.toFixed(0)} ms; meanwhile ${fair.aRanMeanwhile} of A's ran, ${fair.aWaiting} still waited`,
  )
  await clear()

  // Throughput: spread over 10 hospitals, then all in one.
  const throughput = async (spread: string[], total: number) => {
    for (const h of spread) await insertJobs(db, h, Math.floor(total / spread.length))
    // Counted from before the workers start (they may run some before fn does).
    const target = order.length + total
    const t0 = performance.now()
    return runWorkers(databases, directUrl, async () => {
      await untilRuns(target)
      return total / ((performance.now() - t0) / 1000)
    })
  }
  const total = databases[0]!.driver === 'postgres' ? 4_000 : 1_000
  const perSecond = await throughput(hospitals, total)
  await clear()
  const perSecondOneHospital = await throughput([a], total / 2)
  await clear()
  log(
    `  throughput: ${perSecond.toFixed(0)} jobs/s over ${HOSPITALS} hospitals, ${perSecondOneHospital.toFixed(0)} jobs/s in one (its cap of running jobs)`,
  )

  // The claim at 100,000 due jobs in one hospital (and 5 in each other one).
  await insertJobs(db, a, 100_000)
  for (const h of hospitals.slice(1)) await insertJobs(db, h, 5)
  await db.execute(sql`analyze jobs`)
  await claimNext(db, 'bench-claims', [NOOP], 60_000, { perHospitalRunning: 1_000 })
  const explain = async (query: SQL) =>
    withPlatform(db, async (tx) =>
      (
        (await tx.execute(sql`explain (analyze, costs off) ${query}`)) as unknown as {
          rows: Record<string, string>[]
        }
      ).rows.map((r) => String(Object.values(r)[0])),
    )
  const pick = await explain(pickLaneQuery([NOOP], 1_000))
  const claim = await explain(claimInLaneQuery(a, [NOOP], 1_000, 'bench-explain', 60_000))
  const t0 = performance.now()
  for (let i = 0; i < 200; i++) {
    const job = await claimNext(db, 'bench-claims', [NOOP], 60_000, { perHospitalRunning: 1_000 })
    if (!job) throw new Error('bench: nothing to claim')
    await withPlatform(db, (tx) =>
      tx.execute(sql`update jobs set status = 'done', locked_by = null where id = ${job.id}`),
    )
  }
  const claimMs100k = (performance.now() - t0) / 200
  const times = (plan: string[]) => plan.filter((l) => /Time:/.test(l)).join(', ')
  log(
    `  at 100,000 due jobs in one hospital: claim + done ${claimMs100k.toFixed(2)} ms; pick ${times(pick)}; claim ${times(claim)}`,
  )
  await clear()
  return { ...fair, perSecond, perSecondOneHospital, claimMs100k, plan: [...pick, ...claim] }
}

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: config.serverUrl })
  await client.connect()
  try {
    await client.query(query)
  } finally {
    await client.end()
  }
}

export async function benchJobs(
  log: (line: string) => void,
  options: { postgres: boolean },
): Promise<JobsResult> {
  let postgres: JobsDriverResult | null = null
  if (options.postgres) {
    const name = `arogya_bench_jobs_${Date.now().toString(36)}`
    await admin(`CREATE DATABASE ${name}`)
    const url = new URL(config.serverUrl)
    url.pathname = `/${name}`
    const one = await openDatabase({ databaseUrl: url.toString() })
    const two = await openDatabase({ databaseUrl: url.toString() })
    try {
      log('  PostgreSQL: two workers on two pools, concurrency 4 each')
      postgres = await benchDriver([one, two], url.toString(), log)
    } finally {
      await one.close()
      await two.close()
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'arogya-bench-jobs-'))
  const lite = await openDatabase({ dataDir })
  let pglite: JobsDriverResult
  try {
    log('  PGlite (a DATA_DIR on disk): one worker')
    pglite = await benchDriver([lite], undefined, log)
  } finally {
    await lite.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { postgres, pglite }
}
