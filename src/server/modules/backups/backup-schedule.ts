import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import { backupFrequencyMs } from '../../../shared/schemas/backup'
import type { AppDb } from '../../db/client'
import { backupConfigurations, backupLogs } from '../../db/schema/backups'
import { hospitals } from '../../db/schema/hospitals'
import { hospitalSettings, hospitalSettingsDefaults } from '../../db/schema/settings'
import { withPlatform, withTenant } from '../../db/tenant'
import { decryptSecret } from '../../secrets/secrets'
import { getStorage } from '../../storage/storage'
import { sqlCode } from './backup-archive'
import { deleteFromDrive } from './drive'
import { startRunInTx } from './backup-run.service'
import { BACKUP_RUN_JOB, driveContext, runningConfigIds } from './backups.service'

// Backups' schedule and retention (issue 29, docs/decisions/039): the worker's minute tick and
// the hourly clean-up, apart from the configurations, runs and restores of backups.service.ts.

/**
 * The scheduler's tick (every minute, one job per minute across instances): for each hospital
 * with automatic backups on, each active configuration whose last run is a frequency ago (or
 * that never ran) gets one run. After downtime a configuration runs once, not once per missed
 * slot; its job's dedupe key (configuration and the last run it follows) and the one-running
 * index keep two ticks from starting it twice.
 */
export async function scheduleDueBackups(db: AppDb, now = new Date()): Promise<number> {
  const list = await withPlatform(db, (tx) => tx.select({ id: hospitals.id }).from(hospitals))
  let started = 0
  for (const { id: hospitalId } of list) {
    try {
      started += await withTenant(db, { hospitalId, userId: null }, async (tx) => {
        const [settings] = await tx
          .select({ auto: hospitalSettings.autoBackups })
          .from(hospitalSettings)
        if (!(settings?.auto ?? hospitalSettingsDefaults.autoBackups)) return 0
        const configs = await tx
          .select()
          .from(backupConfigurations)
          .where(eq(backupConfigurations.isActive, true))
        const running = await runningConfigIds(tx)
        let n = 0
        for (const c of configs) {
          if (running.has(c.id)) continue
          const last = c.lastRunAt?.getTime()
          if (last !== undefined && last + backupFrequencyMs[c.frequency] > now.getTime()) continue
          await startRunInTx(
            tx,
            { hospitalId, userId: null },
            {
              configurationId: c.id,
              backupType: c.backupType,
              dataTypes: c.dataTypes,
              origin: 'scheduled',
              dedupeKey: `${BACKUP_RUN_JOB}:${c.id}:${c.lastRunAt?.toISOString() ?? 'first'}`,
            },
          )
          n += 1
        }
        return n
      })
    } catch (error) {
      // Another instance started the same run a moment ago: nothing to do.
      if (sqlCode(error) !== '23505') throw error
    }
  }
  return started
}

/**
 * Retention: each hospital's backup files older than its backup retention days (Settings →
 * Data, default 30) are deleted from storage and from Google Drive; the log rows stay.
 */
export async function pruneOldBackups(db: AppDb, now = new Date()): Promise<number> {
  const list = await withPlatform(db, (tx) => tx.select({ id: hospitals.id }).from(hospitals))
  let removed = 0
  for (const { id: hospitalId } of list) {
    const old = await withTenant(db, { hospitalId, userId: null }, async (tx) => {
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
            isNull(backupLogs.filesDeletedAt),
            sql`(${backupLogs.storageKey} is not null or ${backupLogs.driveFileId} is not null)`,
          ),
        )
    })
    for (const { log, tokenEnc } of old) {
      if (log.storageKey) await getStorage().delete(log.storageKey)
      if (log.driveFileId && tokenEnc) {
        await deleteFromDrive(decryptSecret(tokenEnc, driveContext(hospitalId)), log.driveFileId)
      }
      await withTenant(db, { hospitalId, userId: null }, (tx) =>
        tx
          .update(backupLogs)
          .set({ filesDeletedAt: now, storageKey: null })
          .where(eq(backupLogs.id, log.id)),
      )
      removed += 1
    }
  }
  return removed
}
