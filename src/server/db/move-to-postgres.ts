import { sql } from 'drizzle-orm'
import pg from 'pg'
import type { AppDb } from './client'
import { openDatabase } from './client'

/**
 * Copies an embedded (PGlite) database into an empty PostgreSQL database: the schema by the
 * same migrations, then every row of every table in foreign-key order, in ONE transaction on
 * the target, so a copy that fails or is killed leaves the target as empty as it was. Row
 * counts and checksums of every table are compared before the transaction commits.
 */

export interface TableReport {
  table: string
  rows: number
  checksum: string
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** Tables of the public schema, parents before children. */
async function tablesInOrder(client: pg.PoolClient): Promise<string[]> {
  const tables = (
    await client.query<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).rows.map((r) => r.name)
  const edges = (
    await client.query<{ child: string; parent: string }>(
      `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
       where c.contype = 'f' and n.nspname = 'public'`,
    )
  ).rows
  const ordered: string[] = []
  const remaining = new Set(tables)
  while (remaining.size) {
    const ready = [...remaining].filter((t) =>
      edges.every((e) => e.child !== t || e.parent === t || !remaining.has(e.parent)),
    )
    if (!ready.length) throw new Error(`foreign keys form a cycle among: ${[...remaining]}`)
    for (const t of ready) {
      ordered.push(t)
      remaining.delete(t)
    }
  }
  return ordered
}

/** A table's columns that take values (generated columns compute their own), quoted. */
async function storedColumns(client: pg.PoolClient, table: string): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    `select quote_ident(attname) as name from pg_attribute
     where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
     order by attnum`,
    [quote(table)],
  )
  return result.rows.map((r) => r.name)
}

/** Count and an order-independent checksum of a table's rows as text, in UTC (same SQL below). */
const checksumQuery = (table: string) =>
  `select count(*)::int as rows, coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as checksum from ${quote(table)} t`

async function rowsOf(source: AppDb, table: string, offset: number, limit: number) {
  const result = (await source.execute(
    sql`select coalesce(json_agg(t), '[]'::json)::text as rows from (select * from ${sql.identifier(table)} order by 1, 2 limit ${limit} offset ${offset}) t`,
  )) as unknown as { rows: { rows: string }[] }
  return result.rows[0]?.rows ?? '[]'
}

async function sourceChecksum(source: AppDb, table: string) {
  const result = (await source.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`)
    return tx.execute(
      sql`select count(*)::int as rows, coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as checksum from ${sql.identifier(table)} t`,
    )
  })) as unknown as { rows: { rows: number; checksum: string }[] }
  return result.rows[0] ?? { rows: -1, checksum: '' }
}

/** The target already holds exactly the source's rows: nothing to do. */
export class AlreadyCopiedError extends Error {}

/** A public table of the target that has rows (empty: none, or only a migrated schema). */
async function firstTableWithRows(targetUrl: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: targetUrl })
  await client.connect()
  try {
    const tables = await client.query<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    )
    for (const { name } of tables.rows) {
      if ((await client.query(`select 1 from ${quote(name)} limit 1`)).rowCount) return name
    }
    return undefined
  } finally {
    await client.end()
  }
}

/** Every table of the target has the source's row count and checksum, and no table more. */
async function holdsCopyOf(dataDir: string | undefined, targetUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: targetUrl })
  await client.connect()
  const source = await openDatabase({ dataDir })
  try {
    const sourceTables = (
      (await source.db.execute(
        sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
      )) as unknown as { rows: { name: string }[] }
    ).rows.map((r) => r.name)
    const targetTables = (
      await client.query<{ name: string }>(
        `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
      )
    ).rows.map((r) => r.name)
    if (sourceTables.join() !== targetTables.join()) return false
    await client.query('begin')
    await client.query(`set local timezone = 'UTC'`)
    for (const table of targetTables) {
      const expected = await sourceChecksum(source.db, table)
      const copied = (await client.query<{ rows: number; checksum: string }>(checksumQuery(table)))
        .rows[0]
      if (copied?.rows !== expected.rows || copied.checksum !== expected.checksum) return false
    }
    return true
  } finally {
    await client.query('rollback').catch(() => undefined)
    await client.end()
    await source.close()
  }
}

export async function moveToPostgres(options: {
  dataDir: string | undefined
  targetUrl: string
  batchSize?: number
  log?: (line: string) => void
  /** Called after each table is copied and checked (tests use it to fail part-way). */
  afterTable?: (table: string) => void
}): Promise<TableReport[]> {
  const log = options.log ?? (() => undefined)
  const batch = options.batchSize ?? 1000
  const full = await firstTableWithRows(options.targetUrl)
  if (full) {
    // A run killed after its COMMIT but before it reported: say that it is done, not
    // "not empty", so nobody drops a complete copy to run it again.
    if (await holdsCopyOf(options.dataDir, options.targetUrl)) {
      throw new AlreadyCopiedError(
        `The target database already holds a complete copy of this embedded database: every table's row count and checksum matches (an earlier run finished).`,
      )
    }
    throw new Error(
      `The target database is not empty (${full} has rows). Give the URL of a new, empty database.`,
    )
  }

  // The schema, by the same migrations the app runs.
  const target = await openDatabase({ databaseUrl: options.targetUrl })
  await target.close()
  const source = await openDatabase({ dataDir: options.dataDir })
  const targetPool = new pg.Pool({ connectionString: options.targetUrl, max: 1 })
  const client = await targetPool.connect()
  try {
    await client.query('begin')
    await client.query(`set local timezone = 'UTC'`)
    // Rows go in as they are: no triggers (patient numbers are copied, not allocated again).
    await client.query(`set local session_replication_role = replica`)
    const reports: TableReport[] = []
    for (const table of await tablesInOrder(client)) {
      const expected = await sourceChecksum(source.db, table)
      const columns = (await storedColumns(client, table)).join(', ')
      for (let offset = 0; offset < expected.rows; offset += batch) {
        const json = await rowsOf(source.db, table, offset, batch)
        await client.query(
          `insert into ${quote(table)} (${columns}) select ${columns} from json_populate_recordset(null::${quote(table)}, $1::json)`,
          [json],
        )
      }
      const copied = (await client.query<{ rows: number; checksum: string }>(checksumQuery(table)))
        .rows[0]
      if (copied?.rows !== expected.rows || copied.checksum !== expected.checksum) {
        throw new Error(
          `${table}: copied ${copied?.rows} rows (checksum ${copied?.checksum}), expected ${expected.rows} (${expected.checksum})`,
        )
      }
      reports.push({ table, rows: expected.rows, checksum: expected.checksum })
      options.afterTable?.(table)
      log(`${table.padEnd(28)} ${String(expected.rows).padStart(8)} rows  ${expected.checksum}`)
    }
    await client.query('commit')
    return reports
  } catch (error) {
    await client.query('rollback').catch(() => undefined)
    throw error
  } finally {
    client.release()
    await targetPool.end()
    await source.close()
  }
}
