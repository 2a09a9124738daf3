import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { uuidParam } from '../../../shared/schemas/common'
import {
  csvLine,
  IMPORT_FAILED_MESSAGE,
  importMapping,
  type ImportProgress,
} from '../../../shared/schemas/lead-import'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { enqueue, getJob } from '../../jobs/queue'
import { registerHandler } from '../../jobs/registry'
import { type ImportPayload, LEAD_IMPORT_JOB, runLeadImport } from './leads.import'
import { errorsPath } from './leads.import-files'
import {
  claimImportSlot,
  importLimits,
  importsInFlight,
  tooManyImports,
} from './leads.import-limits'
import { missingColumns, readHeader } from './leads.import-rows'
import { asState, readState } from './leads.import-state'
import { saveUpload } from './leads.import-upload'

let handlerRegistered = false

/** The import job's handler, once per process (any instance that serves imports can run them). */
export function registerLeadImportJob(): void {
  if (handlerRegistered) return
  handlerRegistered = true
  registerHandler(LEAD_IMPORT_JOB, runLeadImport)
}

const importQuery = z.strictObject({
  mapping: z.string({ message: 'mapping is required' }).max(5000),
})

function readMapping(text: string) {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new AppError('VALIDATION', 'Invalid input: mapping: must be JSON', [
      { path: 'mapping', message: 'Must be JSON' },
    ])
  }
  return parse(importMapping, value, 'mapping')
}

/**
 * POST /api/leads/import (text/csv body, ?mapping=JSON) → 202 { jobId }; GET …/:jobId →
 * progress; GET …/:jobId/errors.csv → the row error report. Only this scope parses text/csv:
 * the rest of the API stays JSON-only (415).
 */
export function leadImportRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  registerLeadImportJob()
  const importing = { config: requirePermission('leads:import') }

  void app.register(async (scope) => {
    // The body stays a stream; the route writes it to a file under the size cap.
    // Anything else (JSON, forms, text/plain) is a 415 before the body or the session is read.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('text/csv', (_req, payload, done) => done(null, payload))

    scope.post('/api/leads/import', importing, async (req, reply) => {
      const who = actingMember(req)
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
      if (type !== 'text/csv') {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as text/csv')
      }
      const { mapping: mappingText } = parse(importQuery, req.query, 'query')
      const mapping = readMapping(mappingText)
      const body = req.body as NodeJS.ReadableStream | undefined
      if (!body || typeof body.pipe !== 'function') {
        throw new AppError('VALIDATION', 'Send the CSV file as the request body')
      }
      // Quotas first, before a byte of the file is stored (the count is checked again, under a
      // lock, in the transaction that enqueues).
      const limits = importLimits()
      const inFlight = await withTenant(db, who, (tx) =>
        importsInFlight(tx, who.hospitalId, LEAD_IMPORT_JOB),
      )
      if (inFlight >= limits.maxInFlight) throw tooManyImports(limits.maxInFlight)
      let upload: { fileId: string; path: string }
      try {
        upload = await saveUpload(body, who.hospitalId, limits.maxHospitalBytes)
      } catch (error) {
        // Refused part-way: the rest of the body is not read, so the connection cannot be reused.
        if (!(body as Readable).readableEnded) void reply.header('connection', 'close')
        throw error
      }
      const { fileId, path } = upload
      try {
        const header = await readHeader(path)
        if (!header) {
          throw new AppError(
            'VALIDATION',
            'The file is empty: its first row must name the columns (a header row)',
          )
        }
        const missing = missingColumns(header, mapping)
        if (missing.length) {
          throw new AppError(
            'VALIDATION',
            `The file has no column ${missing.map((m) => `"${m}"`).join(', ')}`,
            missing.map((m) => ({ path: 'mapping', message: `No column "${m}" in the file` })),
          )
        }
        const payload: ImportPayload = {
          fileId,
          mapping,
          userId: who.userId,
          impersonatorUserId: who.impersonatorUserId ?? null,
        }
        const job = await withTenant(db, who, async (tx) => {
          await claimImportSlot(tx, who.hospitalId, LEAD_IMPORT_JOB)
          return enqueue(tx, {
            name: LEAD_IMPORT_JOB,
            hospitalId: who.hospitalId,
            payload,
            maxAttempts: 3,
          })
        })
        return await reply.status(202).send({ jobId: job.id })
      } catch (error) {
        await rm(path, { force: true })
        throw error
      }
    })
  })

  app.get('/api/leads/import/:jobId', importing, async (req): Promise<ImportProgress> => {
    const who = actingMember(req)
    const { id: jobId } = parse(uuidParam, { id: (req.params as { jobId: string }).jobId }, 'id')
    const job = await getJob(db, jobId, who.hospitalId)
    if (!job || job.name !== LEAD_IMPORT_JOB) throw new AppError('NOT_FOUND', 'Import not found')
    // The checkpoint of the last committed batch (a state file for imports begun before it).
    const state = asState(job.checkpoint) ?? (await readState(who.hospitalId, jobId))
    const result = (job.result ?? null) as Partial<ImportProgress> | null
    const counts = {
      created: result?.created ?? state?.created ?? 0,
      merged: result?.merged ?? state?.merged ?? 0,
      failed: result?.failed ?? state?.failed ?? 0,
    }
    const done = state?.records ?? job.progress?.done ?? 0
    const total = state?.total ?? job.progress?.total ?? 0
    if (job.status === 'done') {
      return {
        status: 'done',
        done,
        total: Math.max(done, total),
        ...counts,
        message: result?.message ?? null,
      }
    }
    if (job.status === 'dead') {
      return {
        status: 'failed',
        done,
        total,
        ...counts,
        // Never last_error: a failed statement's text can carry a batch's names and phones.
        message: state?.failure ?? IMPORT_FAILED_MESSAGE,
      }
    }
    return {
      status: job.status === 'queued' ? 'queued' : 'running',
      done,
      total,
      ...counts,
      message: null,
    }
  })

  app.get('/api/leads/import/:jobId/errors.csv', importing, async (req, reply) => {
    const who = actingMember(req)
    const { id: jobId } = parse(uuidParam, { id: (req.params as { jobId: string }).jobId }, 'id')
    const job = await getJob(db, jobId, who.hospitalId)
    if (!job || job.name !== LEAD_IMPORT_JOB) throw new AppError('NOT_FOUND', 'Import not found')
    const path = errorsPath(who.hospitalId, jobId)
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="lead-import-errors.csv"')
      .header('cache-control', 'no-store')
    const exists = await stat(path).then(
      () => true,
      () => false,
    )
    if (!exists) return reply.send(csvLine(['Row', 'Column', 'Error']))
    return reply.send(createReadStream(path))
  })
}
