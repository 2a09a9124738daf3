// npm run bench: patient search under load on PGlite and on PostgreSQL.
// Seeds 50,000 patients in one hospital (5,000 in each of four others), signs in over
// HTTP and drives GET /api/patients?search=... with autocannon; prints req/s, p50, p99,
// the same SQL timed directly inside withTenant, and its EXPLAIN (ANALYZE) plan as run
// under the tenant. Scratch databases only: PGlite in memory, and a fresh PostgreSQL
// database (BENCH_DATABASE_URL's server) that is dropped at the end.
import { randomBytes } from 'node:crypto'
import { buildApp } from '../src/server/app'
import { type Database, type DatabaseOptions, openDatabase } from '../src/server/db/client'
import type { TenantContext } from '../src/server/db/tenant'
import {
  freePort,
  load as loadOnce,
  type Load,
  machine,
  redact,
  scratchDatabase,
  serverVersion,
  signIn,
  trackInFlight,
} from './bench-env'
import { BENCH_LOGIN, BENCH_PASSWORD, MAIN_PATIENTS, OTHER_PATIENTS, seedBench } from './bench-seed'
import {
  bind,
  captureSearchSql,
  explainSearch,
  type Explained,
  likeLeakproof,
  timeDirect,
} from './bench-sql'

const SEARCHES = [
  { kind: 'surname', term: 'sharma' },
  { kind: 'first name', term: 'priya' },
  { kind: 'email fragment', term: 'meera.nair' },
  { kind: 'phone fragment', term: '98765' },
] as const
const MAIN = SEARCHES[0]
const CONNECTIONS = 10
const SECONDS = 10
const BRIEF_SECONDS = 3
const DIRECT_RUNS = 200
const P99_TARGET_MS = 50
// Scripts are not the app, so this one reads its own variable (the app reads env in src/server/env.ts).
const SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
const SCRATCH_DB = 'arogya_bench'

interface Summary {
  driver: string
  main: Load
  directP50: number
  trigram: string[]
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`
const pad = (s: string, n: number) => s.padEnd(n)
const execTime = (e: Explained) =>
  e.plan.find((l) => l.startsWith('Execution Time'))?.replace(/^Execution Time: /, '') ?? '?'
const searchPath = (term: string) => `/api/patients?search=${encodeURIComponent(term)}`

async function benchDriver(driver: string, options: DatabaseOptions): Promise<Summary> {
  const started = performance.now()
  const database = await openDatabase(options)
  try {
    return await benchApp(driver, database, started)
  } finally {
    await database.close()
  }
}

async function benchApp(driver: string, database: Database, started: number): Promise<Summary> {
  const baseUrl = `http://127.0.0.1:${await freePort()}`
  const { app, auth } = await buildApp({
    database,
    baseURL: baseUrl,
    authSecret: randomBytes(32).toString('hex'),
    authRateLimit: false,
    logLevel: 'silent',
    signInThrottle: { ipCeiling: 1_000_000, accountCeiling: 1_000_000 },
  })
  const drain = trackInFlight(app)
  const load = async (url: string, cookie: string, connections: number, seconds: number) => {
    const result = await loadOnce(url, cookie, connections, seconds)
    await drain() // requests cut off at the end of a run finish before the next one starts
    return result
  }
  try {
    const hospitalId = await seedBench(database.db, auth)
    const total = MAIN_PATIENTS + 4 * OTHER_PATIENTS
    console.log(
      `  seeded ${total.toLocaleString('en-IN')} patients (${MAIN_PATIENTS.toLocaleString('en-IN')} in the benched hospital) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )

    await app.listen({ host: '127.0.0.1', port: Number(new URL(baseUrl).port) })
    const cookie = await signIn(baseUrl, BENCH_LOGIN, BENCH_PASSWORD)
    const check = await fetch(baseUrl + searchPath(MAIN.term), { headers: { cookie } })
    if (!check.ok) throw new Error(`bench: GET ${searchPath(MAIN.term)} answered ${check.status}`)
    console.log(
      `  signed in as ${BENCH_LOGIN}; GET ${searchPath(MAIN.term)} -> ${check.status}, ${((await check.json()) as unknown[]).length} rows on page 1`,
    )

    // The SQL the service runs, EXPLAINed as app_user with app.hospital_id set (withTenant).
    const ctx: TenantContext = { hospitalId, userId: null }
    const plans = []
    for (const s of SEARCHES) {
      const captured = await captureSearchSql(database, ctx, s.term)
      plans.push({ ...s, captured, explained: await explainSearch(database.db, ctx, captured) })
    }
    const mainPlan = plans[0]!
    console.log(
      `\n  Search SQL (from listPatients), params ${JSON.stringify(mainPlan.captured.params)}:`,
    )
    console.log(`    ${mainPlan.captured.text}`)
    console.log(
      `\n  EXPLAIN (ANALYZE, BUFFERS) for '${MAIN.term}' under the tenant (set local role app_user; app.hospital_id):`,
    )
    for (const line of mainPlan.explained.plan) console.log(`    ${line}`)
    console.log(
      `\n  ${pad('search', 28)}${pad('matches', 9)}${pad('SQL execution', 15)}trigram index (patients_*_trgm_idx)`,
    )
    for (const p of plans) {
      const used = p.explained.trigramIndexes.join(', ') || 'NOT USED'
      console.log(
        `  ${pad(`${p.kind} '${p.term}'`, 28)}${pad(String(p.explained.matches), 9)}${pad(execTime(p.explained), 15)}${used}`,
      )
    }
    console.log(
      `  (ILIKE/LIKE functions here: ${await likeLeakproof(database.db)}; under RLS only LEAKPROOF conditions can become index conditions)`,
    )

    const direct = await timeDirect(database.db, ctx, bind(mainPlan.captured), DIRECT_RUNS)
    console.log(
      `\n  Direct SQL '${MAIN.term}' in withTenant (begin, set role, set_config, select, commit), ${DIRECT_RUNS} sequential runs: p50 ${ms(direct.p50)}, p99 ${ms(direct.p99)}`,
    )

    const single = await load(baseUrl + searchPath(MAIN.term), cookie, 1, BRIEF_SECONDS)
    console.log(
      `  HTTP '${MAIN.term}', 1 connection, ${BRIEF_SECONDS} s:   ${single.rps.toFixed(0)} req/s, p50 ${ms(single.p50)}, p99 ${ms(single.p99)}`,
    )
    const main = await load(baseUrl + searchPath(MAIN.term), cookie, CONNECTIONS, SECONDS)
    console.log(
      `  HTTP '${MAIN.term}', ${CONNECTIONS} connections, ${SECONDS} s: ${main.rps.toFixed(0)} req/s, p50 ${ms(main.p50)}, p99 ${ms(main.p99)} (${main.requests} requests)`,
    )
    console.log(
      `  Ratio HTTP p50 / direct SQL p50: ${(main.p50 / direct.p50).toFixed(1)}x at ${CONNECTIONS} connections, ${(single.p50 / direct.p50).toFixed(1)}x at 1 connection`,
    )
    for (const s of SEARCHES.slice(1)) {
      const r = await load(baseUrl + searchPath(s.term), cookie, CONNECTIONS, BRIEF_SECONDS)
      console.log(
        `    ${pad(`${s.kind} '${s.term}'`, 28)}${CONNECTIONS} conn, ${BRIEF_SECONDS} s: ${r.rps.toFixed(0).padStart(5)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`,
      )
    }
    return { driver, main, directP50: direct.p50, trigram: mainPlan.explained.trigramIndexes }
  } finally {
    await drain()
    await app.close()
  }
}

async function main(): Promise<void> {
  console.log('Arogya CRM patient search benchmark')
  for (const line of machine()) console.log(`  ${line}`)
  const summaries: Summary[] = []

  console.log('\n== PGlite (in memory, one connection: requests queue behind each other) ==')
  summaries.push(await benchDriver('PGlite', {}))

  console.log(`\n== PostgreSQL (${redact(SERVER_URL)} -> fresh database ${SCRATCH_DB}) ==`)
  const scratch = await scratchDatabase(SERVER_URL, SCRATCH_DB)
  if (!scratch) {
    console.log('  skipped: no PostgreSQL server answered (set BENCH_DATABASE_URL to bench one)')
  } else {
    try {
      const server = await serverVersion(scratch.url)
      console.log(`  ${server}`)
      summaries.push(await benchDriver('PostgreSQL', { databaseUrl: scratch.url }))
    } finally {
      await scratch.drop()
      console.log(`  dropped database ${SCRATCH_DB}`)
    }
  }

  console.log(
    `\n== Summary: GET ${searchPath(MAIN.term)}, ${CONNECTIONS} connections, ${SECONDS} s ==`,
  )
  for (const s of summaries) {
    const target =
      s.driver === 'PostgreSQL'
        ? ` | p99 target <= ${P99_TARGET_MS} ms: ${s.main.p99 <= P99_TARGET_MS ? 'MET' : 'MISSED'}`
        : ''
    console.log(
      `  ${pad(s.driver, 11)} ${s.main.rps.toFixed(0).padStart(5)} req/s | p50 ${ms(s.main.p50)} | p99 ${ms(s.main.p99)} | HTTP p50 / SQL ${(s.main.p50 / s.directP50).toFixed(1)}x | trigram index: ${s.trigram.join(', ') || 'NOT USED'}${target}`,
    )
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
