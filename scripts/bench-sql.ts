// The search SQL exactly as the patients service builds it, captured through a logging
// Drizzle instance over the same client, then timed and EXPLAINed under the tenant.
import type { PGlite } from '@electric-sql/pglite'
import { type Logger, type SQL, sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import type pg from 'pg'
import { type AppDb, type Database, schema } from '../src/server/db/client'
import { type TenantContext, withTenant } from '../src/server/db/tenant'
import { listPatients } from '../src/server/modules/patients/patients.service'

export interface CapturedQuery {
  text: string
  params: unknown[]
}

type Row = Record<string, unknown>

async function rowsOf(
  tx: { execute: (q: SQL) => PromiseLike<unknown> },
  query: SQL,
): Promise<Row[]> {
  const result = (await tx.execute(query)) as { rows: Row[] }
  return result.rows
}

/** Runs listPatients once through a logging Drizzle and returns its SELECT on patients. */
export async function captureSearchSql(
  database: Database,
  ctx: TenantContext,
  search: string,
): Promise<CapturedQuery> {
  const seen: CapturedQuery[] = []
  const logger: Logger = { logQuery: (text, params) => seen.push({ text, params }) }
  const client = (database.db as unknown as { $client: unknown }).$client
  const db = (database.driver === 'postgres'
    ? drizzlePg(client as pg.Pool, { schema, logger })
    : drizzlePglite(client as PGlite, { schema, logger })) as unknown as AppDb
  await listPatients({ db, hospitalId: ctx.hospitalId, userId: ctx.userId ?? '', search })
  const found = seen.find((q) => /from "patients"/i.test(q.text) && /like/i.test(q.text))
  if (!found) throw new Error('bench: search SQL not captured')
  return found
}

/** The captured text with its $n placeholders bound again as Drizzle parameters. */
export function bind({ text, params }: CapturedQuery): SQL {
  const chunks: SQL[] = []
  let last = 0
  for (const m of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, m.index)), sql`${params[Number(m[1]) - 1]}`)
    last = m.index + m[0].length
  }
  chunks.push(sql.raw(text.slice(last)))
  return sql.join(chunks)
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

/** Latencies (ms) of the search run sequentially inside withTenant, as the app runs it. */
export async function timeDirect(
  db: AppDb,
  ctx: TenantContext,
  query: SQL,
  runs: number,
): Promise<{ p50: number; p99: number }> {
  const times: number[] = []
  for (let i = 0; i < runs + 10; i++) {
    const t0 = performance.now()
    await withTenant(db, ctx, (tx) => rowsOf(tx, query))
    if (i >= 10) times.push(performance.now() - t0) // first 10 warm up
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}

export interface Explained {
  plan: string[]
  trigramIndexes: string[]
  matches: number
}

/** EXPLAIN (ANALYZE, BUFFERS) under the tenant, plus how many rows the search matches. */
export async function explainSearch(
  db: AppDb,
  ctx: TenantContext,
  captured: CapturedQuery,
): Promise<Explained> {
  const query = bind(captured)
  const plan = await withTenant(db, ctx, (tx) =>
    rowsOf(tx, sql`explain (analyze, buffers) ${query}`),
  )
  const lines = plan.map((r) => String(r['QUERY PLAN']))
  // The page size is the last parameter (LIMIT $n); lift it to count every match.
  const last = captured.params.length - 1
  if (typeof captured.params[last] !== 'number')
    throw new Error('bench: LIMIT is not the last parameter')
  const unlimited = bind({
    ...captured,
    params: captured.params.map((p, i) => (i === last ? 1e9 : p)),
  })
  const [count] = await withTenant(db, ctx, (tx) =>
    rowsOf(tx, sql`select count(*)::int as n from (${unlimited}) q`),
  )
  const trigramIndexes = [...new Set(lines.join('\n').match(/patients_\w+_trgm_idx/g) ?? [])]
  return { plan: lines, trigramIndexes, matches: Number(count?.n ?? 0) }
}

/**
 * Under RLS the planner may use a user condition as an index condition only when its
 * functions are LEAKPROOF; ILIKE and LIKE (texticlike, textlike) are not by default.
 */
export async function likeLeakproof(db: AppDb): Promise<string> {
  const rows = await rowsOf(
    db,
    sql`select proname, proleakproof from pg_proc where proname in ('texticlike', 'textlike') order by 1`,
  )
  return rows
    .map((r) => `${String(r.proname)} ${r.proleakproof === true ? 'LEAKPROOF' : 'not leakproof'}`)
    .join(', ')
}
