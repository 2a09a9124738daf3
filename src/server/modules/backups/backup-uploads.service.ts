import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { AppDb } from '../../db/client'
import { backupUploads } from '../../db/schema/backups'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { getStorage } from '../../storage/storage'
import { recordAudit } from '../audit/audit.service'
import { BACKUP_MAX_BYTES, uploadKey, type Who } from './backups.service'

// Backup files uploaded to restore (Settings → Data → Restore from a file).

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
