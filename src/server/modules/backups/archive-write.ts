import { sql } from 'drizzle-orm'
import type { BackupDataType } from '../../../shared/schemas/backup'
import type { Tx } from '../../db/client'
import { countRows, type ExportTable } from '../data-export/export-tables'
import { ZipFileWriter } from '../data-export/zip-writer'
import {
  BACKUP_FORMAT,
  type BackupManifest,
  currentTables,
  type ManifestTable,
  type RunInTenant,
  schemaVersion,
  tablesFor,
  utc,
} from './backup-archive'

// Writing a backup archive (docs/decisions/039-backups.md): the hospital's rows, paged by key.

const PAGE_ROWS = 5000

/**
 * One page of `table` after `after`, each row already as its NDJSON line (a JSON array of the
 * same text values readPage gives, built by PostgreSQL: one column per row to decode instead
 * of one per value), with the last row's key for the next page.
 */
async function readLines(
  tx: Tx,
  table: ExportTable,
  after: readonly string[] | null,
  limit: number,
): Promise<{ lines: string[]; last: string[] | null }> {
  const asText = (c: string) => sql`to_jsonb(t.${sql.identifier(c)}) #>> '{}'`
  const row = sql.join(
    table.columns.map((c) => asText(c.name)),
    sql`, `,
  )
  const key = sql.join(
    table.key.map((c) => asText(c.name)),
    sql`, `,
  )
  const keyCols = sql.join(
    table.key.map((c) => sql`t.${sql.identifier(c.name)}`),
    sql`, `,
  )
  const where = after
    ? sql`where (${keyCols}) > (${sql.join(
        table.key.map((_, i) => sql`${after[i] ?? null}`),
        sql`, `,
      )})`
    : sql``
  // The page is chosen first (by key, the index's order) and only its rows are turned into
  // JSON: with the conversion in the same SELECT, PostgreSQL built every remaining row's line
  // before its top-N sort, so each page cost more than the last.
  const result = await tx.execute(
    sql`select json_build_array(${row})::text as line, json_build_array(${key})::text as key
        from (select * from ${sql.identifier(table.name)} t ${where}
              order by ${keyCols} limit ${limit}) t
        order by ${keyCols}`,
  )
  const list = (result as unknown as { rows: { line: string; key: string }[] }).rows
  const lastRow = list.at(-1)
  return {
    lines: list.map((r) => r.line),
    last: lastRow ? (JSON.parse(lastRow.key) as (string | null)[]).map((v) => v ?? '') : null,
  }
}

/**
 * Writes the hospital's rows of `dataTypes` to a zip at `path`: one NDJSON file per table (a
 * header line of column names, then one JSON array of text values per row, paged by key), and
 * manifest.json last. Memory holds one page.
 */
export async function writeBackupArchive(opts: {
  run: RunInTenant
  hospital: { id: string; name: string }
  dataTypes: BackupDataType[]
  path: string
  progress: (done: number, total: number) => Promise<void>
  signal?: AbortSignal
}): Promise<BackupManifest> {
  const names = tablesFor(opts.dataTypes)
  const tables = await opts.run((tx) => currentTables(tx, names))
  const counts = await opts.run((tx) => countRows(tx, tables))
  const total = counts.reduce((a, b) => a + b, 0)
  let done = 0
  await opts.progress(0, total)
  const zip = new ZipFileWriter(opts.path)
  const written: ManifestTable[] = []
  try {
    for (const table of tables) {
      const file = `${table.name}.ndjson`
      const entry = zip.entry(file)
      const columns = table.columns.map((c) => c.name)
      entry.write(`${JSON.stringify(columns)}\n`)
      let after: string[] | null = null
      let rows = 0
      for (;;) {
        if (opts.signal?.aborted) throw new Error('backup stopped: the job lease was lost')
        const from: string[] | null = after
        const page: { lines: string[]; last: string[] | null } = await opts.run(async (tx) => {
          await utc(tx)
          return readLines(tx, table, from, PAGE_ROWS)
        })
        if (page.lines.length) {
          entry.write(`${page.lines.join('\n')}\n`)
          rows += page.lines.length
          done += page.lines.length
          await zip.drain()
          await opts.progress(done, Math.max(total, done))
        }
        if (page.lines.length < PAGE_ROWS || !page.last) break
        after = page.last
      }
      written.push({ table: table.name, file, columns, rows, ...entry.end() })
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      schemaVersion: schemaVersion(),
      hospital: opts.hospital,
      dataTypes: opts.dataTypes,
      createdAt: new Date().toISOString(),
      recordCount: written.reduce((a, t) => a + t.rows, 0),
      tables: written,
    }
    const entry = zip.entry('manifest.json')
    entry.write(`${JSON.stringify(manifest, null, 2)}\n`)
    entry.end()
    await zip.finish()
    return manifest
  } catch (error) {
    await zip.abort()
    throw error
  }
}
