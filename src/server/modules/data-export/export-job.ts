import { rename, rm, stat } from 'node:fs/promises'
import { eq, sql } from 'drizzle-orm'
import { csvLine } from '../../../shared/schemas/lead-import'
import {
  EXPORT_SCHEMA_VERSION,
  type ExportKind,
  exportFileName,
  exportKinds,
} from '../../../shared/schemas/data-export'
import type { Tx } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { type ClaimedJob, type JobContext, PermanentJobError } from '../../jobs/registry'
import {
  hospitalQuotaBytes,
  settleStorageQuota,
  storageQuotaExceeded,
  usageByKind,
} from '../../storage/quota'
import { recordAudit } from '../audit/audit.service'
import { ensureExportDir, exportPath } from './export-files'
import { countRows, type ExportTable, exportTables, type Page, readPage } from './export-tables'
import { FHIR_PATIENT_COLUMNS, fhirPatient, type PatientRow } from './fhir-patient'
import { readPlatformFiles } from './platform-files'
import { TextFileWriter, ZipFileWriter } from './zip-writer'

export const DATA_EXPORT_JOB = 'data.export'

/** Rows per page: one short tenant transaction each (PGlite serves requests in between). */
export const EXPORT_PAGE_ROWS = 500

export interface ExportPayload {
  kind: ExportKind
  userId: string
  impersonatorUserId: string | null
}

export interface ManifestFile {
  name: string
  /** The table (or platform record) the file holds. */
  source: string
  rows: number
  bytes: number
  sha256: string
}

export interface ExportResult {
  kind: ExportKind
  fileName: string
  bytes: number
  rows: number
  files: ManifestFile[]
}

function asPayload(value: unknown): ExportPayload {
  const p = value as Partial<ExportPayload> | null
  if (!p || typeof p.userId !== 'string' || !exportKinds.includes(p.kind as ExportKind)) {
    throw new PermanentJobError('The export request is not valid; start the export again.')
  }
  return {
    kind: p.kind as ExportKind,
    userId: p.userId,
    impersonatorUserId: p.impersonatorUserId ?? null,
  }
}

/** The hospital's time zone, which dates the download's file name. */
async function hospitalZone(ctx: JobContext, hospitalId: string): Promise<string> {
  // Read as the platform: the hospitals table is the platform's.
  const [row] = await withPlatform(ctx.db, (tx) =>
    tx.select({ timeZone: hospitals.timeZone }).from(hospitals).where(eq(hospitals.id, hospitalId)),
  )
  return row?.timeZone ?? 'Asia/Kolkata'
}

/** The page's transaction writes timestamps in UTC, whatever the server's zone. */
async function inUtc(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('timezone', 'UTC', true)`)
}

function stopIfLost(ctx: JobContext): void {
  if (ctx.signal.aborted) throw new Error('export stopped: the job lease was lost')
}

/**
 * The hospital's disk quota for the file being written (issue 39): room is what was left when
 * the export started; after each page the file's size on disk is compared with it, and the
 * export stops (dead, its partial file removed) as soon as it would pass the quota.
 */
interface ExportRoom {
  limitBytes: number
  usedBytes: number
  remainingBytes: number
}

const overQuota = (room: ExportRoom) =>
  new PermanentJobError(storageQuotaExceeded(room.usedBytes, room.limitBytes).message)

async function checkRoom(path: string, room: ExportRoom): Promise<void> {
  const size = (await stat(path).catch(() => null))?.size ?? 0
  if (size > room.remainingBytes) throw overQuota(room)
}

const BOM = '\uFEFF'

async function writeZip(
  job: ClaimedJob & { hospitalId: string },
  payload: ExportPayload,
  ctx: JobContext,
  path: string,
  room: ExportRoom,
): Promise<{ files: ManifestFile[]; rows: number }> {
  const hospitalId = job.hospitalId
  const platform = await withPlatform(ctx.db, (tx) => readPlatformFiles(tx, hospitalId))
  const tables = await ctx.withTenant((tx) => exportTables(tx))
  const counts = await ctx.withTenant((tx) => countRows(tx, tables))
  const total = counts.reduce((a, b) => a + b, 0) + platform.reduce((a, f) => a + f.rows.length, 0)
  let done = 0
  await ctx.progress(0, total)
  const zip = new ZipFileWriter(path)
  const files: ManifestFile[] = []
  try {
    for (const file of platform) {
      const entry = zip.entry(file.name)
      entry.write(BOM + csvLine(file.header))
      entry.write(file.rows.map((r) => csvLine(r.map((v) => v ?? ''))).join(''))
      files.push({ name: file.name, source: file.source, rows: file.rows.length, ...entry.end() })
      done += file.rows.length
    }
    for (const table of tables) {
      const rows = await writeTable(zip, table, ctx, async (n) => {
        done += n
        await checkRoom(path, room)
        return ctx.progress(done, Math.max(total, done))
      })
      files.push({ name: `${table.name}.csv`, source: table.name, ...rows })
    }
    const manifest = {
      schemaVersion: EXPORT_SCHEMA_VERSION,
      kind: payload.kind,
      hospital: { id: hospitalId, name: platform[0]?.rows[0]?.[1] ?? null },
      generatedAt: new Date().toISOString(),
      generatedBy: payload.userId,
      format: {
        csv: 'RFC 4180, UTF-8 with a byte order mark, a header row of column names',
        formulas: 'a cell that starts with = + - @ or a tab gets a leading apostrophe',
        timestamps: 'ISO 8601 in UTC',
        arrays: 'JSON',
      },
      totalRows: files.reduce((a, f) => a + f.rows, 0),
      files,
    }
    const entry = zip.entry('manifest.json')
    entry.write(`${JSON.stringify(manifest, null, 2)}\n`)
    entry.end()
    await zip.finish()
  } catch (error) {
    await zip.abort()
    throw error
  }
  return { files, rows: done }
}

async function writeTable(
  zip: ZipFileWriter,
  table: ExportTable,
  ctx: JobContext,
  advance: (rows: number) => Promise<void>,
): Promise<{ rows: number; bytes: number; sha256: string }> {
  const entry = zip.entry(`${table.name}.csv`)
  entry.write(BOM + csvLine(table.columns.map((c) => c.name)))
  let after: string[] | null = null
  let rows = 0
  for (;;) {
    stopIfLost(ctx)
    const from: string[] | null = after
    const page: Page = await ctx.withTenant(async (tx) => {
      await inUtc(tx)
      return readPage(tx, table, from, EXPORT_PAGE_ROWS)
    })
    if (page.values.length) {
      entry.write(page.values.map((v) => csvLine(v.map((x) => x ?? ''))).join(''))
      rows += page.values.length
      await zip.drain()
      await advance(page.values.length)
    }
    if (page.values.length < EXPORT_PAGE_ROWS || !page.last) break
    after = page.last
  }
  return { rows, ...entry.end() }
}

async function writeFhir(
  job: ClaimedJob & { hospitalId: string },
  ctx: JobContext,
  path: string,
  room: ExportRoom,
): Promise<{ files: ManifestFile[]; rows: number }> {
  const patients = (await ctx.withTenant((tx) => exportTables(tx))).find(
    (t) => t.name === 'patients',
  )
  if (!patients) throw new PermanentJobError('There is no patients table to export.')
  // The columns the FHIR mapping reads, paged by the table's own key.
  const table: ExportTable = {
    ...patients,
    columns: FHIR_PATIENT_COLUMNS.map((name) => ({ name, type: 'text' })),
  }
  const [total = 0] = await ctx.withTenant((tx) => countRows(tx, [table]))
  await ctx.progress(0, total)
  const out = new TextFileWriter(path)
  let after: string[] | null = null
  let rows = 0
  try {
    for (;;) {
      stopIfLost(ctx)
      const from: string[] | null = after
      const page: Page = await ctx.withTenant(async (tx) => {
        await inUtc(tx)
        return readPage(tx, table, from, EXPORT_PAGE_ROWS)
      })
      const lines = page.values.map((v) => {
        const row = Object.fromEntries(
          FHIR_PATIENT_COLUMNS.map((name, i) => [name, v[i] ?? null]),
        ) as unknown as PatientRow
        return `${JSON.stringify(fhirPatient(row, job.hospitalId))}\n`
      })
      if (lines.length) {
        out.write(lines.join(''))
        rows += lines.length
        await out.drain()
        await checkRoom(path, room)
        await ctx.progress(rows, Math.max(total, rows))
      }
      if (page.values.length < EXPORT_PAGE_ROWS || !page.last) break
      after = page.last
    }
    const summary = await out.finish()
    return { files: [{ name: 'Patient.ndjson', source: 'patients', rows, ...summary }], rows }
  } catch (error) {
    await out.abort()
    throw error
  }
}

/**
 * The export job: writes the hospital's zip (or FHIR NDJSON) to a .part file page by page,
 * reporting rows done of rows counted, then renames it into place. A retry starts the file
 * again from the top (idempotent: same name, whole file). Audited when done.
 */
export async function runDataExport(job: ClaimedJob, ctx: JobContext): Promise<ExportResult> {
  const payload = asPayload(job.payload)
  const hospitalId = job.hospitalId
  if (!hospitalId) throw new PermanentJobError('An export belongs to a hospital.')
  const owned = { ...job, hospitalId }
  await ensureExportDir(hospitalId)
  const final = exportPath(hospitalId, job.id, payload.kind)
  const part = `${final}.part`
  // A retry starts again: an earlier attempt's files do not count against its own room.
  await rm(part, { force: true })
  await rm(final, { force: true })
  const limitBytes = await hospitalQuotaBytes(ctx.db, hospitalId)
  const usage = await ctx.withTenant((tx) => usageByKind(tx, hospitalId))
  const usedBytes = Object.values(usage).reduce((a, b) => a + b, 0)
  const room = { limitBytes, usedBytes, remainingBytes: limitBytes - usedBytes }
  if (room.remainingBytes <= 0) throw overQuota(room)
  let written: { files: ManifestFile[]; rows: number }
  try {
    written =
      payload.kind === 'fhir'
        ? await writeFhir(owned, ctx, part, room)
        : await writeZip(owned, payload, ctx, part, room)
    await checkRoom(part, room)
    // The last word, under the hospital's quota lock: the finished file (in the folder now)
    // with everything stored meanwhile, on any instance.
    await ctx
      .withTenant((tx) => settleStorageQuota(tx, { hospitalId, limitBytes, adding: 0 }))
      .catch((error: unknown) => {
        throw error instanceof AppError ? new PermanentJobError(error.message) : error
      })
    await rename(part, final)
  } catch (error) {
    await rm(part, { force: true })
    throw error
  }
  const { size } = await stat(final)
  const fileName = exportFileName(payload.kind, new Date(), await hospitalZone(ctx, hospitalId))
  const what = payload.kind === 'fhir' ? 'patients as FHIR R4 NDJSON' : "the hospital's data"
  await ctx.withTenant((tx) =>
    recordAudit(tx, {
      hospitalId,
      actorUserId: payload.userId,
      impersonatorUserId: payload.impersonatorUserId,
      action: payload.kind === 'backup' ? 'data.backup_created' : 'data.exported',
      entityType: 'export',
      entityId: job.id,
      summary: `Exported ${what}: ${written.rows} rows in ${written.files.length} files`,
    }),
  )
  return { kind: payload.kind, fileName, bytes: size, rows: written.rows, files: written.files }
}
