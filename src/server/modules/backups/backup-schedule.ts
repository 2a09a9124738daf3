import { eq } from 'drizzle-orm'
import { backupFrequencyMs } from '../../../shared/schemas/backup'
import type { AppDb } from '../../db/client'
import { backupConfigurations } from '../../db/schema/backups'
import { hospitals } from '../../db/schema/hospitals'
import { hospitalSettings, hospitalSettingsDefaults } from '../../db/schema/settings'
import { withPlatform, withTenant } from '../../db/tenant'
import type { JobLog } from '../../jobs/registry'
import { sqlCode } from './backup-archive'
import { startRunInTx } from './backup-run.service'
import { BACKUP_RUN_JOB, runningConfigIds, silentLog } from './backups.service'

// Backups' schedule (issue 29, docs/decisions/039): the worker's minute tick. Retention (the
// hourly clean-up) is backup-retention.ts.

/**
 * The scheduler's tick (every minute, one job per minute across instances): for each hospital
 * with automatic backups on, each active configuration whose last run is a frequency ago (or
 * that never ran) gets one run. After downtime a configuration runs once, not once per missed
 * slot; its job's dedupe key (configuration and the last run it follows) and the one-running
 * index keep two ticks from starting it twice.
 */
export async function scheduleDueBackups(
  db: AppDb,
  now = new Date(),
  log: JobLog = silentLog,
): Promise<number> {
  const list = await withPlatform(db, (tx) =>
    tx.select({ id: hospitals.id }).from(hospitals).orderBy(hospitals.id),
  )
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
      // Another instance started the same run a moment ago: nothing to do. Any other failure
      // is this hospital's alone: logged, and the next hospitals are still scheduled.
      if (sqlCode(error) !== '23505') {
        log.error({ err: error, hospitalId }, 'backup schedule: hospital skipped')
      }
    }
  }
  return started
}
