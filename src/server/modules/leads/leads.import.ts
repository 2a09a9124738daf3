import { createReadStream } from 'node:fs'
import {
  appendFile,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  truncate,
  writeFile,
} from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import {
  csvLine,
  type ImportField,
  importMapping,
  type ImportMapping,
} from '../../../shared/schemas/lead-import'
import { leadSourceLabels } from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { communications, leads } from '../../db/schema/leads'
import { type ClaimedJob, type JobContext, PermanentJobError } from '../../jobs/registry'
import { recordAudit } from '../audit/audit.service'
import type { NewLead } from './leads.create'
import {
  checkRow,
  countRecords,
  csvParser,
  MAX_RECORD_BYTES,
  type RowError,
} from './leads.import-rows'
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
  await mergeBatch(tx, who, merges)
  return { created: created.size, merged: merges.length }
}

/**
 * Merges rows into the leads holding their phones, as mergeInto does one at a time (the lead
 * keeps its name and gains the email, service interest, campaign and assignee it lacked, the
 * earliest row's first; each row becomes a system communication, enquiryNote's text), in two
 * statements for the whole batch: 10,000 merges one by one took most of a 100,000-row import.
 */
async function mergeBatch(tx: Tx, who: Actor, merges: NewLead[]): Promise<void> {
  if (merges.length === 0) return
  const rows = merges.map((l, ord) => ({
    ord,
    name: l.name,
    phone: l.phone,
    email: l.email,
    service_interest: l.serviceInterest,
    campaign: l.campaign,
    assigned: l.assignedToUserId ?? null,
    source: l.source,
    label: leadSourceLabels[l.source],
    text: [l.serviceInterest, l.notes, l.email].filter(Boolean).join(' / '),
  }))
  const first = (column: string) => {
    const c = sql.identifier(column)
    return sql`(array_agg(${c} order by ord) filter (where ${c} is not null))[1]`
  }
  const result = (await tx.execute(sql`
    with r as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(ord int, name text,
        phone text, email text, service_interest text, campaign text, assigned text,
        source text, label text, text text)
    ),
    firsts as (
      select phone, ${first('email')} as email, ${first('service_interest')} as service_interest,
        ${first('campaign')} as campaign, ${first('assigned')} as assigned
      from r group by phone
    ),
    merged as (
      update ${leads} l set
        email = coalesce(l.email, f.email),
        service_interest = coalesce(l.service_interest, f.service_interest),
        campaign = coalesce(l.campaign, f.campaign),
        assigned_to_user_id = coalesce(l.assigned_to_user_id, f.assigned),
        updated_at = now()
      from firsts f where l.phone = f.phone
      returning l.id, l.phone, l.name
    )
    insert into ${communications} (hospital_id, lead_id, type, direction, content, status, metadata, created_by_user_id, read_at)
    select ${who.hospitalId}::uuid, m.id, 'system', 'inbound',
      'New enquiry (' || r.label || ')'
        || case when lower(r.name) = lower(m.name) then '' else ' from ' || r.name end
        || case when r.text <> '' then ': ' || r.text else '' end,
      'received', jsonb_build_object('source', r.source), null, now()
    from r join merged m on m.phone = r.phone
    order by r.ord
    returning 1`)) as unknown as { rows: unknown[] }
  // A lead whose phone conflicted is committed (ON CONFLICT waited for it) unless deleted since.
  if (result.rows.length !== merges.length)
    throw new Error('a merged lead vanished during the import')
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
