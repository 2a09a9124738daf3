import { createReadStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import {
  type BackupDataType,
  backupDataTypes,
  type BackupLog,
  type BackupType,
} from '../../../shared/schemas/backup'
import type { AppDb, Tx } from '../../db/client'
import { backupConfigurations, backupLogs } from '../../db/schema/backups'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { enqueue } from '../../jobs/queue'
import type { JobHandler } from '../../jobs/registry'
import { decryptSecret } from '../../secrets/secrets'
import { getStorage } from '../../storage/storage'
import { recordAudit } from '../audit/audit.service'
import { writeBackupArchive } from './archive-write'
import { encryptStream } from './backup-crypto'
import {
  ALREADY_RUNNING,
  BACKUP_FAILED_MESSAGE,
  BACKUP_MAX_BYTES,
  BACKUP_RUN_JOB,
  backupFileName,
  backupKey,
  conflictAsAppError,
  driveContext,
  type LogRow,
  logView,
  orderTypes,
  publicMessage,
  runningConfigIds,
  tmpDir,
  type Who,
} from './backups.service'
import { DriveError, uploadToDrive } from './drive'

// Backup runs: Run Now, Create Backup, the scheduler's runs, and the job that writes the file.

/* ---------------- runs ---------------- */

/**
 * Starts a backup in `tx`: a running log row (the partial unique index allows one per
 * configuration) and its job. Throws a 409 when the configuration is already running.
 */
export async function startRunInTx(
  tx: Tx,
  who: {
    hospitalId: string
    userId: string | null
    impersonatorUserId?: string | null | undefined
  },
  run: {
    configurationId: string | null
    backupType: BackupType
    dataTypes: BackupDataType[]
    origin: 'manual' | 'scheduled'
    dedupeKey?: string
  },
): Promise<LogRow> {
  if (run.configurationId && (await runningConfigIds(tx)).has(run.configurationId)) {
    throw new AppError('CONFLICT', ALREADY_RUNNING)
  }
  const [log] = await tx
    .insert(backupLogs)
    .values({
      hospitalId: who.hospitalId,
      configurationId: run.configurationId,
      backupType: run.backupType,
      dataTypes: orderTypes(run.dataTypes),
      origin: run.origin,
      createdBy: who.userId,
    })
    .returning()
  if (!log) throw new Error('backup log: no row returned')
  if (run.configurationId) {
    await tx
      .update(backupConfigurations)
      .set({ lastRunAt: log.startedAt })
      .where(eq(backupConfigurations.id, run.configurationId))
  }
  await enqueue(tx, {
    name: BACKUP_RUN_JOB,
    hospitalId: who.hospitalId,
    payload: { logId: log.id },
    maxAttempts: 1,
    ...(run.dedupeKey ? { dedupeKey: run.dedupeKey } : {}),
  })
  await recordAudit(tx, {
    hospitalId: who.hospitalId,
    actorUserId: who.userId,
    impersonatorUserId: who.impersonatorUserId,
    action: run.origin === 'scheduled' ? 'backup.scheduled_run' : 'backup.run_requested',
    entityType: 'backup_log',
    entityId: log.id,
    summary: `${run.origin === 'scheduled' ? 'Scheduled' : 'Started'} ${run.backupType === 'offline' ? 'an offline' : 'a Google Drive'} backup of ${log.dataTypes.join(', ')}`,
  })
  return log
}

export async function runConfiguration(db: AppDb, who: Who, id: string): Promise<BackupLog> {
  return conflictAsAppError(
    () =>
      withTenant(db, who, async (tx) => {
        const [config] = await tx
          .select()
          .from(backupConfigurations)
          .where(eq(backupConfigurations.id, id))
        if (!config) throw new AppError('NOT_FOUND', 'Backup configuration not found')
        // Serialise Run Now of one configuration across instances.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`backup:${id}`}, 0))`)
        const log = await startRunInTx(tx, who, {
          configurationId: config.id,
          backupType: config.backupType,
          dataTypes: config.dataTypes,
          origin: 'manual',
        })
        return logView(log)
      }),
    ALREADY_RUNNING,
  )
}

/** Settings → Data 'Create Backup': an offline backup of the chosen (default: all) types. */
export async function runNow(
  db: AppDb,
  who: Who,
  dataTypes: BackupDataType[] | undefined,
): Promise<BackupLog> {
  return withTenant(db, who, async (tx) => {
    const log = await startRunInTx(tx, who, {
      configurationId: null,
      backupType: 'offline',
      dataTypes: dataTypes ?? [...backupDataTypes],
      origin: 'manual',
    })
    return logView(log)
  })
}

async function setLog(
  run: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
  id: string,
  values: Partial<typeof backupLogs.$inferInsert>,
): Promise<void> {
  await run((tx) => tx.update(backupLogs).set(values).where(eq(backupLogs.id, id)))
}

/** The backup job: archive, encrypt into storage, copy to Drive, mark the log. */
export const runBackupJob: JobHandler = async (job, ctx) => {
  const hospitalId = job.hospitalId
  const logId = (job.payload as { logId?: unknown } | null)?.logId
  if (!hospitalId || typeof logId !== 'string') return { skipped: 'bad payload' }
  const run = ctx.withTenant
  const [log] = await run((tx) => tx.select().from(backupLogs).where(eq(backupLogs.id, logId)))
  if (!log || log.status !== 'running') return { skipped: 'not running' }
  const [hospital] = await withPlatform(ctx.db, (tx) =>
    tx.select({ name: hospitals.name }).from(hospitals).where(eq(hospitals.id, hospitalId)),
  )
  await mkdir(tmpDir(), { recursive: true, mode: 0o700 })
  const path = join(tmpDir(), `${logId}.zip`)
  const key = backupKey(hospitalId, logId)
  let stored = false
  try {
    let last = -1
    const manifest = await writeBackupArchive({
      run,
      hospital: { id: hospitalId, name: hospital?.name ?? '' },
      dataTypes: log.dataTypes,
      path,
      signal: ctx.signal,
      progress: async (done, total) => {
        const pct = Math.min(80, Math.floor((total ? done / total : 1) * 80))
        if (pct !== last) {
          last = pct
          await setLog(run, logId, { progress: pct })
        }
      },
    })
    const encrypt = encryptStream(hospitalId)
    const source = createReadStream(path)
    source.on('error', (error) => encrypt.destroy(error))
    const put = await getStorage().put(key, source.pipe(encrypt), {
      maxBytes: BACKUP_MAX_BYTES,
      contentType: 'application/octet-stream',
    })
    stored = true
    await setLog(run, logId, { progress: 90 })
    let driveFileId: string | null = null
    if (log.backupType === 'gdrive') {
      const [config] = log.configurationId
        ? await run((tx) =>
            tx
              .select()
              .from(backupConfigurations)
              .where(eq(backupConfigurations.id, log.configurationId as string)),
          )
        : []
      if (!config?.gdriveAccessTokenEnc) {
        throw new DriveError('The Google Drive configuration has no access token.')
      }
      const token = decryptSecret(config.gdriveAccessTokenEnc, driveContext(hospitalId))
      const upload = await uploadToDrive({
        token,
        folderId: config.gdriveFolderId,
        name: backupFileName(log),
        size: put.size,
        body: await getStorage().get(key),
      })
      driveFileId = upload.fileId
    }
    await run(async (tx) => {
      await tx
        .update(backupLogs)
        .set({
          status: 'success',
          finishedAt: sql`now()`,
          dataSize: put.size,
          recordCount: manifest.recordCount,
          progress: 100,
          storageKey: key,
          driveFileId,
        })
        .where(eq(backupLogs.id, logId))
      if (log.configurationId) {
        await tx
          .update(backupConfigurations)
          .set({ lastBackup: log.startedAt })
          .where(eq(backupConfigurations.id, log.configurationId))
      }
    })
    return { logId, bytes: put.size, rows: manifest.recordCount }
  } catch (error) {
    ctx.log.error({ err: error, logId }, 'backup failed')
    if (stored)
      await getStorage()
        .delete(key)
        .catch(() => undefined)
    await setLog(run, logId, {
      status: 'failed',
      finishedAt: sql`now()` as unknown as Date,
      error: publicMessage(error, BACKUP_FAILED_MESSAGE),
    })
    return { logId, failed: true }
  } finally {
    await rm(path, { force: true })
  }
}

/** A backup job that died without settling its log (worker crash): the log says failed. */
export async function settleDeadBackup(
  job: { payload: unknown },
  ctx: { withTenant: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T> },
): Promise<void> {
  const logId = (job.payload as { logId?: unknown } | null)?.logId
  if (typeof logId !== 'string') return
  await ctx.withTenant((tx) =>
    tx
      .update(backupLogs)
      .set({ status: 'failed', finishedAt: sql`now()`, error: BACKUP_FAILED_MESSAGE })
      .where(and(eq(backupLogs.id, logId), eq(backupLogs.status, 'running'))),
  )
}
