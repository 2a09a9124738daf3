import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { PlanId } from '../../shared/plans'
import {
  type StorageKind,
  storageKinds,
  storageQuotaMessage,
  type StorageUsage,
} from '../../shared/schemas/storage'
import type { AppDb, Tx } from '../db/client'
import { backupUploads } from '../db/schema/backups'
import { calls } from '../db/schema/calls'
import { hospitals } from '../db/schema/hospitals'
import { supportTicketAttachments } from '../db/schema/support-tickets'
import { withPlatform, withTenant } from '../db/tenant'
import { AppError, notFound } from '../http/app-error'
import { exportDir } from '../modules/data-export/export-files'
import { hospitalDir as importDir } from '../modules/leads/leads.import-files'
import { quotaEnvShape } from './storage-env'

/*
 * One disk quota per hospital over every byte it stores (issue 39, docs/decisions/045):
 * support-ticket attachments and backup uploads (rows with their size, in the storage module),
 * data exports (DATA_DIR/exports/<hospital>), lead-import files (DATA_DIR/imports/<hospital>)
 * and call recordings (calls.recording_bytes).
 * Usage is derived each time from what records the files (the rows' sizes; the folders, which
 * are the only record of exports, import uploads, error reports and partial files), never a
 * counter that could drift. Nothing here is process-local: the decisions that must not race
 * are taken under a per-hospital transaction-scoped advisory lock (settleStorageQuota).
 */

const MB = 1024 * 1024

/** Each plan's default quota in MB (1 MB = 1024 × 1024 bytes). */
export const PLAN_STORAGE_MB: Record<PlanId, number> = {
  starter: 2 * 1024,
  professional: 10 * 1024,
  enterprise: 50 * 1024,
  hospital_enterprise: 200 * 1024,
  custom_enterprise: 500 * 1024,
}

const quotaEnv = z.object(quotaEnvShape)

/**
 * The quota of a hospital on this plan, in bytes: STORAGE_QUOTA_MB_<PLAN>, else
 * STORAGE_QUOTA_MB, else the plan's default (an unknown plan: Starter's). Read on each call,
 * so an operator's change needs only a restart (loadEnv refuses bad values at start-up).
 */
export function quotaBytesForPlan(
  plan: string,
  source: Record<string, string | undefined> = process.env,
): number {
  const keys = Object.keys(quotaEnvShape)
  const picked = Object.fromEntries(keys.map((k) => [k, source[k] === '' ? undefined : source[k]]))
  const env = quotaEnv.parse(picked) as Record<string, number | undefined>
  const own = env[`STORAGE_QUOTA_MB_${plan.toUpperCase()}`]
  const fallback = PLAN_STORAGE_MB[plan as PlanId] ?? PLAN_STORAGE_MB.starter
  return (own ?? env.STORAGE_QUOTA_MB ?? fallback) * MB
}

/** The hospital's quota in bytes, by its plan; 404 for an unknown hospital. */
export async function hospitalQuotaBytes(db: AppDb, hospitalId: string): Promise<number> {
  const [h] = await withPlatform(db, (tx) =>
    tx.select({ plan: hospitals.plan }).from(hospitals).where(eq(hospitals.id, hospitalId)),
  )
  if (!h) throw notFound('Hospital')
  return quotaBytesForPlan(h.plan)
}

/** The 413: the limit and the usage, for the person who tried. */
export function storageQuotaExceeded(usedBytes: number, limitBytes: number): AppError {
  return new AppError('STORAGE_QUOTA_EXCEEDED', storageQuotaMessage(usedBytes, limitBytes))
}

/** Bytes of the files directly in dir (0 when there is none); partial files count too. */
async function folderBytes(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[])
  let total = 0
  for (const name of names) {
    const info = await stat(join(dir, name)).catch(() => null)
    if (info?.isFile()) total += info.size
  }
  return total
}

async function sumSize(tx: Tx, hospitalId: string, kind: 'attachments' | 'backupUploads') {
  const table = kind === 'attachments' ? supportTicketAttachments : backupUploads
  const [row] = await tx
    .select({ bytes: sql<string>`coalesce(sum(${table.size}), 0)` })
    .from(table)
    .where(eq(table.hospitalId, hospitalId))
  return Number(row?.bytes ?? 0)
}

/** The call recordings copied into storage (issue 41): calls.recording_bytes, index-only. */
async function recordingBytes(tx: Tx, hospitalId: string) {
  const [row] = await tx
    .select({ bytes: sql<string>`coalesce(sum(${calls.recordingBytes}), 0)` })
    .from(calls)
    .where(and(eq(calls.hospitalId, hospitalId), isNotNull(calls.recordingKey)))
  return Number(row?.bytes ?? 0)
}

/**
 * Bytes per kind, in a tenant transaction of the hospital: the rows' sizes (an index-only sum,
 * drizzle/0037_storage_quota.sql) and the export and import folders.
 */
export async function usageByKind(
  tx: Tx,
  hospitalId: string,
): Promise<Record<StorageKind, number>> {
  return {
    attachments: await sumSize(tx, hospitalId, 'attachments'),
    backupUploads: await sumSize(tx, hospitalId, 'backupUploads'),
    exports: await folderBytes(exportDir(hospitalId)),
    imports: await folderBytes(importDir(hospitalId)),
    recordings: await recordingBytes(tx, hospitalId),
  }
}

const total = (byKind: Record<StorageKind, number>) =>
  storageKinds.reduce((sum, kind) => sum + byKind[kind], 0)

/** GET /api/storage/usage: the quota, the bytes stored and each kind's share. */
export async function readStorageUsage(db: AppDb, hospitalId: string): Promise<StorageUsage> {
  const limitBytes = await hospitalQuotaBytes(db, hospitalId)
  const byKind = await withTenant(db, { hospitalId, userId: null }, (tx) =>
    usageByKind(tx, hospitalId),
  )
  return {
    limitBytes,
    usedBytes: total(byKind),
    kinds: storageKinds.map((kind) => ({ kind, bytes: byKind[kind] })),
  }
}

/**
 * The last word before a stored file is kept, in the tenant transaction that records it (before
 * its row is inserted): takes the hospital's quota lock (transaction-scoped, so pooler-safe and
 * held until COMMIT), sums the usage again and refuses with 413 when it plus `adding` is over
 * the limit. Two instances recording files at once decide one after the other, each seeing the
 * other's committed row, so committed usage never passes the quota. For a file already in its
 * folder (an export, an import upload), `adding` is 0: the folder counts it.
 */
export async function settleStorageQuota(
  tx: Tx,
  o: { hospitalId: string; limitBytes: number; adding: number },
): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`storage-quota:${o.hospitalId}`}, 0))`,
  )
  const used = total(await usageByKind(tx, o.hospitalId))
  if (used + o.adding > o.limitBytes) {
    throw storageQuotaExceeded(used, o.limitBytes)
  }
}

export interface QuotaRoom {
  hospitalId: string
  limitBytes: number
  /** Usage when the room was measured. */
  usedBytes: number
  /** What may still be stored: a stream's size limit. */
  remainingBytes: number
  /**
   * settleStorageQuota in a transaction of its own, for a file that has no row to insert with
   * it (an import upload, already in its folder: adding 0).
   */
  settleAlone: (adding: number) => Promise<void>
}

/**
 * Before storing anything: the hospital's room. 413 at once when the hospital is at or over its
 * quota, or when `declaredBytes` (a Content-Length) is already more than what is left.
 */
export async function storageRoom(
  db: AppDb,
  hospitalId: string,
  declaredBytes?: number,
): Promise<QuotaRoom> {
  const usage = await readStorageUsage(db, hospitalId)
  const room: QuotaRoom = {
    hospitalId,
    limitBytes: usage.limitBytes,
    usedBytes: usage.usedBytes,
    remainingBytes: Math.max(0, usage.limitBytes - usage.usedBytes),
    settleAlone: (adding) =>
      withTenant(db, { hospitalId, userId: null }, (tx) => settleRoom(tx, room, adding)),
  }
  const declared = declaredBytes !== undefined && Number.isFinite(declaredBytes) ? declaredBytes : 0
  if (room.remainingBytes <= 0 || declared > room.remainingBytes) {
    throw storageQuotaExceeded(room.usedBytes, room.limitBytes)
  }
  return room
}

/** Settles a room's upload in the transaction that records it (see settleStorageQuota). */
export function settleRoom(tx: Tx, room: QuotaRoom, adding: number): Promise<void> {
  return settleStorageQuota(tx, {
    hospitalId: room.hospitalId,
    limitBytes: room.limitBytes,
    adding,
  })
}
