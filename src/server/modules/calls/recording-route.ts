import { eq } from 'drizzle-orm'
import type { FastifyReply } from 'fastify'
import type { AppDb } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import { getStorage } from '../../storage/storage'
import { recordingContentType } from './recording-source'

/**
 * GET /api/calls/:id/recording (issue 41): the call's recording from the storage module, for
 * staff with calls:recordings only (the route checks the permission). Another hospital's call
 * (RLS), a call without a recording, or a file gone from storage: 404. Served inline as audio
 * for the <audio> player, never cached by a shared cache, no sniffing. The whole file is sent
 * (the storage drivers stream whole objects; no Range).
 */
export async function sendCallRecording(
  reply: FastifyReply,
  o: { db: AppDb; hospitalId: string; userId: string; id: string },
): Promise<FastifyReply> {
  const [row] = await withTenant(o.db, { hospitalId: o.hospitalId, userId: o.userId }, (tx) =>
    tx
      .select({
        key: calls.recordingKey,
        bytes: calls.recordingBytes,
        provider: calls.provider,
      })
      .from(calls)
      .where(eq(calls.id, o.id)),
  )
  if (!row?.key) throw notFound('Recording')
  const stream = await getStorage().get(row.key)
  const type = recordingContentType(row.provider)
  const extension = type === 'audio/wav' ? 'wav' : 'mp3'
  void reply
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', `inline; filename="call-${o.id}.${extension}"`)
    .type(type)
  if (row.bytes !== null) void reply.header('content-length', String(row.bytes))
  return reply.send(stream)
}
