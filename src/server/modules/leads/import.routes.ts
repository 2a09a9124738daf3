import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { uuidParam } from '../../../shared/schemas/common'
import {
  csvLine,
  IMPORT_MAX_BYTES,
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
import {
  errorsPath,
  hospitalDir,
  type ImportPayload,
  LEAD_IMPORT_JOB,
  pruneImportFiles,
  readState,
  runLeadImport,
} from './leads.import'
import { missingColumns, readHeader } from './leads.import-rows'

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

/** Counts bytes as they pass and fails the stream past the cap. */
function byteCap(limit: number) {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length
      if (seen > limit) {
        callback(
          new AppError(
            'PAYLOAD_TOO_LARGE',
            `The file is larger than ${limit / 1024 / 1024} MB; split it into smaller files`,
          ),
        )
        return
      }
      callback(null, chunk)
    },
  })
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
      const fileId = randomUUID()
      const dir = hospitalDir(who.hospitalId)
      const path = join(dir, `${fileId}.csv`)
      await mkdir(dir, { recursive: true })
      try {
        await pipeline(body, byteCap(IMPORT_MAX_BYTES), createWriteStream(path, { mode: 0o600 }))
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
        const job = await withTenant(db, who, (tx) =>
          enqueue(tx, {
            name: LEAD_IMPORT_JOB,
            hospitalId: who.hospitalId,
            payload,
            maxAttempts: 3,
          }),
        )
        // Now and then is enough: each new import clears its hospital's month-old files.
        pruneImportFiles(who.hospitalId).catch((err: unknown) =>
          req.log.warn({ err }, 'pruning old import files failed'),
        )
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
    const state = await readState(who.hospitalId, jobId)
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
        message: job.lastError ?? 'The import failed',
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
