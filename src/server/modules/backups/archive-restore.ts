import type { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import type { RestoreMode, RestoreTablePreview } from '../../../shared/schemas/backup'
import type { Tx } from '../../db/client'
import { countRows, type ExportTable } from '../data-export/export-tables'
import { reapplyErasures } from '../data-rights/patient-erase.service'
import { walkArchive } from './archive-read'
import {
  BASE_TABLES,
  type BackupManifest,
  currentTables,
  type ManifestTable,
  RESTORE_ORDER,
  sqlCode,
  utc,
} from './backup-archive'
import { BackupFileError } from './backup-crypto'

// Restoring a backup archive into the hospital's tables (docs/decisions/039-backups.md).

const NEVER_DELETED = new Set<string>(BASE_TABLES)
const BATCH_ROWS = 5000

/**
 * A backed-up value (text, as readPage wrote it) as jsonb_populate_recordset wants it: JSON and
 * array columns as their JSON value, everything else as the text the column type parses.
 */
function jsonValue(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null
  if (type === 'json' || type === 'jsonb' || type.endsWith('[]')) {
    try {
      return JSON.parse(String(value)) as unknown
    } catch {
      throw new BackupFileError(
        'The backup holds a value this database refuses; nothing was restored.',
      )
    }
  }
  return value
}

interface TableState {
  table: ExportTable
  /** The backup's columns that this database has, with their position in the row. */
  columns: { name: string; type: string; at: number }[]
  stats: RestoreTablePreview
  batch: unknown[][]
  manifest: ManifestTable
}

async function flushBatch(tx: Tx, state: TableState, mode: RestoreMode): Promise<void> {
  if (!state.batch.length) return
  const { table, columns } = state
  const rows = JSON.stringify(
    state.batch.map((v) =>
      Object.fromEntries(columns.map((c) => [c.name, jsonValue(v[c.at], c.type)])),
    ),
  )
  state.batch = []
  const names = sql.join(
    [sql.identifier('hospital_id'), ...columns.map((c) => sql.identifier(c.name))],
    sql`, `,
  )
  const values = sql.join(
    [
      sql`current_setting('app.hospital_id')::uuid`,
      ...columns.map((c) => sql`r.${sql.identifier(c.name)}`),
    ],
    sql`, `,
  )
  const keyNames = new Set(table.key.map((k) => k.name))
  const target = sql.join(
    table.key.map((k) => sql.identifier(k.name)),
    sql`, `,
  )
  const updatable = columns.filter((c) => !keyNames.has(c.name))
  const hasUpdatedAt = columns.some((c) => c.name === 'updated_at')
  const me = sql.identifier(table.name)
  let conflict
  if (!updatable.length || (mode === 'merge' && !hasUpdatedAt)) {
    conflict = sql`on conflict (${target}) do nothing`
  } else {
    const set = sql.join(
      updatable.map((c) => sql`${sql.identifier(c.name)} = excluded.${sql.identifier(c.name)}`),
      sql`, `,
    )
    const conditions = []
    if (mode === 'merge') conditions.push(sql`${me}.updated_at < excluded.updated_at`)
    // An erased patient (data rights) stays erased: a backup never brings the data back.
    if (table.name === 'patients') conditions.push(sql`${me}.erased_at is null`)
    const where = conditions.length ? sql` where ${sql.join(conditions, sql` and `)}` : sql``
    conflict = sql`on conflict (${target}) do update set ${set}${where}`
  }
  const result = await tx.execute(sql`with w as (
      insert into ${me} (${names})
      select ${values} from jsonb_populate_recordset(null::${me}, ${rows}::jsonb) as r
      ${conflict}
      returning (xmax = 0) as inserted)
    select count(*) filter (where inserted)::int as inserted,
           count(*) filter (where not inserted)::int as updated from w`)
  const [row] = (result as unknown as { rows: { inserted: number; updated: number }[] }).rows
  state.stats.toInsert += Number(row?.inserted ?? 0)
  state.stats.toUpdate += Number(row?.updated ?? 0)
}

/**
 * Restores (or, with dryRun, rehearses) a backup in the caller's tenant transaction `tx`:
 * rows are upserted parents first (replace: every backup row written as it is; merge: missing
 * rows inserted and rows whose backup copy is newer by updated_at updated); then, in replace
 * mode, the rows this transaction did not write are deleted, children first (patients and
 * services never). The caller commits or rolls back: a failure anywhere changes nothing.
 */
export async function restoreInto(opts: {
  tx: Tx
  source: Readable
  hospitalId: string
  manifest: BackupManifest
  mode: RestoreMode
  /** Who asked for the restore (consents an erasure withdraws again are recorded as theirs). */
  userId?: string | null
  progress?: (done: number, total: number) => Promise<void>
}): Promise<RestoreTablePreview[]> {
  const { tx, manifest, mode } = opts
  await utc(tx)
  const names = RESTORE_ORDER.filter((t) => manifest.tables.some((m) => m.table === t))
  const tables = await currentTables(tx, names)
  const counts = await countRows(tx, tables)
  const states = new Map<string, TableState>()
  tables.forEach((table, i) => {
    const m = manifest.tables.find((x) => x.table === table.name) as ManifestTable
    const types = new Map(table.columns.map((c) => [c.name, c.type]))
    states.set(m.file, {
      table,
      columns: m.columns
        .map((name, at) => ({ name, at, type: types.get(name) ?? '' }))
        .filter((c) => c.type !== ''),
      stats: {
        table: table.name,
        inBackup: 0,
        current: counts[i] ?? 0,
        toInsert: 0,
        toUpdate: 0,
        toDelete: 0,
      },
      batch: [],
      manifest: m,
    })
  })
  const headerSeen = new Set<string>()
  let done = 0
  try {
    await walkArchive(
      opts.source,
      opts.hospitalId,
      (f) => states.has(f),
      async (events) => {
        for (const e of events) {
          const state = states.get(e.file)
          if (!state) continue
          if (e.kind === 'line') {
            if (!headerSeen.has(e.file)) {
              headerSeen.add(e.file)
              continue
            }
            state.batch.push(JSON.parse(e.line) as unknown[])
            state.stats.inBackup += 1
            if (state.batch.length >= BATCH_ROWS) {
              done += state.batch.length
              await flushBatch(tx, state, mode)
              await opts.progress?.(done, manifest.recordCount)
            }
          } else if (e.kind === 'end') {
            done += state.batch.length
            await flushBatch(tx, state, mode)
            if (
              e.sha256 !== state.manifest.sha256 ||
              state.stats.inBackup !== state.manifest.rows
            ) {
              throw new BackupFileError(
                `The backup's ${state.table.name} do not match its manifest; it cannot be restored.`,
              )
            }
            await opts.progress?.(done, manifest.recordCount)
          }
        }
      },
    )
    if (mode === 'replace') {
      const xid = (
        (await tx.execute(
          sql`select (pg_current_xact_id()::text::bigint % 4294967296)::text as xid`,
        )) as unknown as { rows: { xid: string }[] }
      ).rows[0]?.xid
      for (const table of [...tables].reverse()) {
        if (NEVER_DELETED.has(table.name)) continue
        const state = [...states.values()].find((s) => s.table.name === table.name) as TableState
        const deleted = await tx.execute(
          sql`with d as (delete from ${sql.identifier(table.name)} t
                where not (t.xmin = ${xid ?? '0'}::xid) returning 1)
              select count(*)::int as n from d`,
        )
        state.stats.toDelete = Number(
          (deleted as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0,
        )
      }
    }
    // Erasure is durable: the erased patients' rows that the backup brought back are erased
    // again, in this transaction (after the replace's deletions, which spare rows it wrote).
    await reapplyErasures(tx, { hospitalId: opts.hospitalId, userId: opts.userId ?? null })
  } catch (error) {
    if (error instanceof BackupFileError) throw error
    const code = sqlCode(error)
    if (code === '23503') {
      throw new BackupFileError(
        'The backup refers to records this hospital does not have (for example the lead of an appointment, or the appointment of an invoice); restore a backup that includes them, or restore Leads, Sales and Billing together.',
      )
    }
    if (code === '23505' || code === '23514' || code === '22P02') {
      throw new BackupFileError(
        'The backup holds rows this database refuses (a duplicate or an invalid value); nothing was restored.',
      )
    }
    throw error
  }
  return tables.map(
    (t) => ([...states.values()].find((s) => s.table.name === t.name) as TableState).stats,
  )
}
