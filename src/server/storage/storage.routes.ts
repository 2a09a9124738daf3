import type { FastifyInstance } from 'fastify'
import type { StorageUsage } from '../../shared/schemas/storage'
import { actingMember, authed } from '../auth/access'
import type { AppDb } from '../db/client'
import { readStorageUsage } from './quota'
import { registerUploadQuota } from './quota-upload'

/**
 * The hospital's disk quota (issue 39): every streamed upload is held to it (quota-upload.ts),
 * and GET /api/storage/usage shows it in Settings → Data. Every member may read the usage:
 * it holds no personal data, and every role that stores files (attachments, imports) meets the
 * quota and should see why an upload was refused. Register before the upload routes' scopes.
 */
export function storageRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  registerUploadQuota(app, { db })

  app.get('/api/storage/usage', { config: authed }, async (req): Promise<StorageUsage> => {
    const { hospitalId } = actingMember(req)
    return readStorageUsage(db, hospitalId)
  })
}
