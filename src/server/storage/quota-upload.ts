import type { Readable } from 'node:stream'
import { Transform } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import type { AppDb } from '../db/client'
import { feed } from './feed'
import { type QuotaRoom, storageQuotaExceeded, storageRoom } from './quota'

/** The room each limited upload body was measured against (for the code that records it). */
const rooms = new WeakMap<object, QuotaRoom>()

/** The quota room an upload body was limited to by registerUploadQuota, if it was. */
export function uploadRoom(body: unknown): QuotaRoom | undefined {
  return body && typeof body === 'object' ? rooms.get(body) : undefined
}

const isStream = (value: unknown): value is Readable =>
  typeof (value as { pipe?: unknown } | null | undefined)?.pipe === 'function'

/**
 * source, cut at the room left: past remainingBytes it fails with 413 STORAGE_QUOTA_EXCEEDED,
 * so whatever stores it (the storage module's put, an import's file) aborts and removes the
 * partial file. The source itself is never destroyed (feed), so the 413 reaches the client.
 */
export function limitToRoom(source: Readable, room: QuotaRoom): Readable {
  let seen = 0
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length
      if (seen > room.remainingBytes) {
        callback(storageQuotaExceeded(room.usedBytes, room.limitBytes))
        return
      }
      callback(null, chunk)
    },
  })
  // Nothing is read from the request until the limiter is: a handler that refuses first (a
  // missing ticket) leaves the body unread, as without the quota, and the limiter cannot fail
  // before its reader listens.
  const read = limiter._read.bind(limiter)
  let fed = false
  limiter._read = (size: number) => {
    if (!fed) {
      fed = true
      feed(source, limiter)
    }
    read(size)
  }
  limiter.on('error', () => undefined)
  rooms.set(limiter, room)
  return limiter
}

/**
 * The disk quota on every streamed upload (issue 39, docs/decisions/045): for a request whose
 * body reaches its handler as a stream (raw-body.ts's octet-stream uploads, the CSV import) and
 * whose caller is a hospital member, before the handler reads a byte:
 * - 413 STORAGE_QUOTA_EXCEEDED at once when the hospital is at its quota, or when the declared
 *   Content-Length is more than what is left;
 * - otherwise the body becomes a stream limited to the room left (limitToRoom), so an upload
 *   that would pass the quota is cut while streaming and nothing of it is kept.
 * The code that records the file settles it under the quota lock (settleRoom), which closes
 * the race between uploads finishing together on several instances.
 * A reply sent before such a body was read to its end closes the connection, so the unread
 * rest cannot be taken for the next request.
 */
export function registerUploadQuota(app: FastifyInstance, { db }: { db: AppDb }): void {
  app.addHook('preHandler', async (req) => {
    if (!isStream(req.body)) return
    const hospitalId = req.actor?.hospitalId
    if (!hospitalId) return
    const declared = Number(req.headers['content-length'])
    const room = await storageRoom(db, hospitalId, Number.isFinite(declared) ? declared : 0)
    req.body = limitToRoom(req.body, room)
  })
  app.addHook('onSend', async (req, reply, payload) => {
    const body = req.body
    if (isStream(body) && body.readableEnded === false) void reply.header('connection', 'close')
    return payload
  })
}
