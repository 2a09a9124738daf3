import { createReadStream } from 'node:fs'
import {
  appendFile,
  mkdir,
  open,
  readdir,
  readFile,
  rm,
  stat,
  truncate,
  writeFile,
} from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parse, type Parser } from 'csv-parse'
import { parse as parseSync } from 'csv-parse/sync'
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { normalizePhone } from '../../../shared/phone'
import { optionalEmail } from '../../../shared/schemas/common'
import {
  csvLine,
  IMPORT_MAX_FIELD_CHARS,
  type ImportField,
  importFieldLabels,
  importMapping,
  type ImportMapping,
} from '../../../shared/schemas/lead-import'
import { leadPriorities } from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { type ClaimedJob, type JobContext, PermanentJobError } from '../../jobs/registry'
import { recordAudit } from '../audit/audit.service'
import { mergeInto, type NewLead } from './leads.create'
import type { Actor } from './leads.rows'

/**
 * Import CSV of leads (issue 8) as a job (docs/decisions/014): the upload is a file under
 * DATA_DIR/imports/<hospital>/<uuid>.csv (shared storage when several instances run, since any
 * worker may take the job); the worker parses it as a stream and writes leads in batches of
 * BATCH rows, one tenant transaction each, merging known phones as POST /api/leads does.
 * Beside the file it keeps <job>.state.json (rows done and counts, written after each batch's
 * commit, so a retried job continues where the last attempt stopped) and <job>.errors.csv.
 */
export const LEAD_IMPORT_JOB = 'leads.import'

export const BATCH = 500
/** A record (line) longer than this stops the parser: the rest of the file is not read. */
export const MAX_RECORD_BYTES = 1024 * 1024

/** DATA_DIR/imports (DATA_DIR as in env.ts, './data' by default). */
export function importsRoot(): string {
  return resolve(process.env.DATA_DIR ?? './data', 'imports')
}

export function hospitalDir(hospitalId: string): string {
  return join(importsRoot(), hospitalId)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const errorsPath = (hospitalId: string, jobId: string) =>
  join(hospitalDir(hospitalId), `${jobId}.errors.csv`)
export const statePath = (hospitalId: string, jobId: string) =>
  join(hospitalDir(hospitalId), `${jobId}.state.json`)

export const importPayload = z.object({
  /** The upload's id: the file is imports/<hospital>/<fileId>.csv. */
  fileId: z.string().regex(UUID),
  mapping: importMapping,
  userId: z.string(),
  impersonatorUserId: z.string().nullable(),
})
export type ImportPayload = z.infer<typeof importPayload>

export interface ImportState {
  /** Data records read (valid or not). */
  records: number
  /** Records the parser skipped (broken quoting, too long). */
  skips: number
  total: number
  created: number
  merged: number
  failed: number
  errorsBytes: number
  finished: boolean
  message: string | null
}

/**
 * Error reports, state files and uploads a dead job left behind go after maxAgeDays (jobs are
 * pruned after 7 or 30 days, decision 014, so their reports cannot be asked for by then).
 */
export async function pruneImportFiles(hospitalId: string, maxAgeDays = 30): Promise<number> {
  const dir = hospitalDir(hospitalId)
  const cutoff = Date.now() - maxAgeDays * 86_400_000
  let removed = 0
  const names = await readdir(dir).catch(() => [] as string[])
  for (const name of names) {
    const path = join(dir, name)
    const info = await stat(path).catch(() => null)
    if (info?.isFile() && info.mtimeMs < cutoff) {
      await rm(path, { force: true })
      removed++
    }
  }
  return removed
}

export async function readState(hospitalId: string, jobId: string): Promise<ImportState | null> {
  try {
    return JSON.parse(await readFile(statePath(hospitalId, jobId), 'utf8')) as ImportState
  } catch {
    return null
  }
}

function csvParser(options: { toLine?: number } = {}): Parser {
  return parse({
    bom: true,
    max_record_size: MAX_RECORD_BYTES,
    skip_records_with_error: true,
    relax_column_count: true,
    // A quote inside an unquoted cell (=HYPERLINK("…") typed by hand) is text, not an error.
    relax_quotes: true,
    info: true,
    ...(options.toLine ? { to_line: options.toLine } : {}),
  })
}

/**
 * The header row of a saved upload: at most the file's first MAX_RECORD_BYTES are read.
 * Null when the file has no header row.
 */
export async function readHeader(path: string): Promise<string[] | null> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(MAX_RECORD_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, MAX_RECORD_BYTES, 0)
    const text = buffer.subarray(0, bytesRead).toString('utf8')
    const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
    const rows = parseSync(firstLine, { bom: true, relax_quotes: true }) as string[][]
    const header = rows[0]?.map((h) => h.trim())
    return header?.some((h) => h !== '') ? header : null
  } catch {
    return null
  } finally {
    await handle.close()
  }
}

/** Mapped columns the header lacks. */
export function missingColumns(header: readonly string[], mapping: ImportMapping): string[] {
  return Object.values(mapping).filter(
    (column): column is string => column !== undefined && !header.includes(column),
  )
}

async function countRecords(path: string): Promise<number> {
  let count = -1 // the header
  const parser = createReadStream(path).pipe(csvParser())
  parser.on('skip', () => undefined)
  for await (const record of parser as AsyncIterable<unknown>) if (record) count++
  return Math.max(0, count)
}

interface RowError {
  row: number
  column: string
  message: string
  values: string[]
}

type Checked = { ok: true; lead: NewLead } | { ok: false; error: Omit<RowError, 'values'> }

// eslint-disable-next-line no-control-regex -- NUL cannot be stored in a text column
const NUL = /\u0000/

/** One data row → a lead to create or merge, or the first problem with it. */
export function checkRow(
  record: string[],
  columns: Partial<Record<ImportField, number>>,
  mapping: ImportMapping,
  row: number,
): Checked {
  const fail = (field: ImportField | null, message: string): Checked => ({
    ok: false,
    error: { row, column: field ? (mapping[field] ?? '') : '', message },
  })
  const tooLong = record.findIndex((v) => v.length > IMPORT_MAX_FIELD_CHARS)
  if (tooLong >= 0) {
    const field = (Object.keys(columns) as ImportField[]).find((f) => columns[f] === tooLong)
    return fail(
      field ?? null,
      `A value is longer than ${IMPORT_MAX_FIELD_CHARS.toLocaleString('en-IN')} characters`,
    )
  }
  const value = (field: ImportField) => {
    const index = columns[field]
    return index === undefined ? '' : (record[index] ?? '').trim()
  }
  for (const field of Object.keys(columns) as ImportField[]) {
    const v = value(field)
    if (v.includes('\uFFFD'))
      return fail(field, 'Not valid UTF-8 text: save the file as "CSV UTF-8" and import it again')
    if (NUL.test(v)) return fail(field, 'Contains characters that are not allowed')
  }
  const name = value('name')
  if (!name) return fail('name', 'Name is required')
  if (name.length > 200) return fail('name', 'Name must be at most 200 characters')
  const phoneText = value('phone')
  if (!phoneText) return fail('phone', 'Phone is required')
  const phone = normalizePhone(phoneText)
  if (!phone) return fail('phone', 'Not a valid phone number, e.g. 98765 43210')
  const email = optionalEmail.safeParse(value('email'))
  if (!email.success) return fail('email', 'Not a valid email address')
  const priorityText = value('priority').toLowerCase()
  const priority = priorityText === '' ? 'medium' : priorityText
  if (!(leadPriorities as readonly string[]).includes(priority))
    return fail('priority', 'Priority must be high, medium or low')
  const limits: [ImportField, number][] = [
    ['serviceInterest', 200],
    ['campaign', 200],
    ['sourceLabel', 200],
    ['notes', 5000],
  ]
  for (const [field, max] of limits) {
    if (value(field).length > max)
      return fail(field, `${importFieldLabels[field]} must be at most ${max} characters`)
  }
  const sourceLabel = value('sourceLabel')
  const notes = [value('notes'), sourceLabel ? `Source: ${sourceLabel}` : ''].filter(Boolean)
  return {
    ok: true,
    lead: {
      name,
      phone,
      email: email.data,
      serviceInterest: value('serviceInterest') || null,
      campaign: value('campaign') || null,
      notes: notes.length ? notes.join('\n') : null,
      priority: priority as NewLead['priority'],
      source: 'csv-import',
    },
  }
}

/**
 * Writes one batch in the caller's transaction: new phones are inserted in one statement;
 * phones already in the hospital, or earlier in the file, merge into their lead exactly as a
 * repeated POST /api/leads does (without an audit row each: the import audits once).
 */
export async function importBatch(
  tx: Tx,
  who: Actor,
  batch: NewLead[],
): Promise<{ created: number; merged: number }> {
  const firsts = new Map<string, NewLead>()
  const repeats: NewLead[] = []
  for (const lead of batch) {
    if (firsts.has(lead.phone)) repeats.push(lead)
    else firsts.set(lead.phone, lead)
  }
  // One JSON parameter for the whole batch: building a 500-row VALUES list with 4,500
  // parameters cost about as much time as PostgreSQL took to insert it (measured, 2026-11-23).
  const rows = [...firsts.values()].map((l) => ({
    name: l.name,
    phone: l.phone,
    email: l.email,
    service_interest: l.serviceInterest,
    campaign: l.campaign,
    notes: l.notes,
    priority: l.priority,
  }))
  const inserted = rows.length
    ? (
        (await tx.execute(sql`
          insert into ${leads} (hospital_id, name, phone, email, service_interest, campaign, notes, priority, source)
          select ${who.hospitalId}::uuid, r.name, r.phone, r.email, r.service_interest, r.campaign, r.notes, r.priority, 'csv-import'
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as r(name text, phone text, email text, service_interest text, campaign text, notes text, priority text)
          on conflict (hospital_id, phone) do nothing
          returning phone`)) as unknown as { rows: { phone: string }[] }
      ).rows
    : []
  const created = new Set(inserted.map((r) => r.phone))
  const merges = [...[...firsts.values()].filter((l) => !created.has(l.phone)), ...repeats]
  for (const lead of merges) await mergeInto(tx, who, lead, { audit: false })
  return { created: created.size, merged: merges.length }
}

function columnIndexes(
  header: string[],
  mapping: ImportMapping,
): Partial<Record<ImportField, number>> {
  const columns: Partial<Record<ImportField, number>> = {}
  for (const [field, column] of Object.entries(mapping) as [ImportField, string | undefined][]) {
    if (column === undefined) continue
    const index = header.findIndex((h) => h.trim() === column)
    if (index < 0) throw new PermanentJobError(`The file has no column "${column}"`)
    columns[field] = index
  }
  return columns
}

/** The job: reads the file, writes leads in batches, records row errors and progress. */
export async function runLeadImport(job: ClaimedJob, ctx: JobContext): Promise<unknown> {
  const parsed = importPayload.safeParse(job.payload)
  if (!parsed.success || !job.hospitalId) throw new PermanentJobError('Bad import job payload')
  const { fileId, mapping, userId, impersonatorUserId } = parsed.data
  const hospitalId = job.hospitalId
  const who: Actor = { hospitalId, userId, impersonatorUserId }
  const csvPath = join(hospitalDir(hospitalId), `${fileId}.csv`)
  const errorsFile = errorsPath(hospitalId, job.id)
  const stateFile = statePath(hospitalId, job.id)

  let state = await readState(hospitalId, job.id)
  if (state?.finished) return resultOf(state)
  const exists = await stat(csvPath).then(
    () => true,
    () => false,
  )
  if (!exists) throw new PermanentJobError('The uploaded file is no longer there')
  await mkdir(hospitalDir(hospitalId), { recursive: true })
  state ??= {
    records: 0,
    skips: 0,
    total: await countRecords(csvPath),
    created: 0,
    merged: 0,
    failed: 0,
    errorsBytes: 0,
    finished: false,
    message: null,
  }
  const saveState = (s: ImportState) => writeFile(stateFile, JSON.stringify(s))
  await ctx.progress(state.records, state.total)

  const parser = createReadStream(csvPath).pipe(csvParser())
  const resumeSkips = state.skips
  let skipsSeen = 0
  // Past a record over MAX_RECORD_BYTES the parser cannot find the next row: one error, then stop.
  let stopped = false
  const skipped: { message: string; stop: boolean; row: number }[] = []
  parser.on('skip', (error: Error & { code?: string; lines?: number }) => {
    if (stopped) return
    skipsSeen++
    if (skipsSeen <= resumeSkips) return
    const stop = error.code === 'CSV_MAX_RECORD_SIZE'
    stopped ||= stop
    skipped.push({
      stop,
      row: error.lines ?? 0,
      message: stop
        ? `This row is longer than ${MAX_RECORD_BYTES / 1024 / 1024} MB; the rest of the file was not read`
        : `The row could not be read as CSV (${error.code ?? 'error'})`,
    })
  })

  let header: string[] | null = null
  let columns: Partial<Record<ImportField, number>> = {}
  let recordIndex = 0
  let batch: NewLead[] = []
  let errors: RowError[] = []
  let batchRecords = 0

  const flush = async () => {
    const current = state as ImportState
    if (skipped.some((s) => s.stop)) {
      current.message = 'A row was too long to read; rows after it were not imported'
    }
    const skipErrors = skipped.splice(0).map((s) => ({
      row: s.row,
      column: '',
      message: s.message,
      values: [] as string[],
    }))
    const rowErrors = [...errors, ...skipErrors]
    if (ctx.signal.aborted) throw new Error('import stopped: the job lease was lost')
    const counts = batch.length
      ? await ctx.withTenant((tx) => importBatch(tx, who, batch))
      : { created: 0, merged: 0 }
    if (rowErrors.length) {
      const text = rowErrors
        .map((e) => csvLine([String(e.row), e.column, e.message, ...e.values]))
        .join('')
      await appendFile(errorsFile, text)
      current.errorsBytes += Buffer.byteLength(text)
    }
    current.records += batchRecords
    current.skips += skipErrors.length
    current.created += counts.created
    current.merged += counts.merged
    current.failed += rowErrors.length
    await saveState(current)
    await ctx.progress(current.records, Math.max(current.total, current.records))
    batch = []
    errors = []
    batchRecords = 0
  }

  for await (const { record, info } of parser as AsyncIterable<{
    record: string[]
    info: { lines: number }
  }>) {
    if (stopped) break
    if (header === null) {
      header = record.map((h) => h.trim())
      columns = columnIndexes(header, mapping)
      // The report's header, or the report as the last attempt left it.
      if (state.errorsBytes === 0) {
        const line = csvLine(['Row', 'Column', 'Error', ...header])
        await writeFile(errorsFile, line)
        state.errorsBytes = Buffer.byteLength(line)
      } else {
        await truncate(errorsFile, state.errorsBytes).catch(() => undefined)
      }
      continue
    }
    recordIndex++
    if (recordIndex <= state.records) continue
    batchRecords++
    const checked = checkRow(record, columns, mapping, info.lines)
    if (checked.ok) batch.push(checked.lead)
    else errors.push({ ...checked.error, values: record })
    if (batchRecords >= BATCH) await flush()
  }
  if (header === null) throw new PermanentJobError('The file is empty: a header row is required')
  await flush()

  if (state.records === 0 && state.failed === 0) {
    state.message = 'The file has a header row but no data rows: nothing was imported'
  }
  state.total = state.records
  await ctx.withTenant((tx) =>
    recordAudit(tx, {
      hospitalId,
      actorUserId: userId,
      impersonatorUserId,
      action: 'lead.imported',
      entityType: 'lead-import',
      entityId: job.id,
      summary: `Imported a CSV of ${state.records} rows: ${state.created} new leads, ${state.merged} merged into known phones, ${state.failed} rows with errors`,
    }),
  )
  state.finished = true
  await saveState(state)
  // The upload held patients' details; the leads are in the database now.
  await rm(csvPath, { force: true })
  return resultOf(state)
}

function resultOf(state: ImportState) {
  return {
    total: state.total,
    created: state.created,
    merged: state.merged,
    failed: state.failed,
    message: state.message,
  }
}
