import type { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { can } from '../../../shared/permissions'
import {
  adminAttachmentParams,
  attachmentParams,
  ticketParams,
} from '../../../shared/schemas/support-tickets'
import { actingMember, member, requirePermission, superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { sendStoredFile } from '../../storage/download'
import { assertDeclaredSize, readUploadFilename, registerRawUpload } from '../../storage/raw-body'
import { uploadRoom } from '../../storage/quota-upload'
import { getStorage } from '../../storage/storage'
import {
  addAttachment,
  checkAttachable,
  findAttachment,
  findAttachmentAsPlatform,
  removeAttachment,
} from './attachments.service'
import { hospitalAttachmentLimit, type TicketActor } from './tickets.service'

function ticketActor(db: AppDb, req: FastifyRequest): TicketActor {
  return { db, ...actingMember(req), seesAll: can(member(req).role, 'support:read_all') }
}

/**
 * Ticket attachments (issue 28): upload (raw body, X-Filename), download, remove; and the
 * platform's download. In a scope of their own so the raw-body parser applies to these only.
 */
export function supportAttachmentRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const submit = { config: requirePermission('support:submit') }
  // Issue 39: adding or removing files stores bytes that count toward the hospital's disk
  // quota: every role that writes, not a viewer. Reading stays with support:submit.
  const write = { config: requirePermission('support:write') }

  void app.register(async (scope) => {
    // Only the raw file: any other body (JSON, a form, text/plain) is a 415 before the body
    // or the session is read.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_req, _payload, done) => {
      done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as application/octet-stream'))
    })
    registerRawUpload(scope)

    scope.post('/api/support-tickets/:id/attachments', write, async (req, reply) => {
      const { id } = parse(ticketParams, req.params, 'id')
      const actor = ticketActor(db, req)
      // 404/409, 400 (name) and 413 (declared size) before a byte of the file is read.
      await checkAttachable({ ...actor, id })
      const filename = readUploadFilename(req)
      const maxBytes = await hospitalAttachmentLimit(db, actor.hospitalId)
      assertDeclaredSize(req, maxBytes)
      // The disk quota: the body is already held to the room left (storage/quota-upload.ts);
      // the row is settled against it under the quota lock.
      const room = uploadRoom(req.body)
      const attachment = await addAttachment({
        ...actor,
        id,
        storage: getStorage(),
        body: req.body as Readable,
        filename,
        maxBytes,
        room,
      })
      return reply.status(201).send(attachment)
    })
  })

  app.get('/api/support-tickets/:id/attachments/:attachmentId', submit, async (req, reply) => {
    const params = parse(attachmentParams, req.params)
    const row = await findAttachment({ ...ticketActor(db, req), ...params })
    return sendStoredFile(reply, {
      storage: getStorage(),
      key: row.storageKey,
      filename: row.filename,
      contentType: row.contentType,
      size: row.size,
    })
  })

  app.delete('/api/support-tickets/:id/attachments/:attachmentId', write, async (req, reply) => {
    const params = parse(attachmentParams, req.params)
    await removeAttachment({ ...ticketActor(db, req), ...params, storage: getStorage() })
    return reply.status(204).send()
  })

  app.get(
    '/api/admin/support-tickets/:hospitalId/:id/attachments/:attachmentId',
    { config: superAdmin },
    async (req, reply) => {
      const params = parse(adminAttachmentParams, req.params)
      const row = await findAttachmentAsPlatform({ db, ...params })
      return sendStoredFile(reply, {
        storage: getStorage(),
        key: row.storageKey,
        filename: row.filename,
        contentType: row.contentType,
        size: row.size,
      })
    },
  )
}
