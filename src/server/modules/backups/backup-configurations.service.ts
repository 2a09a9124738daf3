import { eq, sql } from 'drizzle-orm'
import type {
  BackupConfiguration,
  CreateBackupConfigurationInput,
} from '../../../shared/schemas/backup'
import type { AppDb, Tx } from '../../db/client'
import { backupConfigurations } from '../../db/schema/backups'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { encryptSecret } from '../../secrets/secrets'
import { recordAudit } from '../audit/audit.service'
import { driveContext, iso, orderTypes, runningConfigIds, type Who } from './backups.service'

// Backup configurations (Settings → Data): list, create, pause or resume.

type ConfigRow = typeof backupConfigurations.$inferSelect

function configView(row: ConfigRow, running: boolean): BackupConfiguration {
  return {
    id: row.id,
    backupType: row.backupType,
    frequency: row.frequency,
    dataTypes: orderTypes(row.dataTypes),
    gdriveAccessTokenSet: Boolean(row.gdriveAccessTokenEnc),
    gdriveFolderId: row.gdriveFolderId,
    isActive: row.isActive,
    lastBackup: iso(row.lastBackup),
    running,
    createdAt: row.createdAt.toISOString(),
  }
}

export async function listConfigurations(db: AppDb, who: Who): Promise<BackupConfiguration[]> {
  return withTenant(db, who, async (tx) => {
    const rows = await tx
      .select()
      .from(backupConfigurations)
      .orderBy(backupConfigurations.createdAt, backupConfigurations.id)
    const running = await runningConfigIds(tx)
    return rows.map((r) => configView(r, running.has(r.id)))
  })
}

export async function createConfiguration(
  db: AppDb,
  who: Who,
  input: CreateBackupConfigurationInput,
): Promise<BackupConfiguration> {
  return withTenant(db, who, (tx) => insertConfiguration(tx, who, input))
}

/** createConfiguration inside a tenant transaction (the demo seed's too). */
export async function insertConfiguration(
  tx: Tx,
  who: Who,
  input: CreateBackupConfigurationInput,
): Promise<BackupConfiguration> {
  const drive = input.backupType === 'gdrive'
  const [row] = await tx
    .insert(backupConfigurations)
    .values({
      hospitalId: who.hospitalId,
      backupType: input.backupType,
      frequency: input.frequency,
      dataTypes: orderTypes(input.dataTypes),
      gdriveAccessTokenEnc:
        drive && input.gdriveAccessToken
          ? encryptSecret(input.gdriveAccessToken, driveContext(who.hospitalId))
          : null,
      gdriveFolderId: drive ? input.gdriveFolderId || null : null,
      isActive: input.isActive ?? true,
      createdBy: who.userId,
    })
    .returning()
  if (!row) throw new Error('backup configuration: no row returned')
  await recordAudit(tx, {
    hospitalId: who.hospitalId,
    actorUserId: who.userId,
    impersonatorUserId: who.impersonatorUserId,
    action: 'backup.configuration_created',
    entityType: 'backup_configuration',
    entityId: row.id,
    summary: `Created a ${row.frequency} ${row.backupType} backup of ${row.dataTypes.join(', ')}`,
  })
  return configView(row, false)
}

export async function updateConfiguration(
  db: AppDb,
  who: Who,
  id: string,
  isActive: boolean,
): Promise<BackupConfiguration> {
  return withTenant(db, who, async (tx) => {
    const [row] = await tx
      .update(backupConfigurations)
      .set({ isActive, updatedAt: sql`now()` })
      .where(eq(backupConfigurations.id, id))
      .returning()
    if (!row) throw new AppError('NOT_FOUND', 'Backup configuration not found')
    await recordAudit(tx, {
      hospitalId: who.hospitalId,
      actorUserId: who.userId,
      impersonatorUserId: who.impersonatorUserId,
      action: isActive ? 'backup.configuration_activated' : 'backup.configuration_paused',
      entityType: 'backup_configuration',
      entityId: row.id,
      summary: `${isActive ? 'Turned on' : 'Turned off'} the ${row.frequency} ${row.backupType} backup`,
    })
    return configView(row, (await runningConfigIds(tx)).has(row.id))
  })
}
