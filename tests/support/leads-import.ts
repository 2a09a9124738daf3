import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { AppDb } from '../../src/server/db/client'
import { withPlatform } from '../../src/server/db/tenant'
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
