import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { z } from 'zod'
import {
  type ImportField,
  importMapping,
  type ImportMapping,
} from '../../../shared/schemas/lead-import'
import type { Tx } from '../../db/client'
import { type ClaimedJob, type JobContext, PermanentJobError } from '../../jobs/registry'
import { recordAudit } from '../audit/audit.service'
import type { NewLead } from './leads.create'
import { importBatch } from './leads.import-batch'
import { errorsPath, UUID, uploadPath } from './leads.import-files'
import { importLimits } from './leads.import-limits'
import { headerLine, reportLines, summaryText, writeReportAt } from './leads.import-report'
import {
  checkRow,
  countRecords,
  csvParser,
  MAX_RECORD_BYTES,
  type RowError,
} from './leads.import-rows'
import { asState, type ImportState, newState, readState } from './leads.import-state'
import type { Actor } from './leads.rows'

/**
 * Import CSV of leads (issue 8) as a job (docs/decisions/014): the upload is a file under
 * DATA_DIR/imports/<hospital>/<uuid>.csv (leads.import-files.ts); the worker parses it as a
 * stream and writes leads in batches of BATCH rows, one tenant transaction each, merging known
 * phones as POST /api/leads does. Where it stands (rows done, counts, the report's length) is
 * the job's checkpoint, written in each batch's fenced transaction (decision 020): a retried
 * job continues where the last committed batch ended, and a worker that lost its lease commits
 * nothing more. Beside the upload it writes <job>.errors.csv (bounded, leads.import-report.ts).
 */
export const LEAD_IMPORT_JOB = 'leads.import'

export const BATCH = 500

export const importPayload = z.object({
  /** The upload's id: the file is imports/<hospital>/<fileId>.csv. */
  fileId: z.string().regex(UUID),
  mapping: importMapping,
  userId: z.string(),
  impersonatorUserId: z.string().nullable(),
})
export type ImportPayload = z.infer<typeof importPayload>

/**
 * Why an import cannot go on, as the user reads it (GET …/:jobId shows it for a dead import):
 * the import's own texts, which hold no row data. Any other failure shows a generic text.
 */
export const importFailures = {
  badPayload: 'The import could not start. Import the file again.',
  fileGone: 'The uploaded file is no longer on the server. Import the file again.',
  empty: 'The file is empty: its first row must name the columns (a header row).',
  noColumn: (column: string) =>
    `The file has no column "${column}". Check the column names and import the file again.`,
}

function columnIndexes(header: string[], mapping: ImportMapping) {
  const columns: Partial<Record<ImportField, number>> = {}
  for (const [field, column] of Object.entries(mapping) as [ImportField, string | undefined][]) {
    if (column === undefined) continue
    const index = header.findIndex((h) => h.trim() === column)
    if (index < 0) return { missing: column, columns }
    columns[field] = index
  }
  return { missing: null, columns }
}

/** The job: reads the file, writes leads in batches, records row errors and progress. */
export async function runLeadImport(job: ClaimedJob, ctx: JobContext): Promise<unknown> {
  if (!job.hospitalId) throw new PermanentJobError(importFailures.badPayload)
  const hospitalId = job.hospitalId
  // The checkpoint the last committed batch left (a state file for imports begun before it).
  const saved = asState(job.checkpoint) ?? (await readState(hospitalId, job.id))
  if (saved?.finished) return resultOf(saved)
  let state = saved ?? newState(0)

  /**
   * Commits one step: fn's writes and the state it returns as the job's checkpoint, in one
   * fenced tenant transaction. A worker that lost its lease gets LeaseLostError and commits
   * neither: it can neither write its batch again nor count it twice.
   */
  const step = async (fn: (tx: Tx) => Promise<ImportState>) => {
    state = await ctx.withTenant(async (tx) => {
      const next = await fn(tx)
      await ctx.checkpoint(tx, next)
      return next
    })
  }
  /** Records why the import stopped (for GET …/:jobId), then ends it without retries. */
  const fail = async (text: string): Promise<never> => {
    const next = { ...state, failure: text }
    await step(() => Promise.resolve(next))
    throw new PermanentJobError(text)
  }

  const parsed = importPayload.safeParse(job.payload)
  if (!parsed.success) return fail(importFailures.badPayload)
  const { fileId, mapping, userId, impersonatorUserId } = parsed.data
  const who: Actor = { hospitalId, userId, impersonatorUserId }
  const csvPath = uploadPath(hospitalId, fileId)
  const errorsFile = errorsPath(hospitalId, job.id)
  const limit = importLimits().errorRows

  const exists = await stat(csvPath).then(
    () => true,
    () => false,
  )
  if (!exists) return fail(importFailures.fileGone)
  if (!saved) state = newState(await countRecords(csvPath))
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
    const stop = skipped.some((s) => s.stop)
    const skipErrors = skipped.splice(0).map((s) => ({
      row: s.row,
      column: '',
      message: s.message,
      values: [] as string[],
    }))
    const rowErrors = [...errors, ...skipErrors]
    // Written where the saved state says before the batch commits: a rerun writes the same.
    const report = reportLines(rowErrors, state, limit)
    if (report.text) await writeReportAt(errorsFile, state.errorsBytes, report.text)
    if (ctx.signal.aborted) throw new Error('import stopped: the job lease was lost')
    const rows = batch
    await step(async (tx) => {
      const counts = rows.length ? await importBatch(tx, who, rows) : { created: 0, merged: 0 }
      return {
        ...state,
        ...report.next,
        records: state.records + batchRecords,
        skips: state.skips + skipErrors.length,
        created: state.created + counts.created,
        merged: state.merged + counts.merged,
        failed: state.failed + rowErrors.length,
        message: stop
          ? 'A row was too long to read; rows after it were not imported'
          : state.message,
      }
    })
    await ctx.progress(state.records, Math.max(state.total, state.records))
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
      const found = columnIndexes(header, mapping)
      if (found.missing !== null) return fail(importFailures.noColumn(found.missing))
      columns = found.columns
      // The report's header. Nothing is cut here: a worker that lost its lease may still run,
      // and cutting would take another's rows; what an attempt wrote past its last commit is
      // written again, the same, by the next, and the final step cuts the file to its length.
      if (state.errorsBytes === 0) {
        const line = headerLine(header)
        await writeReportAt(errorsFile, 0, line)
        state = { ...state, errorsBytes: Buffer.byteLength(line) }
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
  if (header === null) return fail(importFailures.empty)
  await flush()

  // The failed rows not listed, counted by reason, close the report.
  const summary = summaryText(state, limit)
  await writeReportAt(errorsFile, state.errorsBytes, summary, true)
  const done: ImportState = {
    ...state,
    errorsBytes: state.errorsBytes + Buffer.byteLength(summary),
    total: state.records,
    finished: true,
    message:
      state.records === 0 && state.failed === 0
        ? 'The file has a header row but no data rows: nothing was imported'
        : state.message,
  }
  await step(async (tx) => {
    await recordAudit(tx, {
      hospitalId,
      actorUserId: userId,
      impersonatorUserId,
      action: 'lead.imported',
      entityType: 'lead-import',
      entityId: job.id,
      summary: `Imported a CSV of ${done.records} rows: ${done.created} new leads, ${done.merged} merged into known phones, ${done.failed} rows with errors`,
    })
    return done
  })
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
