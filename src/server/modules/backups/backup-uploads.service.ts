import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { and, eq, lt, notExists } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { backupRestores, backupUploads } from '../../db/schema/backups'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import type { JobHandler, JobLog } from '../../jobs/registry'
import { getStorage } from '../../storage/storage'
import { recordAudit } from '../audit/audit.service'
import {
  BackupFileError,
  NOT_A_BACKUP,
  otherHospital,
  parseHeader,
  TRUNCATED,
} from './backup-crypto'
import { BACKUP_MAX_BYTES, silentLog, uploadKey, type Who } from './backups.service'

// Backup files uploaded to restore (Settings → Data → Restore from a file), and their pruning.

export const BACKUP_UPLOADS_PRUNE_JOB = 'backup.uploads.prune'
/** An uploaded backup is kept this long for its preview and restore, then pruned. */
export const BACKUP_UPLOAD_KEEP_MS = 24 * 3_600_000

const EMPTY = 'The uploaded file is empty'

/**
 * Reads the body up to the end of the backup header (a few dozen bytes) and checks it: not a
 * backup (415), another hospital's (400), cut short (400), empty (400). Returns the stream
 * again, whole (the bytes read first, then the rest), for storage.
 */
async function checkedBody(body: Readable, hospitalId: string): Promise<Readable> {
  const parts: Buffer[] = []
  let header = null
  try {
    // destroyOnReturn false: leaving the loop at the header leaves the rest to be read.
    for await (const chunk of body.iterator({ destroyOnReturn: false })) {
      parts.push(Buffer.from(chunk as Buffer))
      header = parseHeader(Buffer.concat(parts))
      if (header) break
    }
  } catch (error) {
    if (!(error instanceof BackupFileError)) throw error
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${NOT_A_BACKUP} Choose a .arogyabackup file.`)
  }
  if (!header) {
    const empty = parts.every((p) => p.length === 0)
    const message = empty ? EMPTY : TRUNCATED
    throw new AppError('VALIDATION', message, [{ path: 'file', message }])
  }
  if (header.hospitalId !== hospitalId.toLowerCase()) {
    throw new AppError('BAD_REQUEST', otherHospital().message)
  }
  const head = Buffer.concat(parts)
  return Readable.from(
    (async function* () {
      yield head
      yield* body
    })(),
    { objectMode: false },
  )
}

export async function receiveBackupUpload(
  db: AppDb,
  who: Who,
  body: Readable,
): Promise<{ uploadId: string }> {
  // Nothing is stored before the header says this is this hospital's backup.
  const checked = await checkedBody(body, who.hospitalId)
  const id = randomUUID()
  const key = uploadKey(who.hospitalId, id)
  const put = await getStorage().put(key, checked, {
    maxBytes: BACKUP_MAX_BYTES,
    contentType: 'application/octet-stream',
  })
  try {
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
  } catch (error) {
    await getStorage()
      .delete(key)
      .catch(() => undefined)
    throw error
  }
  return { uploadId: id }
}

/**
 * The daily clean-up: every hospital's uploaded backups older than BACKUP_UPLOAD_KEEP_MS that
 * no running restore reads (restored or never used, an upload is the admin's own copy of a
 * file they hold) lose their row, then their file. One hospital's failure is logged and the
 * others go on. Returns the uploads removed.
 */
export async function pruneBackupUploads(
  db: AppDb,
  now = new Date(),
  log: JobLog = silentLog,
): Promise<number> {
  const list = await withPlatform(db, (tx) =>
    tx.select({ id: hospitals.id }).from(hospitals).orderBy(hospitals.id),
  )
  const before = new Date(now.getTime() - BACKUP_UPLOAD_KEEP_MS)
  let removed = 0
  for (const { id: hospitalId } of list) {
    try {
      const keys = await withTenant(db, { hospitalId, userId: null }, async (tx) => {
        const rows = await tx
          .delete(backupUploads)
          .where(
            and(
              lt(backupUploads.createdAt, before),
              notExists(
                tx
                  .select({ one: backupRestores.id })
                  .from(backupRestores)
                  .where(
                    and(
                      eq(backupRestores.sourceUploadId, backupUploads.id),
                      eq(backupRestores.status, 'running'),
                    ),
                  ),
              ),
            ),
          )
          .returning({ key: backupUploads.storageKey })
        return rows.map((r) => r.key)
      })
      // The rows are gone (committed): a file that cannot be deleted now is only unreachable.
      for (const key of keys) {
        await getStorage()
          .delete(key)
          .catch((error: unknown) =>
            log.warn({ err: error, hospitalId }, 'backup uploads: file not deleted'),
          )
      }
      removed += keys.length
    } catch (error) {
      log.error({ err: error, hospitalId }, 'backup uploads: hospital skipped')
    }
  }
  return removed
}

export const pruneBackupUploadsJob: JobHandler = async (_job, ctx) => ({
  removed: await pruneBackupUploads(ctx.db, new Date(), ctx.log),
})
