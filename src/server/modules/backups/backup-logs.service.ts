import { desc } from 'drizzle-orm'
import type { BackupLog } from '../../../shared/schemas/backup'
import type { AppDb } from '../../db/client'
import { backupLogs } from '../../db/schema/backups'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { findLog, type LogRow, logView, type Who } from './backups.service'

// Backup logs: the list, one log, and a backup file's download.

export async function listLogs(db: AppDb, who: Who, limit: number): Promise<BackupLog[]> {
  return withTenant(db, who, async (tx) => {
    const rows = await tx
      .select()
      .from(backupLogs)
      .orderBy(desc(backupLogs.startedAt), desc(backupLogs.id))
      .limit(limit)
    return rows.map(logView)
  })
}

export async function getLog(db: AppDb, who: Who, id: string): Promise<BackupLog> {
  return withTenant(db, who, async (tx) => logView(await findLog(tx, id)))
}

/** The stored file of a successful backup for download; 404 when missing or removed. */
export async function downloadableLog(db: AppDb, who: Who, id: string): Promise<LogRow> {
  return withTenant(db, who, async (tx) => {
    const row = await findLog(tx, id)
    if (!logView(row).downloadable || !row.storageKey) {
      throw new AppError('NOT_FOUND', 'This backup file is not kept any more')
    }
    await recordAudit(tx, {
      hospitalId: who.hospitalId,
      actorUserId: who.userId,
      impersonatorUserId: who.impersonatorUserId,
      action: 'backup.downloaded',
      entityType: 'backup_log',
      entityId: row.id,
      summary: `Downloaded a backup file (${row.dataSize ?? 0} bytes)`,
    })
    return row
  })
}
