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
  const pool = new pg.Pool({ connectionString: options.targetUrl, max: 1 })
  try {
    const client = await pool.connect()
    try {
      // Empty: no tables, or only the schema that an earlier, failed copy migrated.
      const tables = await client.query<{ name: string }>(
        `select tablename as name from pg_tables where schemaname = 'public'`,
      )
      for (const { name } of tables.rows) {
        const rows = await client.query(`select 1 from ${quote(name)} limit 1`)
        if (rows.rowCount) {
          throw new Error(
            `The target database is not empty (${name} has rows). Give the URL of a new, empty database.`,
          )
        }
      }
    } finally {
      client.release()
    }
  } finally {
    await pool.end()
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
      for (let offset = 0; offset < expected.rows; offset += batch) {
        const json = await rowsOf(source.db, table, offset, batch)
        await client.query(
          `insert into ${quote(table)} select * from json_populate_recordset(null::${quote(table)}, $1::json)`,
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
