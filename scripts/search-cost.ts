// Patient search cost on PostgreSQL (docs/decisions/011): direct SQL, 10 concurrent clients.
//
//   npx tsx scripts/search-cost.ts seed      # (re)creates the database, migrations, 100,000 patients
//   npx tsx scripts/search-cost.ts measure   # p50/p99 per case, and each case's plan
//
// SEARCH_COST_URL names the scratch database (dropped and created again by `seed`),
// SEARCH_COST_PATIENTS the benched hospital's size, SEARCH_COST_ROUNDS the queries per client,
// SEARCH_COST_CASES=phone only the phone cases (issue 26's substring search), or any text a
// case's name contains.
// The SQL is what listPatients issues, captured through a logging Drizzle, then replayed
// inside the same tenant transaction withTenant opens (role app_user, app.hospital_id).
// For "before" figures, run this file from an export of an older commit
// (`git archive <commit> | tar -x -C /tmp/before`, node_modules linked) on its own database.
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import type { Logger } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import type { AppDb } from '../src/server/db/client'
import { hospitals } from '../src/server/db/schema/hospitals'
import { patients } from '../src/server/db/schema/patients'
import { createRng, generatePatients } from '../src/server/db/seed/patients'
import { listPatients } from '../src/server/modules/patients/patients.service'

const url = process.env.SEARCH_COST_URL ?? 'postgres://postgres@127.0.0.1:5432/arogya_search_cost'
const size = Number(process.env.SEARCH_COST_PATIENTS ?? 100_000)
const rounds = Number(process.env.SEARCH_COST_ROUNDS ?? 200)
const CLIENTS = 10
const RARE = 'Vaidyanathan'

async function adminQuery(text: string): Promise<void> {
  const server = new URL(url)
  server.pathname = '/postgres'
  const client = new pg.Client({ connectionString: server.toString() })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

async function applyMigrations(client: pg.Pool): Promise<void> {
  const folder = join(import.meta.dirname, '..', 'drizzle')
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[]
  }
  for (const { tag } of journal.entries) {
    const text = readFileSync(join(folder, `${tag}.sql`), 'utf8')
    await client.query('begin')
    for (const statement of text.split('--> statement-breakpoint')) await client.query(statement)
    await client.query('commit')
  }
}

async function seed(): Promise<void> {
  const name = new URL(url).pathname.slice(1)
  await adminQuery(`drop database if exists ${name} with (force)`)
  await adminQuery(`create database ${name}`)
  const pool = new pg.Pool({ connectionString: url, max: 1 })
  await applyMigrations(pool)
  const db = drizzle(pool) as unknown as AppDb
  const others = ['Lotus Eye Care, Nashik', 'Cauvery Diagnostics, Mysuru', 'Shivneri, Junnar']
  const ids: string[] = []
  for (const [i, hospital] of ['Sanjeevani Hospital, Pune', ...others].entries()) {
    const [row] = await db
      .insert(hospitals)
      .values({
        name: hospital,
        email: `desk${i}@search-cost.bench`,
        hospitalType: 'clinic',
        plan: 'professional',
        subscriptionStatus: 'active',
      })
      .returning({ id: hospitals.id })
    if (row) ids.push(row.id)
  }
  const start = Date.UTC(2024, 0, 1)
  for (const [i, id] of ids.entries()) {
    const count = i === 0 ? size : 5_000
    const rows = generatePatients(id, count, createRng(7001 + i), 'pune').map((r, n) => ({
      ...r,
      // Added over two years, newest last; a few rare surnames spread through the list.
      name: n % 20_000 === 7 ? `${r.name.split(' ')[0] ?? 'Asha'} ${RARE}` : r.name,
      createdAt: new Date(start + Math.floor((n * 2 * 365 * 86_400_000) / count)),
    }))
    for (let n = 0; n < rows.length; n += 1000)
      await db.insert(patients).values(rows.slice(n, n + 1000))
  }
  await pool.query('vacuum analyze')
  console.log(`seeded ${size} patients (+${5_000 * others.length} elsewhere) into ${url}`)
  await pool.end()
}

interface Case {
  name: string
  options: Record<string, unknown>
}

const cases: Case[] = [
  { name: 'list, first page', options: {} },
  { name: 'list, first page, with count', options: { count: true } },
  { name: 'list by name, first page', options: { sort: 'name' } },
  { name: "search 'sharma'", options: { search: 'sharma' } },
  { name: "search 'sharma', with count", options: { search: 'sharma', count: true } },
  { name: `search '${RARE.toLowerCase()}'`, options: { search: RARE.toLowerCase() } },
  { name: "search 'sharma' by name", options: { search: 'sharma', sort: 'name' } },
  { name: "search 'sharma', page 2", options: { search: 'sharma', page: 2 } },
  { name: "search 'priya' (a first name)", options: { search: 'priya' } },
  { name: "search 'sh' (typing)", options: { search: 'sh' } },
  { name: "search phone '98765'", options: { search: '98765' } },
]

/**
 * Issue 26's phone-substring cases, from the benched hospital's own phones: its commonest
 * 4-digit run that is not the start of a number (about 1% of the hospital: the hardest size,
 * where walking the list and fetching the matches cost about the same), the last 4 digits of
 * one patient's mobile (what a front desk types), and a 3-digit run while typing.
 */
async function phoneCases(pool: pg.Pool, hospitalId: string): Promise<Case[]> {
  const common = await pool.query<{ run: string; n: string }>(
    `select run, count(distinct id) as n
       from (select id, substr(regexp_replace(phone, '\\D', '', 'g'), i, 4) as run
               from patients, generate_series(2, 9) as i where hospital_id = $1) runs
      where length(run) = 4 group by run order by n desc, run limit 1`,
    [hospitalId],
  )
  const last = await pool.query<{ run: string }>(
    `select right(phone, 4) as run from patients where hospital_id = $1
      order by created_at, id limit 1`,
    [hospitalId],
  )
  const run = common.rows[0]?.run ?? '1942'
  const lastFour = last.rows[0]?.run ?? '3210'
  return [
    { name: `search phone run '${run}' (common)`, options: { search: run } },
    { name: `search phone last 4 '${lastFour}'`, options: { search: lastFour } },
    { name: `search phone '${run.slice(0, 3)}' (typing)`, options: { search: run.slice(0, 3) } },
  ]
}

type Captured = { text: string; params: unknown[] }[]

async function capture(
  pool: pg.Pool,
  hospitalId: string,
  { page, ...options }: Record<string, unknown>,
): Promise<Captured> {
  const seen: Captured = []
  const logger: Logger = { logQuery: (text, params) => seen.push({ text, params }) }
  const db = drizzle(pool, { logger }) as unknown as AppDb
  const list = (cursor?: string) =>
    listPatients({ db, hospitalId, userId: 'bench', limit: 30, cursor, ...options })
  // Page 2: the cursor is the first page's last patient.
  const first = await list()
  if (page === 2) {
    seen.length = 0
    await list(first.nextCursor ?? undefined)
  }
  return seen.filter((q) => /"patients"/.test(q.text))
}

async function tenantTx<T>(
  client: pg.PoolClient,
  hospitalId: string,
  fn: () => Promise<T>,
): Promise<T> {
  await client.query('begin')
  await client.query(
    `select set_config('role', 'app_user', true), set_config('app.hospital_id', $1, true)`,
    [hospitalId],
  )
  try {
    return await fn()
  } finally {
    await client.query('commit')
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

/** Each of CLIENTS connections runs the statements `rounds` times, one transaction each. */
async function time(pool: pg.Pool, hospitalId: string, statements: Captured) {
  const times: number[] = []
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = await pool.connect()
      try {
        for (let i = 0; i < rounds + 5; i++) {
          await tenantTx(client, hospitalId, async () => {
            const t0 = performance.now()
            for (const s of statements) await client.query(s.text, s.params)
            if (i >= 5) times.push(performance.now() - t0)
          })
        }
      } finally {
        client.release()
      }
    }),
  )
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}

async function measure(): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: CLIENTS })
  const main = await pool.query<{ id: string }>(
    `select id from hospitals where email = 'desk0@search-cost.bench'`,
  )
  const hospitalId = main.rows[0]?.id
  if (!hospitalId) throw new Error('run `seed` first')
  const policy = await pool.query<{ qual: string }>(
    `select qual from pg_policies where tablename = 'patients'`,
  )
  console.log(`# ${cpus().length} cpus, ${CLIENTS} clients x ${rounds} rounds, ${url}`)
  console.log(`# patients policy: ${policy.rows[0]?.qual ?? '?'}`)
  const plans: string[] = []
  const only = process.env.SEARCH_COST_CASES
  const all = [...cases, ...(await phoneCases(pool, hospitalId))].filter(
    (c) => !only || (only === 'phone' ? c.name.includes('phone') : c.name.includes(only)),
  )
  for (const c of all) {
    const statements = await capture(pool, hospitalId, c.options)
    const client = await pool.connect()
    try {
      for (const s of statements) {
        const plan = await tenantTx(client, hospitalId, () =>
          client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${s.text}`, s.params),
        )
        plans.push(`## ${c.name}\n${s.text}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`)
      }
      const rows = await tenantTx(client, hospitalId, () =>
        client.query(statements[0]?.text ?? 'select 1', statements[0]?.params),
      )
      const { p50, p99 } = await time(pool, hospitalId, statements)
      console.log(
        `${c.name.padEnd(34)} p50 ${p50.toFixed(2).padStart(7)} ms  p99 ${p99.toFixed(2).padStart(7)} ms  ` +
          `(${statements.length} statement(s), ${rows.rowCount} rows)`,
      )
    } finally {
      client.release()
    }
  }
  if (process.env.SEARCH_COST_PLANS) console.log(`\n${plans.join('\n\n')}`)
  await pool.end()
}

const command = process.argv[2]
if (command === 'seed') await seed()
else if (command === 'measure') await measure()
else console.error('usage: tsx scripts/search-cost.ts seed|measure')
