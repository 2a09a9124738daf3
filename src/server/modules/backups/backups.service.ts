import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm'
import {
  type BackupConfiguration,
  type BackupDataType,
  backupDataTypes,
  type BackupLog,
  type BackupType,
  type CreateBackupConfigurationInput,
  type RestoreMode,
  type RestorePreview,
  type RestoreRun,
  type RestoreSource,
} from '../../../shared/schemas/backup'
import type { AppDb, Tx } from '../../db/client'
import {
  backupConfigurations,
  backupLogs,
  backupRestores,
  backupUploads,
} from '../../db/schema/backups'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { enqueue } from '../../jobs/queue'
import type { JobHandler } from '../../jobs/registry'
import { decryptSecret, encryptSecret } from '../../secrets/secrets'
import { getStorage, tenantKey } from '../../storage/storage'
import { recordAudit } from '../audit/audit.service'
import {
  type BackupManifest,
  manifestSummary,
  readManifest,
  restoreInto,
  sqlCode,
  writeBackupArchive,
} from './backup-archive'
import { BackupFileError, encryptStream, parseHeader } from './backup-crypto'
import { DriveError, uploadToDrive } from './drive'

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
const backupKey = (hospitalId: string, logId: string) => tenantKey(hospitalId, 'backups', logId)
const uploadKey = (hospitalId: string, id: string) => tenantKey(hospitalId, 'backup-uploads', id)
const tmpDir = () => resolve(process.env.DATA_DIR ?? './data', 'backups-tmp')
const iso = (d: Date | null) => (d ? d.toISOString() : null)
const orderTypes = (list: readonly string[]): BackupDataType[] =>
  backupDataTypes.filter((t) => list.includes(t))

type ConfigRow = typeof backupConfigurations.$inferSelect
type LogRow = typeof backupLogs.$inferSelect
type RestoreRow = typeof backupRestores.$inferSelect

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

function restoreView(row: RestoreRow): RestoreRun {
  return {
    id: row.id,
    status: row.status,
    mode: row.mode,
    progress: row.progress,
    sourceLogId: row.sourceLogId,
    startedAt: row.startedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    error: row.error,
    tables: row.tables ?? null,
  }
}

export async function runningConfigIds(tx: Tx): Promise<Set<string>> {
  const rows = await tx
    .select({ id: backupLogs.configurationId })
    .from(backupLogs)
    .where(and(eq(backupLogs.status, 'running'), isNotNull(backupLogs.configurationId)))
  return new Set(rows.map((r) => r.id as string))
}

/* ---------------- configurations ---------------- */

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
  return withTenant(db, who, async (tx) => {
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
  })
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

async function conflictAsAppError<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof AppError) && sqlCode(error) === '23505') {
      throw new AppError('CONFLICT', message)
    }
    throw error
  }
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

async function findLog(tx: Tx, id: string): Promise<LogRow> {
  const [row] = await tx.select().from(backupLogs).where(eq(backupLogs.id, id))
  if (!row) throw new AppError('NOT_FOUND', 'Backup not found')
  return row
}

export async function getLog(db: AppDb, who: Who, id: string): Promise<BackupLog> {
  return withTenant(db, who, async (tx) => logView(await findLog(tx, id)))
}

export function backupFileName(log: { startedAt: Date; id: string }): string {
  const stamp = log.startedAt.toISOString().slice(0, 19).replace(/[:T]/g, '-')
  return `arogya-backup-${stamp}-${log.id.slice(0, 8)}.arogyabackup`
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

async function setLog(
  run: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
  id: string,
  values: Partial<typeof backupLogs.$inferInsert>,
): Promise<void> {
  await run((tx) => tx.update(backupLogs).set(values).where(eq(backupLogs.id, id)))
}

const publicMessage = (error: unknown, fallback: string) =>
  error instanceof BackupFileError || error instanceof DriveError
    ? error.message.slice(0, 1000)
    : fallback

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

/* ---------------- uploads and restore ---------------- */

export async function receiveBackupUpload(
  db: AppDb,
  who: Who,
  body: Readable,
): Promise<{ uploadId: string }> {
  const id = randomUUID()
  const key = uploadKey(who.hospitalId, id)
  const put = await getStorage().put(key, body, {
    maxBytes: BACKUP_MAX_BYTES,
    contentType: 'application/octet-stream',
  })
  if (put.size === 0) {
    await getStorage().delete(key)
    throw new AppError('VALIDATION', 'The uploaded file is empty', [
      { path: 'file', message: 'The uploaded file is empty' },
    ])
  }
  await withTenant(db, who, async (tx) => {
    await tx.insert(backupUploads).values({
      hospitalId: who.hospitalId,
      id,
      storageKey: key,
      size: put.size,
      sha256: put.sha256,
      uploadedBy: who.userId,
    })
    await recordAudit(tx, {
      hospitalId: who.hospitalId,
      actorUserId: who.userId,
      impersonatorUserId: who.impersonatorUserId,
      action: 'backup.uploaded',
      entityType: 'backup_upload',
      entityId: id,
      summary: `Uploaded a backup file (${put.size} bytes) to restore`,
    })
  })
  return { uploadId: id }
}

/** The storage key of a restore source of this hospital; 404 otherwise. */
async function sourceKey(tx: Tx, source: RestoreSource): Promise<string> {
  if ('logId' in source) {
    const row = await findLog(tx, source.logId)
    if (!logView(row).downloadable || !row.storageKey) {
      throw new AppError('NOT_FOUND', 'This backup file is not kept any more')
    }
    return row.storageKey
  }
  const [row] = await tx.select().from(backupUploads).where(eq(backupUploads.id, source.uploadId))
  if (!row) throw new AppError('NOT_FOUND', 'Uploaded backup not found')
  return row.storageKey
}

const asBadFile = (error: unknown) =>
  error instanceof BackupFileError ? new AppError('BAD_REQUEST', error.message) : error

/** Reads the whole file once (authenticating it) and returns its manifest; 400 when refused. */
async function checkedManifest(hospitalId: string, key: string): Promise<BackupManifest> {
  try {
    return await readManifest(await getStorage().get(key), hospitalId)
  } catch (error) {
    throw asBadFile(error)
  }
}

/** The restore's dry run: the real restore in a transaction that is rolled back. */
export async function previewRestore(
  db: AppDb,
  who: Who,
  source: RestoreSource,
  mode: RestoreMode,
): Promise<RestorePreview> {
  const key = await withTenant(db, who, (tx) => sourceKey(tx, source))
  const manifest = await checkedManifest(who.hospitalId, key)
  const rollback = new Error('preview: roll back')
  let tables: RestorePreview['tables'] = []
  try {
    await withTenant(db, who, async (tx) => {
      tables = await restoreInto({
        tx,
        source: await getStorage().get(key),
        hospitalId: who.hospitalId,
        manifest,
        mode,
      })
      throw rollback
    })
  } catch (error) {
    if (error !== rollback) throw asBadFile(error)
  }
  return { manifest: manifestSummary(manifest), mode, tables }
}

export async function startRestore(
  db: AppDb,
  who: Who,
  source: RestoreSource,
  mode: RestoreMode,
): Promise<RestoreRun> {
  const key = await withTenant(db, who, (tx) => sourceKey(tx, source))
  // Refuse another hospital's file, or one that is not a backup at all, at once (400).
  const head = await readHead(key)
  try {
    const header = parseHeader(head)
    if (!header)
      throw new BackupFileError(
        'The backup file is incomplete (it was cut short); use a complete copy.',
      )
    if (header.hospitalId !== who.hospitalId.toLowerCase()) {
      throw new BackupFileError(
        'This backup belongs to another hospital; a backup can only be restored into the hospital it was taken from.',
      )
    }
  } catch (error) {
    throw asBadFile(error)
  }
  return conflictAsAppError(
    () =>
      withTenant(db, who, async (tx) => {
        const [row] = await tx
          .insert(backupRestores)
          .values({
            hospitalId: who.hospitalId,
            mode,
            sourceLogId: 'logId' in source ? source.logId : null,
            sourceUploadId: 'uploadId' in source ? source.uploadId : null,
            createdBy: who.userId,
          })
          .returning()
        if (!row) throw new Error('restore: no row returned')
        await enqueue(tx, {
          name: BACKUP_RESTORE_JOB,
          hospitalId: who.hospitalId,
          payload: { restoreId: row.id, userId: who.userId },
          maxAttempts: 1,
        })
        await recordAudit(tx, {
          hospitalId: who.hospitalId,
          actorUserId: who.userId,
          impersonatorUserId: who.impersonatorUserId,
          action: 'backup.restore_requested',
          entityType: 'backup_restore',
          entityId: row.id,
          summary: `Asked to restore a backup (${mode})`,
        })
        return restoreView(row)
      }),
    RESTORE_RUNNING,
  )
}

async function readHead(key: string): Promise<Buffer> {
  const stream = await getStorage().get(key)
  const parts: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of stream) {
      parts.push(chunk as Buffer)
      size += (chunk as Buffer).length
      if (size >= 128) break
    }
  } finally {
    stream.destroy()
  }
  return Buffer.concat(parts)
}

export async function getRestore(db: AppDb, who: Who, id: string): Promise<RestoreRun> {
  return withTenant(db, who, async (tx) => {
    const [row] = await tx.select().from(backupRestores).where(eq(backupRestores.id, id))
    if (!row) throw new AppError('NOT_FOUND', 'Restore not found')
    return restoreView(row)
  })
}

/** The restore job: authenticate the whole file, then restore it in one transaction. */
export const runRestoreJob: JobHandler = async (job, ctx) => {
  const hospitalId = job.hospitalId
  const p = job.payload as { restoreId?: unknown; userId?: unknown } | null
  if (!hospitalId || typeof p?.restoreId !== 'string') return { skipped: 'bad payload' }
  const restoreId = p.restoreId
  const run = ctx.withTenant
  const [row] = await run((tx) =>
    tx.select().from(backupRestores).where(eq(backupRestores.id, restoreId)),
  )
  if (!row || row.status !== 'running') return { skipped: 'not running' }
  const set = (values: Partial<typeof backupRestores.$inferInsert>) =>
    run((tx) => tx.update(backupRestores).set(values).where(eq(backupRestores.id, restoreId)))
  try {
    const key = await run((tx) =>
      sourceKey(
        tx,
        row.sourceLogId ? { logId: row.sourceLogId } : { uploadId: row.sourceUploadId as string },
      ),
    )
    const manifest = await readManifest(await getStorage().get(key), hospitalId)
    await set({ progress: 5 })
    const tables = await run(async (tx) => {
      const result = await restoreInto({
        tx,
        source: await getStorage().get(key),
        hospitalId,
        manifest,
        mode: row.mode,
      })
      await tx
        .update(backupRestores)
        .set({ status: 'success', progress: 100, finishedAt: sql`now()`, tables: result })
        .where(eq(backupRestores.id, restoreId))
      await recordAudit(tx, {
        hospitalId,
        actorUserId: typeof p.userId === 'string' ? p.userId : null,
        action: 'backup.restored',
        entityType: 'backup_restore',
        entityId: restoreId,
        summary: `Restored a backup of ${manifest.createdAt} (${row.mode}): ${result
          .map((t) => `${t.table} +${t.toInsert} ~${t.toUpdate} -${t.toDelete}`)
          .join(', ')}`,
      })
      return result
    })
    return { restoreId, tables }
  } catch (error) {
    ctx.log.error({ err: error, restoreId }, 'restore failed')
    await set({
      status: 'failed',
      finishedAt: sql`now()` as unknown as Date,
      error: publicMessage(error, RESTORE_FAILED_MESSAGE),
    })
    return { restoreId, failed: true }
  }
}
