import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { AppDb } from '../../src/server/db/client'
import { withPlatform } from '../../src/server/db/tenant'
import { fencedTenant } from '../../src/server/jobs/fence'
import type { ClaimedJob, JobContext } from '../../src/server/jobs/registry'
import { LEAD_IMPORT_JOB } from '../../src/server/modules/leads/leads.import'
import { importProgress, type ImportProgress } from '../../src/shared/schemas/lead-import'
import { call } from './leads'
import { HOST, ORIGIN } from './login'

/** Helpers of the import test files (tests/integration/leads-import*.test.ts). */

export const standardMapping = { name: 'Name', phone: 'Phone' }

export function uploadCsv(
  app: FastifyInstance,
  cookie: string,
  body: string | Buffer | NodeJS.ReadableStream,
  mapping: Record<string, string> = standardMapping,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/api/leads/import?mapping=${encodeURIComponent(JSON.stringify(mapping))}`,
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'text/csv', cookie },
    payload: body,
  })
}

export async function getProgress(
  app: FastifyInstance,
  cookie: string,
  jobId: string,
): Promise<{ status: number; body: string; progress: ImportProgress | null }> {
  const res = await call(app, cookie, 'GET', `/api/leads/import/${jobId}`)
  return {
    status: res.statusCode,
    body: res.body,
    progress: res.statusCode === 200 ? importProgress.strict().parse(res.json()) : null,
  }
}

export async function waitForImport(
  app: FastifyInstance,
  cookie: string,
  jobId: string,
): Promise<ImportProgress> {
  for (let i = 0; i < 12_000; i++) {
    const { progress, body } = await getProgress(app, cookie, jobId)
    if (!progress) throw new Error(body)
    if (progress.status === 'done' || progress.status === 'failed') return progress
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('import did not finish')
}

/** Ends every import (as done) so that the in-flight quota starts from zero. */
export async function finishAllImports(db: AppDb): Promise<void> {
  await withPlatform(db, (tx) =>
    tx.execute(
      sql`update jobs set status = 'done', finished_at = now(), locked_by = null, locked_until = null
          where name = ${LEAD_IMPORT_JOB} and status in ('queued', 'running', 'failed')`,
    ),
  )
}

interface TakenRow {
  id: string
  name: string
  hospital_id: string | null
  payload: unknown
  attempts: number
  max_attempts: number
  run_at: Date | string
  checkpoint: unknown
}

/**
 * Claims the job for `workerId` as a worker's claim does (running, the next attempt, leased):
 * another worker that held it has lost its lease from now on. Returns the job as its handler
 * sees it, with the checkpoint the last committed batch left.
 */
export async function takeJob(db: AppDb, jobId: string, workerId: string): Promise<ClaimedJob> {
  const result = await withPlatform(db, (tx) =>
    tx.execute(
      sql`update jobs set status = 'running', locked_by = ${workerId}, attempts = attempts + 1,
            locked_until = now() + interval '10 minutes', updated_at = now()
          where id = ${jobId}
          returning id, name, hospital_id, payload, attempts, max_attempts, run_at, checkpoint`,
    ),
  )
  const row = (result as unknown as { rows: TakenRow[] }).rows[0]
  if (!row) throw new Error(`no job ${jobId}`)
  return {
    id: row.id,
    name: row.name,
    hospitalId: row.hospital_id,
    payload: row.payload,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: new Date(row.run_at),
    checkpoint: row.checkpoint ?? null,
  }
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }

/**
 * The context the worker gives a handler (ctx.withTenant and ctx.checkpoint fenced by the
 * job's lease, jobs/fence.ts), for driving one attempt by hand. `around` wraps each
 * withTenant call (a test makes one fail before or after its commit); `onProgress` runs after
 * each committed batch.
 */
export function jobContext(
  db: AppDb,
  job: ClaimedJob,
  workerId: string,
  options: {
    onProgress?: (done: number) => Promise<void>
    around?: <T>(call: number, run: () => Promise<T>) => Promise<T>
  } = {},
): JobContext {
  const controller = new AbortController()
  const fenced = fencedTenant({
    db,
    job,
    fence: { id: job.id, workerId, attempts: job.attempts },
    leaseMs: 600_000,
    onLost: () => controller.abort(new Error('lease lost')),
  })
  let calls = 0
  return {
    db,
    signal: controller.signal,
    log: silent,
    progress: async (done) => {
      await options.onProgress?.(done)
    },
    checkpoint: fenced.checkpoint,
    withTenant: (fn) => {
      calls++
      const run = () => fenced.withTenant(fn)
      return options.around ? options.around(calls, run) : run()
    },
  }
}
