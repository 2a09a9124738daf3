import { type SQL, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'

/**
 * The tables a hospital owns, read from the catalog so that a table added later is exported
 * (and erased) without touching this module: every table with a hospital_id column under
 * forced row-level security that the request role (app_user) may read, except the platform
 * tables that only route or queue work for the hospital.
 */
export const NOT_EXPORTED = new Set([
  // Platform tables with a hospital column (tests/integration/tenancy.api.test.ts allowlist).
  'jobs',
  'meta_pages',
  'messaging_routes',
  'onboarding_tasks',
])

/**
 * Columns never written to an export: stored credentials and one-time codes (encrypted or
 * hashed, still not the hospital's data to carry around). Generated search columns and the
 * hospital id (the same on every row) are left out too.
 */
const SECRET_COLUMN = /(_enc|_hash|_sha256)$|^secrets$|token/

export interface ExportColumn {
  name: string
  /** format_type() of the column, e.g. `uuid`, `timestamp with time zone`. */
  type: string
}

export interface ExportTable {
  name: string
  columns: ExportColumn[]
  /** Primary-key columns in key order: the keyset the export pages by. */
  key: ExportColumn[]
}

interface CatalogRow {
  table: string
  column: string
  type: string
  generated: string
  key_position: number | null
}

async function rows<T>(tx: Tx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
}

/** The hospital's tables, by name, with their exported columns and keys. */
export async function exportTables(tx: Tx): Promise<ExportTable[]> {
  const found = await rows<CatalogRow>(
    tx,
    sql`select c.relname as "table", a.attname as "column",
               format_type(a.atttypid, a.atttypmod) as "type", a.attgenerated::text as generated,
               array_position(i.indkey::int2[], a.attnum) as key_position
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_index i on i.indrelid = c.oid and i.indisprimary
        where c.relkind in ('r', 'p') and c.relforcerowsecurity
          and has_table_privilege('app_user', c.oid, 'SELECT')
          and exists (select 1 from pg_attribute h where h.attrelid = c.oid
                      and h.attname = 'hospital_id' and not h.attisdropped)
        order by c.relname, a.attnum`,
  )
  const tables = new Map<string, ExportTable & { keyAt: Map<number, ExportColumn> }>()
  for (const r of found) {
    if (NOT_EXPORTED.has(r.table)) continue
    let table = tables.get(r.table)
    if (!table) {
      table = { name: r.table, columns: [], key: [], keyAt: new Map() }
      tables.set(r.table, table)
    }
    const column = { name: r.column, type: r.type }
    if (r.key_position !== null) table.keyAt.set(Number(r.key_position), column)
    const exported =
      r.generated === '' && r.column !== 'hospital_id' && !SECRET_COLUMN.test(r.column)
    if (exported) table.columns.push(column)
  }
  return [...tables.values()]
    .map(({ keyAt, ...t }) => ({
      ...t,
      key: [...keyAt.entries()].sort((x, y) => x[0] - y[0]).map(([, c]) => c),
    }))
    .filter((t) => t.key.length > 0 && t.columns.length > 0)
}

/** Rows of each table (in the caller's tenant transaction: this hospital's rows only). */
export async function countRows(tx: Tx, tables: readonly ExportTable[]): Promise<number[]> {
  if (!tables.length) return []
  const counts = sql.join(
    tables.map((t) => sql`(select count(*) from ${sql.identifier(t.name)})::int`),
    sql`, `,
  )
  const [row] = await rows<{ counts: number[] }>(tx, sql`select array[${counts}] as counts`)
  return (row?.counts ?? []).map(Number)
}

/** A value as text: ISO timestamps, JSON for arrays and objects, exact numbers; null stays. */
const asText = (column: string) => sql`to_jsonb(t.${sql.identifier(column)}) #>> '{}'`

export interface Page {
  /** Each row's exported columns as text (null for SQL NULL), in the table's column order. */
  values: (string | null)[][]
  /** The last row's key as text, for the next page (null when the page is empty). */
  last: string[] | null
}

/**
 * One page of a table in key order after `after` (keyset pagination: every page is an index
 * range scan however deep the export is). Runs in the caller's tenant transaction.
 */
export async function readPage(
  tx: Tx,
  table: ExportTable,
  after: readonly string[] | null,
  limit: number,
): Promise<Page> {
  const all = [...table.columns, ...table.key]
  const selected = sql.join(
    all.map((c, i) => sql`${asText(c.name)} as ${sql.identifier(`c${i}`)}`),
    sql`, `,
  )
  const keyCols = sql.join(
    table.key.map((c) => sql`t.${sql.identifier(c.name)}`),
    sql`, `,
  )
  const where = after
    ? sql`where (${keyCols}) > (${sql.join(
        // Untyped parameters: PostgreSQL reads each as its key column's type.
        table.key.map((_, i) => sql`${after[i] ?? null}`),
        sql`, `,
      )})`
    : sql``
  // The page's rows are picked first, then converted: when the planner sorts (stale statistics)
  // rather than walking the key's index, only the page's rows pay for the text conversion.
  const result = await tx.execute(
    sql`select ${selected} from (select * from ${sql.identifier(table.name)} t ${where}
          order by ${keyCols} limit ${limit}) t order by ${keyCols}`,
  )
  const list = (result as unknown as { rows: Record<string, string | null>[] }).rows
  const values = list.map((r) => all.map((_, i) => r[`c${i}`] ?? null))
  const width = table.columns.length
  const lastRow = values.at(-1)
  return {
    values: values.map((v) => v.slice(0, width)),
    last: lastRow ? lastRow.slice(width).map((v) => v ?? '') : null,
  }
}
