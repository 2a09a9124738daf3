import { resolve } from 'node:path'
import { and, eq, isNotNull } from 'drizzle-orm'
import {
  type BackupDataType,
  backupDataTypes,
  type BackupLog,
} from '../../../shared/schemas/backup'
import type { Tx } from '../../db/client'
import type { JobLog } from '../../jobs/registry'
import { backupLogs } from '../../db/schema/backups'
import { AppError } from '../../http/app-error'
import { tenantKey } from '../../storage/storage'
import { sqlCode } from './backup-archive'
import { BackupFileError } from './backup-crypto'
import { DriveError } from './drive'

/*
 * Backups (issue 29, docs/decisions/039-backups.md): what the use cases share. Each use case
 * has its file: backup-configurations, backup-run, backup-logs, backup-uploads and
 * backup-restore (.service.ts), backup-schedule.ts and backup-retention.ts.
 */

export const BACKUP_RUN_JOB = 'backup.run'
export const BACKUP_RESTORE_JOB = 'backup.restore'
export const BACKUP_TICK_JOB = 'backup.tick'
export const BACKUP_RETENTION_JOB = 'backup.retention'

export const BACKUP_FAILED_MESSAGE =
  'The backup failed. Try again, or contact support if it keeps failing.'
export const RESTORE_FAILED_MESSAGE =
  'The restore failed and nothing was changed. Try again, or contact support if it keeps failing.'
export const ALREADY_RUNNING = 'A backup of this configuration is already running'
export const RESTORE_RUNNING = 'A restore is already running for this hospital'
/** The largest backup file kept or accepted. */
export const BACKUP_MAX_BYTES = 20 * 1024 * 1024 * 1024

export interface Who {
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

export const driveContext = (hospitalId: string) => `backup-gdrive:${hospitalId}`
export const backupKey = (hospitalId: string, logId: string) =>
  tenantKey(hospitalId, 'backups', logId)
export const uploadKey = (hospitalId: string, id: string) =>
  tenantKey(hospitalId, 'backup-uploads', id)
export const tmpDir = () => resolve(process.env.DATA_DIR ?? './data', 'backups-tmp')
export const iso = (d: Date | null) => (d ? d.toISOString() : null)
export const orderTypes = (list: readonly string[]): BackupDataType[] =>
  backupDataTypes.filter((t) => list.includes(t))

export type LogRow = typeof backupLogs.$inferSelect

export function logView(row: LogRow): BackupLog {
  return {
    id: row.id,
    configurationId: row.configurationId,
    status: row.status,
    backupType: row.backupType,
    dataTypes: orderTypes(row.dataTypes),
    startedAt: row.startedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    dataSize: row.dataSize,
    recordCount: row.recordCount,
    progress: row.progress,
    error: row.error,
    downloadable: row.status === 'success' && Boolean(row.storageKey) && !row.filesDeletedAt,
  }
}

export async function runningConfigIds(tx: Tx): Promise<Set<string>> {
  const rows = await tx
    .select({ id: backupLogs.configurationId })
    .from(backupLogs)
    .where(and(eq(backupLogs.status, 'running'), isNotNull(backupLogs.configurationId)))
  return new Set(rows.map((r) => r.id as string))
}

export async function findLog(tx: Tx, id: string): Promise<LogRow> {
  const [row] = await tx.select().from(backupLogs).where(eq(backupLogs.id, id))
  if (!row) throw new AppError('NOT_FOUND', 'Backup not found')
  return row
}

export function backupFileName(log: { startedAt: Date; id: string }): string {
  const stamp = log.startedAt.toISOString().slice(0, 19).replace(/[:T]/g, '-')
  return `arogya-backup-${stamp}-${log.id.slice(0, 8)}.arogyabackup`
}

/** A unique violation (a second run or restore started at once) as a 409 with `message`. */
export async function conflictAsAppError<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof AppError) && sqlCode(error) === '23505') {
      throw new AppError('CONFLICT', message)
    }
    throw error
  }
}

/** What a failed job tells the admin: its own message for a bad file or Drive, else `fallback`. */
export const publicMessage = (error: unknown, fallback: string) =>
  error instanceof BackupFileError || error instanceof DriveError
    ? error.message.slice(0, 1000)
    : fallback

/** A job log that says nothing (scheduled work called outside a job, e.g. by a test). */
export const silentLog: JobLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
}
