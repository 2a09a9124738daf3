import { and, count, eq, inArray, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { jobs } from '../../db/schema/jobs'
import { importEnv } from '../../env'
import { AppError } from '../../http/app-error'

/**
 * Per-hospital quotas on CSV imports (issue 24, "Quotas that say so"): imports in flight, and
 * the bytes of the hospital's import folder. Set by env (IMPORT_MAX_IN_FLIGHT,
 * IMPORT_MAX_HOSPITAL_BYTES, IMPORT_ERROR_ROWS), read once; tests override them.
 */
export interface ImportLimits {
  /** Imports queued, running or waiting to retry per hospital. */
  maxInFlight: number
  /** Bytes of uploads, error reports and state files in the hospital's import folder. */
  maxHospitalBytes: number
  /** Failed rows listed in full in an error report; the rest are counted by reason. */
  errorRows: number
}

let fromEnv: ImportLimits | undefined
let override: Partial<ImportLimits> = {}

export function importLimits(): ImportLimits {
  if (!fromEnv) {
    const env = importEnv()
    fromEnv = {
      maxInFlight: env.IMPORT_MAX_IN_FLIGHT,
      maxHospitalBytes: env.IMPORT_MAX_HOSPITAL_BYTES,
      errorRows: env.IMPORT_ERROR_ROWS,
    }
  }
  return { ...fromEnv, ...override }
}

/** Tests: other limits until the returned function restores the previous ones. */
export function setImportLimits(limits: Partial<ImportLimits>): () => void {
  const previous = override
  override = { ...override, ...limits }
  return () => {
    override = previous
  }
}

/** Statuses of an import that still needs its upload and counts toward the in-flight quota. */
export const IN_FLIGHT_STATUSES = ['queued', 'running', 'failed'] as const

/** 1.5 MB, 200 MB: sizes as people read them. */
export function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}

export function tooManyImports(max: number): AppError {
  return new AppError(
    'RATE_LIMITED',
    `Your hospital already has ${max} ${max === 1 ? 'import' : 'imports'} in progress. Wait for one to finish, then import again.`,
  )
}

export function hospitalBytesExceeded(max: number): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `Your hospital can keep at most ${megabytes(max)} of import files, and this file would go over it. Wait for the imports in progress to finish, then import again.`,
  )
}

/** Imports of this hospital queued, running or waiting to retry (tenant transaction). */
export async function importsInFlight(tx: Tx, hospitalId: string, jobName: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(jobs)
    .where(
      and(
        eq(jobs.hospitalId, hospitalId),
        eq(jobs.name, jobName),
        inArray(jobs.status, [...IN_FLIGHT_STATUSES]),
      ),
    )
  return Number(row?.n ?? 0)
}

/**
 * In the tenant transaction that enqueues an import: serialises the hospital's enqueues with a
 * transaction-scoped advisory lock (pooler-safe, released at COMMIT), then refuses the import
 * when the hospital has maxInFlight already. Two instances enqueueing at once count one after
 * the other, so never more than maxInFlight are accepted.
 */
export async function claimImportSlot(tx: Tx, hospitalId: string, jobName: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${jobName}:${hospitalId}`}, 0))`,
  )
  const { maxInFlight } = importLimits()
  if ((await importsInFlight(tx, hospitalId, jobName)) >= maxInFlight) {
    throw tooManyImports(maxInFlight)
  }
}
