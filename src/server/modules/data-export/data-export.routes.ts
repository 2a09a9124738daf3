import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { fromNodeHeaders } from 'better-auth/node'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import {
  deleteAllDataInput,
  EXPORT_BUSY_MESSAGE,
  EXPORT_FAILED_MESSAGE,
  type ExportKind,
  exportFileName,
  type ExportStatus,
  startExportInput,
} from '../../../shared/schemas/data-export'
import { actingMember, requirePermission } from '../../auth/access'
import type { Auth } from '../../auth/auth'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { enqueue, getJob, type JobView } from '../../jobs/queue'
import { registerHandler } from '../../jobs/registry'
import { storageRoom } from '../../storage/quota'
import { storageRoutes } from '../../storage/storage.routes'
import { recordAudit } from '../audit/audit.service'
import { importsInFlight } from '../leads/leads.import-limits'
import { deleteAllData } from './delete-all.service'
import { exportPath, pruneExports } from './export-files'
import { DATA_EXPORT_JOB, type ExportResult, runDataExport } from './export-job'

let handlerRegistered = false

/** The export job's handler, once per process (jobs/all-jobs.ts and buildApp both call it). */
export function registerDataExportJob(): void {
  if (handlerRegistered) return
  handlerRegistered = true
  // One export of a hospital runs at a time across every worker.
  registerHandler(DATA_EXPORT_JOB, runDataExport, { perHospitalRunning: 1 })
}

function statusOf(job: JobView, kind: ExportKind): ExportStatus {
  const result = job.result as Partial<ExportResult> | null
  const done = job.progress?.done ?? 0
  const total = job.progress?.total ?? 0
  const base = {
    id: job.id,
    kind,
    done,
    total,
    fileName: null,
    bytes: null,
    message: null,
    createdAt: job.createdAt.toISOString(),
  }
  if (job.status === 'done') {
    return {
      ...base,
      status: 'done',
      done: result?.rows ?? done,
      total: result?.rows ?? total,
      fileName: result?.fileName ?? null,
      bytes: result?.bytes ?? null,
    }
  }
  // Never last_error: a failed statement's text could carry row data.
  if (job.status === 'dead') return { ...base, status: 'failed', message: EXPORT_FAILED_MESSAGE }
  return { ...base, status: job.status === 'queued' ? 'queued' : 'running' }
}

/**
 * Settings → Data (issue 27). Admins only (hospital:manage): an export is the whole hospital.
 * POST /api/data/exports { kind } → 202 { jobId } · GET …/:jobId → progress ·
 * GET …/:jobId/download → the file · POST /api/data/delete-all { confirmName, password }.
 */
export function dataExportRoutes(
  app: FastifyInstance,
  { db, auth }: { db: AppDb; auth: Auth },
): void {
  registerDataExportJob()
  // The disk quota (its hook holds every streamed upload to it) and GET /api/storage/usage,
  // shown on Settings → Data. Here, so that it comes before the upload routes' scopes.
  storageRoutes(app, { db })
  const admin = { config: requirePermission('data:export') }
  const deleting = { config: requirePermission('data:delete') }

  /** The hospital's export job, or a 404 (missing, another hospital's, another kind of job). */
  async function exportJob(hospitalId: string, params: unknown) {
    const { id } = parse(uuidParam, params, 'id')
    const job = await getJob(db, id, hospitalId)
    if (!job || job.name !== DATA_EXPORT_JOB) throw new AppError('NOT_FOUND', 'Export not found')
    const kind = await withTenant(db, { hospitalId, userId: null }, async (tx) => {
      const r = await tx.execute(sql`select payload->>'kind' as kind from jobs where id = ${id}`)
      return (r as unknown as { rows: { kind: ExportKind | null }[] }).rows[0]?.kind ?? null
    })
    return { job, kind: kind ?? 'data' }
  }

  app.post('/api/data/exports', admin, async (req, reply) => {
    const who = actingMember(req)
    const { kind } = parse(startExportInput, req.body)
    await pruneExports(who.hospitalId)
    // A hospital at its disk quota cannot start one (413 naming the limit and the usage); the
    // job itself stops if the file would pass it (export-job.ts).
    await storageRoom(db, who.hospitalId)
    const job = await withTenant(db, who, async (tx) => {
      // Serialise this hospital's export requests across instances (transaction-scoped lock).
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`${DATA_EXPORT_JOB}:${who.hospitalId}`}, 0))`,
      )
      if ((await importsInFlight(tx, who.hospitalId, DATA_EXPORT_JOB)) > 0) {
        throw new AppError('RATE_LIMITED', EXPORT_BUSY_MESSAGE)
      }
      const queued = await enqueue(tx, {
        name: DATA_EXPORT_JOB,
        hospitalId: who.hospitalId,
        payload: { kind, userId: who.userId, impersonatorUserId: who.impersonatorUserId ?? null },
        maxAttempts: 3,
      })
      await recordAudit(tx, {
        hospitalId: who.hospitalId,
        actorUserId: who.userId,
        impersonatorUserId: who.impersonatorUserId,
        action: 'data.export_requested',
        entityType: 'export',
        entityId: queued.id,
        summary:
          kind === 'fhir'
            ? 'Asked for an export of the patients as FHIR R4 NDJSON'
            : kind === 'backup'
              ? 'Asked for a backup (an export of all data)'
              : "Asked for an export of the hospital's data",
      })
      return queued
    })
    return reply.status(202).send({ jobId: job.id })
  })

  app.get('/api/data/exports/:id', admin, async (req): Promise<ExportStatus> => {
    const who = actingMember(req)
    const { job, kind } = await exportJob(who.hospitalId, req.params)
    return statusOf(job, kind)
  })

  app.get('/api/data/exports/:id/download', admin, async (req, reply) => {
    const who = actingMember(req)
    const { job, kind } = await exportJob(who.hospitalId, req.params)
    if (job.status !== 'done') throw new AppError('CONFLICT', 'The export is not ready yet')
    const path = exportPath(who.hospitalId, job.id, kind)
    const info = await stat(path).catch(() => null)
    if (!info?.isFile()) {
      throw new AppError('NOT_FOUND', 'This export is no longer kept; export again')
    }
    await withTenant(db, who, (tx) =>
      recordAudit(tx, {
        hospitalId: who.hospitalId,
        actorUserId: who.userId,
        impersonatorUserId: who.impersonatorUserId,
        action: 'data.export_downloaded',
        entityType: 'export',
        entityId: job.id,
        summary: `Downloaded an export (${info.size} bytes)`,
      }),
    )
    const result = job.result as Partial<ExportResult> | null
    const fileName = result?.fileName ?? exportFileName(kind, job.createdAt)
    return reply
      .header('content-type', kind === 'fhir' ? 'application/fhir+ndjson' : 'application/zip')
      .header('content-length', info.size)
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(createReadStream(path))
  })

  app.post('/api/data/delete-all', deleting, async (req) => {
    const who = actingMember(req)
    const { confirmName, password } = parse(deleteAllDataInput, req.body)
    return deleteAllData({
      db,
      auth,
      headers: fromNodeHeaders(req.headers),
      hospitalId: who.hospitalId,
      userId: who.userId,
      confirmName,
      password,
    })
  })
}
