import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { Unzip, UnzipInflate } from 'fflate'
import type {
  BackupDataType,
  BackupManifestSummary,
  RestoreMode,
  RestoreTablePreview,
} from '../../../shared/schemas/backup'
import type { Tx } from '../../db/client'
import { MIGRATIONS_FOLDER } from '../../db/migrate'
import { countRows, type ExportTable, exportTables } from '../data-export/export-tables'
import { ZipFileWriter } from '../data-export/zip-writer'
import { BackupFileError, decryptStream } from './backup-crypto'

/*
 * What a backup holds (docs/decisions/039-backups.md). Patients and the service catalogue go
 * with every data type (leads, appointments and invoices point at them); restoring never
 * deletes them, it only inserts or updates them. Message history, consents and reminders are
 * not in a per-hospital backup (the whole-database backup covers them).
 */
export const BASE_TABLES = ['patients', 'services'] as const
export const DATA_TYPE_TABLES: Record<BackupDataType, readonly string[]> = {
  leads: ['leads'],
  sales: ['campaigns', 'campaign_spend', 'appointments'],
  billing: ['invoices', 'invoice_lines', 'payments'],
}
/** Parents before children: the order rows are written and restored in. */
export const RESTORE_ORDER = [
  'patients',
  'services',
  'leads',
  'campaigns',
  'campaign_spend',
  'appointments',
  'invoices',
  'invoice_lines',
  'payments',
] as const
const NEVER_DELETED = new Set<string>(BASE_TABLES)

export function tablesFor(dataTypes: readonly BackupDataType[]): string[] {
  const wanted = new Set<string>(BASE_TABLES)
  for (const type of dataTypes) for (const t of DATA_TYPE_TABLES[type]) wanted.add(t)
  return RESTORE_ORDER.filter((t) => wanted.has(t))
}

export const BACKUP_FORMAT = 1
const PAGE_ROWS = 5000
const BATCH_ROWS = 5000

let latestTag: string | undefined
/** The schema version of a backup: the tag of the latest migration (e.g. 0032_backups). */
export function schemaVersion(): string {
  if (latestTag) return latestTag
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
  ) as { entries: { idx: number; tag: string }[] }
  const last = journal.entries.reduce((a, b) => (b.idx > a.idx ? b : a))
  latestTag = last.tag
  return latestTag
}
const migrationNumber = (tag: string) => Number.parseInt(tag.slice(0, 4), 10)

export interface ManifestTable {
  table: string
  file: string
  columns: string[]
  rows: number
  bytes: number
  sha256: string
}

export interface BackupManifest {
  format: number
  schemaVersion: string
  hospital: { id: string; name: string }
  dataTypes: BackupDataType[]
  createdAt: string
  recordCount: number
  tables: ManifestTable[]
}

export type RunInTenant = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>

async function utc(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('timezone', 'UTC', true)`)
}

/** The backed-up tables as they are in this database (columns, key). */
async function currentTables(tx: Tx, names: readonly string[]): Promise<ExportTable[]> {
  const all = await exportTables(tx)
  return names.map((name) => {
    const t = all.find((x) => x.name === name)
    if (!t) throw new Error(`backup: table ${name} is not a hospital table`)
    return t
  })
}

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

/* ---------------- reading ---------------- */

type Event =
  | { kind: 'start'; file: string }
  | { kind: 'line'; file: string; line: string }
  | { kind: 'end'; file: string; bytes: number; sha256: string }

/**
 * Streams the decrypted archive through fflate's Unzip, calling `onEvents` after each chunk
 * with what that chunk produced (entry starts, whole lines, entry ends with their SHA-256), so
 * that the consumer's awaits pace the reading. `want` picks the entries to inflate.
 */
async function walkArchive(
  source: Readable,
  hospitalId: string,
  want: (file: string) => boolean,
  onEvents: (events: Event[]) => Promise<void>,
): Promise<void> {
  const decrypt = decryptStream(hospitalId)
  source.on('error', (error) => decrypt.destroy(error))
  source.pipe(decrypt)
  let events: Event[] = []
  let failure: Error | null = null
  const unzip = new Unzip((file) => {
    if (!want(file.name)) return
    const decoder = new TextDecoder('utf-8', { fatal: true })
    const hash = createHash('sha256')
    let bytes = 0
    let partial = ''
    events.push({ kind: 'start', file: file.name })
    file.ondata = (error, data, final) => {
      if (error) {
        failure ??= new BackupFileError('The backup archive is damaged; it cannot be restored.')
        return
      }
      try {
        hash.update(data)
        bytes += data.length
        const text = partial + decoder.decode(data, { stream: !final })
        const lines = text.split('\n')
        partial = lines.pop() ?? ''
        for (const line of lines) if (line) events.push({ kind: 'line', file: file.name, line })
        if (final) {
          if (partial) events.push({ kind: 'line', file: file.name, line: partial })
          events.push({ kind: 'end', file: file.name, bytes, sha256: hash.digest('hex') })
        }
      } catch {
        failure ??= new BackupFileError('The backup archive is damaged; it cannot be restored.')
      }
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  try {
    for await (const chunk of decrypt) {
      try {
        unzip.push(chunk as Uint8Array)
      } catch {
        throw new BackupFileError('The backup archive is damaged; it cannot be restored.')
      }
      if (failure) throw failure
      if (events.length) {
        const batch = events
        events = []
        await onEvents(batch)
      }
    }
    unzip.push(new Uint8Array(0), true)
    if (failure) throw failure
    if (events.length) await onEvents(events)
  } finally {
    source.destroy()
    decrypt.destroy()
  }
}

/**
 * Reads (and so authenticates, end to end) a backup file and returns its manifest. Every
 * refusal is a BackupFileError with a message for the admin.
 */
export async function readManifest(source: Readable, hospitalId: string): Promise<BackupManifest> {
  let text = ''
  await walkArchive(
    source,
    hospitalId,
    (f) => f === 'manifest.json',
    async (events) => {
      for (const e of events) if (e.kind === 'line') text += `${e.line}\n`
    },
  )
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(text) as BackupManifest
  } catch {
    throw new BackupFileError('The backup has no readable manifest; it cannot be restored.')
  }
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.tables)) {
    throw new BackupFileError('This backup was written in a format this version cannot read.')
  }
  if (manifest.hospital?.id?.toLowerCase() !== hospitalId.toLowerCase()) {
    throw new BackupFileError(
      'This backup belongs to another hospital; a backup can only be restored into the hospital it was taken from.',
    )
  }
  if (migrationNumber(manifest.schemaVersion) > migrationNumber(schemaVersion())) {
    throw new BackupFileError(
      'This backup was made by a newer version of Arogya CRM; upgrade before restoring it.',
    )
  }
  for (const t of manifest.tables) {
    if (!(RESTORE_ORDER as readonly string[]).includes(t.table)) {
      throw new BackupFileError(
        `The backup holds a table this version does not restore (${t.table}).`,
      )
    }
  }
  return manifest
}

export function manifestSummary(m: BackupManifest): BackupManifestSummary {
  return {
    format: m.format,
    schemaVersion: m.schemaVersion,
    hospitalId: m.hospital.id,
    hospitalName: m.hospital.name,
    dataTypes: m.dataTypes,
    createdAt: m.createdAt,
    recordCount: m.recordCount,
  }
}

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

/** The SQLSTATE anywhere in the error's cause chain (drizzle wraps driver errors). */
export function sqlCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}
