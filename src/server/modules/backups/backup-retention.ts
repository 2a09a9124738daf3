import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { backupConfigurations, backupLogs } from '../../db/schema/backups'
import { hospitals } from '../../db/schema/hospitals'
import { hospitalSettings, hospitalSettingsDefaults } from '../../db/schema/settings'
import { withPlatform, withTenant } from '../../db/tenant'
import type { JobLog } from '../../jobs/registry'
import { decryptSecret } from '../../secrets/secrets'
import { getStorage } from '../../storage/storage'
import { driveContext, silentLog } from './backups.service'
import { DriveError, deleteFromDrive } from './drive'

// Backups' retention (issue 29; per-hospital resilience, issue 39): the hourly clean-up.

export const DRIVE_CONFIG_GONE =
  'The Google Drive configuration of this backup is gone; delete its copy in Google Drive by hand.'
const DRIVE_DELETE_FAILED = 'Google Drive could not delete the old copy; it is retried every hour.'

type Who = { hospitalId: string; userId: null }

/** The hospital's backups past its retention whose local file or Drive copy is still kept. */
async function expiredLogs(db: AppDb, who: Who, now: Date) {
  return withTenant(db, who, async (tx) => {
    const [settings] = await tx
      .select({ days: hospitalSettings.backupRetentionDays })
      .from(hospitalSettings)
    const days = settings?.days ?? hospitalSettingsDefaults.backupRetentionDays
    const before = new Date(now.getTime() - days * 86_400_000)
    return tx
      .select({ log: backupLogs, tokenEnc: backupConfigurations.gdriveAccessTokenEnc })
      .from(backupLogs)
      .leftJoin(
        backupConfigurations,
        and(
          eq(backupConfigurations.hospitalId, backupLogs.hospitalId),
          eq(backupConfigurations.id, backupLogs.configurationId),
        ),
      )
      .where(
        and(
          lt(backupLogs.startedAt, before),
          or(
            sql`${backupLogs.storageKey} is not null`,
            and(sql`${backupLogs.driveFileId} is not null`, isNull(backupLogs.driveDeletedAt)),
          ),
        ),
      )
  })
}

type Expired = Awaited<ReturnType<typeof expiredLogs>>[number]

/**
 * One expired backup: the local file first, recorded at once (the log stops offering the
 * download), then the Drive copy, recorded on its own (drive_deleted_at, or the reason in
 * drive_delete_error, retried next hour). Never throws for Drive: the caller goes on.
 */
async function expire(db: AppDb, who: Who, item: Expired, now: Date, log: JobLog) {
  const { log: row, tokenEnc } = item
  const set = (values: Partial<typeof backupLogs.$inferInsert>) =>
    withTenant(db, who, (tx) => tx.update(backupLogs).set(values).where(eq(backupLogs.id, row.id)))
  if (row.storageKey) {
    await getStorage().delete(row.storageKey)
    await set({ filesDeletedAt: now, storageKey: null })
  }
  if (!row.driveFileId || row.driveDeletedAt) return
  if (!tokenEnc) {
    await set({ driveDeleteError: DRIVE_CONFIG_GONE })
    return
  }
  try {
    await deleteFromDrive(decryptSecret(tokenEnc, driveContext(who.hospitalId)), row.driveFileId)
    await set({ driveDeletedAt: now, driveDeleteError: null })
  } catch (error) {
    log.warn({ err: error, hospitalId: who.hospitalId, logId: row.id }, 'retention: Drive delete')
    const message = error instanceof DriveError ? error.message : DRIVE_DELETE_FAILED
    await set({ driveDeleteError: message.slice(0, 1000) })
  }
}

/**
 * Retention: each hospital's backup files older than its backup retention days (Settings →
 * Data, default 30) are deleted from storage and from Google Drive; the log rows stay. One
 * hospital's failure, or one backup's, is logged (and a Drive failure recorded on its log) and
 * the rest go on. Returns the backups handled without a failure.
 */
export async function pruneOldBackups(
  db: AppDb,
  now = new Date(),
  log: JobLog = silentLog,
): Promise<number> {
  const list = await withPlatform(db, (tx) =>
    tx.select({ id: hospitals.id }).from(hospitals).orderBy(hospitals.id),
  )
  let removed = 0
  for (const { id: hospitalId } of list) {
    const who: Who = { hospitalId, userId: null }
    let old: Expired[]
    try {
      old = await expiredLogs(db, who, now)
    } catch (error) {
      log.error({ err: error, hospitalId }, 'retention: hospital skipped')
      continue
    }
    for (const item of old) {
      try {
        await expire(db, who, item, now, log)
        removed += 1
      } catch (error) {
        log.error({ err: error, hospitalId, logId: item.log.id }, 'retention: backup skipped')
      }
    }
  }
  return removed
}
