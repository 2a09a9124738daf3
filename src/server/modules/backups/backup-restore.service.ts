import { eq, sql } from 'drizzle-orm'
import type {
  RestoreMode,
  RestorePreview,
  RestoreRun,
  RestoreSource,
} from '../../../shared/schemas/backup'
import type { AppDb, Tx } from '../../db/client'
import { backupRestores, backupUploads } from '../../db/schema/backups'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { enqueue } from '../../jobs/queue'
import type { JobHandler } from '../../jobs/registry'
import { getStorage } from '../../storage/storage'
import { recordAudit } from '../audit/audit.service'
import { manifestSummary, readManifest } from './archive-read'
import { restoreInto } from './archive-restore'
import type { BackupManifest } from './backup-archive'
import { BackupFileError, parseHeader } from './backup-crypto'
import {
  BACKUP_RESTORE_JOB,
  conflictAsAppError,
  findLog,
  iso,
  logView,
  publicMessage,
  RESTORE_FAILED_MESSAGE,
  RESTORE_RUNNING,
  type Who,
} from './backups.service'

// Restores: the dry run (preview), the request, its status, and the job that restores.

type RestoreRow = typeof backupRestores.$inferSelect

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
        userId: who.userId,
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
        userId: typeof p.userId === 'string' ? p.userId : null,
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
