import { z } from 'zod'

/*
 * The hospital's disk quota (issue 39, docs/decisions/045-storage-quota.md): one quota over
 * every byte the hospital stores.
 *   GET /api/storage/usage   every member -> StorageUsage
 * An upload, import or export that would go over it is refused with 413 STORAGE_QUOTA_EXCEEDED.
 */

/** What counts toward the quota. */
export const storageKinds = [
  'attachments',
  'backupUploads',
  'exports',
  'imports',
  'recordings',
] as const
export type StorageKind = (typeof storageKinds)[number]

export const storageKindLabels: Record<StorageKind, string> = {
  attachments: 'Support ticket attachments',
  backupUploads: 'Backup files uploaded to restore',
  exports: 'Data exports',
  imports: 'Lead import files',
  recordings: 'Call recordings',
}

export const storageUsage = z.object({
  /** The hospital's quota in bytes (by plan, or the operator's STORAGE_QUOTA_MB*). */
  limitBytes: z.number().int().nonnegative(),
  /** Bytes stored now, all kinds together. */
  usedBytes: z.number().int().nonnegative(),
  kinds: z.array(z.object({ kind: z.enum(storageKinds), bytes: z.number().int().nonnegative() })),
})
export type StorageUsage = z.infer<typeof storageUsage>

const KB = 1024
const MB = 1024 * KB
const GB = 1024 * MB

/** 0 bytes, 12 KB, 312 MB, 1.9 GB, 2 GB: sizes as people read them (binary units). */
export function formatStorageBytes(bytes: number): string {
  const one = (value: number, unit: string) => {
    const rounded = value >= 100 ? Math.round(value) : Math.round(value * 10) / 10
    return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)} ${unit}`
  }
  if (bytes >= GB) return one(bytes / GB, 'GB')
  if (bytes >= MB) return one(bytes / MB, 'MB')
  if (bytes >= KB) return one(bytes / KB, 'KB')
  return `${bytes} bytes`
}

/** The 413's message: the limit and the usage, and what the person can do. */
export function storageQuotaMessage(usedBytes: number, limitBytes: number): string {
  return `This hospital has used ${formatStorageBytes(usedBytes)} of its ${formatStorageBytes(limitBytes)} storage, and this would go over it. Remove attachments or files you no longer need (Settings → Data shows what uses the space), or ask your admin about a larger plan.`
}
