import { createHash } from 'node:crypto'
import { parse } from 'csv-parse/sync'
import type { FastifyInstance } from 'fastify'
import { unzipSync } from 'fflate'
import type { ExportStatus } from '../../src/shared/schemas/data-export'
import { call } from './leads'

/** Helpers of the Settings → Data test files (tests/integration/data-export*.api.test.ts). */

export async function startExport(
  app: FastifyInstance,
  cookie: string,
  kind: 'data' | 'fhir' | 'backup',
): Promise<string> {
  const res = await call(app, cookie, 'POST', '/api/data/exports', { kind })
  if (res.statusCode !== 202) throw new Error(`export: ${res.statusCode} ${res.body}`)
  return (res.json() as { jobId: string }).jobId
}

/** Polls the export's progress until it is done or failed; returns every status seen. */
export async function waitForExport(
  app: FastifyInstance,
  cookie: string,
  jobId: string,
): Promise<ExportStatus[]> {
  const seen: ExportStatus[] = []
  for (let i = 0; i < 6000; i++) {
    const res = await call(app, cookie, 'GET', `/api/data/exports/${jobId}`)
    if (res.statusCode !== 200) throw new Error(`status: ${res.statusCode} ${res.body}`)
    const status = res.json() as ExportStatus
    seen.push(status)
    if (status.status === 'done' || status.status === 'failed') return seen
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the export did not finish')
}

export async function download(app: FastifyInstance, cookie: string, jobId: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/data/exports/${jobId}/download`,
    headers: { cookie },
  })
  return { res, bytes: res.rawPayload }
}

export interface ManifestFile {
  name: string
  source: string
  rows: number
  bytes: number
  sha256: string
}

export interface Unzipped {
  files: Record<string, Uint8Array>
  manifest: {
    schemaVersion: number
    hospital: { id: string }
    totalRows: number
    files: ManifestFile[]
  }
  /** A CSV file's records (header row first), parsed with its BOM removed. */
  csv: (name: string) => string[][]
}

export function unzip(bytes: Buffer): Unzipped {
  const files = unzipSync(new Uint8Array(bytes))
  const text = (name: string) => {
    const file = files[name]
    if (!file) throw new Error(`no ${name} in the zip`)
    return Buffer.from(file).toString('utf8')
  }
  return {
    files,
    manifest: JSON.parse(text('manifest.json')) as Unzipped['manifest'],
    csv: (name) => parse(text(name), { bom: true, relax_column_count: false }),
  }
}

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex')
