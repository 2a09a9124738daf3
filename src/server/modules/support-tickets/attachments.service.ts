import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { and, count, eq, sql } from 'drizzle-orm'
import { MAX_ATTACHMENTS, type TicketAttachment } from '../../../shared/schemas/support-tickets'
import type { AppDb, Tx } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { supportTicketAttachments, supportTickets } from '../../db/schema/support-tickets'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { type QuotaRoom, settleRoom, storageRoom } from '../../storage/quota'
import type { ObjectStorage } from '../../storage/storage'
import { tenantKey } from '../../storage/storage'
import { type FileKind, receiveUpload } from '../../storage/upload'
import { recordAudit } from '../audit/audit.service'
import { asTenant } from '../team/team-db'
import { findTicket, toAttachment } from './ticket-view'
import type { TicketActor } from './tickets.service'

/*
 * Support-ticket attachments (issue 28, docs/decisions/036 and 037): real files through the
 * storage module. The row is inserted only after the file is stored whole; a failed insert
 * deletes the file again, so neither a row without a file nor a file without a row is left.
 * Issue 39: the upload counts toward the hospital's disk quota (cut while streaming at the
 * room left, settled under the quota lock with the row).
 */

export const ATTACHMENT_AREA = 'support-tickets'
export const ATTACHMENT_KINDS: readonly FileKind[] = ['image', 'video', 'pdf', 'doc', 'docx', 'txt']

type AttachmentRow = typeof supportTicketAttachments.$inferSelect

const ownerFilter = (o: TicketActor) => (o.seesAll ? null : o.userId)

/** The ticket the caller may attach to (the submitter, or an admin): 404 / 409 otherwise. */
async function attachableTicket(tx: Tx, o: TicketActor & { id: string }, lock = false) {
  const row = await findTicket(tx, o.id, ownerFilter(o), lock)
  if (!row) throw notFound('Support ticket')
  if (row.status === 'closed')
    throw new AppError('CONFLICT', 'This ticket is closed: submit a new ticket instead')
  const [files] = await tx
    .select({ n: count() })
    .from(supportTicketAttachments)
    .where(eq(supportTicketAttachments.ticketId, row.id))
  if ((files?.n ?? 0) >= MAX_ATTACHMENTS)
    throw new AppError('CONFLICT', `A ticket holds at most ${MAX_ATTACHMENTS} attachments`)
  return row
}

/** Before reading the body: the caller may attach to this ticket (404/409 otherwise). */
export async function checkAttachable(o: TicketActor & { id: string }): Promise<void> {
  await withTenant(o.db, o, (tx) => attachableTicket(tx, o))
}

/**
 * POST /api/support-tickets/:id/attachments: streams the file into storage (name, type by
 * content, the plan's limit while streaming), then stores the row and an audit event in one
 * transaction; if that fails the file is deleted again.
 */
export async function addAttachment(
  o: TicketActor & {
    id: string
    storage: ObjectStorage
    body: Readable
    filename: string
    maxBytes: number
    /** The hospital's disk quota as measured before the upload (storage/quota.ts). */
    room?: QuotaRoom | undefined
  },
): Promise<TicketAttachment> {
  const room = o.room ?? (await storageRoom(o.db, o.hospitalId))
  const attachmentId = randomUUID()
  const key = tenantKey(o.hospitalId, ATTACHMENT_AREA, attachmentId)
  const file = await receiveUpload({
    storage: o.storage,
    key,
    body: o.body,
    filename: o.filename,
    maxBytes: o.maxBytes,
    allowed: ATTACHMENT_KINDS,
  })
  try {
    const row = await withTenant(o.db, o, async (tx) => {
      const ticket = await attachableTicket(tx, o, true)
      // Under the hospital's quota lock: with everything stored meanwhile, on any instance.
      await settleRoom(tx, room, file.size)
      const [row] = await tx
        .insert(supportTicketAttachments)
        .values({
          hospitalId: o.hospitalId,
          id: attachmentId,
          ticketId: ticket.id,
          storageKey: key,
          filename: file.filename,
          size: file.size,
          contentType: file.contentType,
          sha256: file.sha256,
          uploadedBy: o.userId,
        })
        .returning()
      if (!row) throw new Error('attachment not stored')
      await tx
        .update(supportTickets)
        .set({ updatedAt: sql`now()` })
        .where(eq(supportTickets.id, ticket.id))
      await recordAudit(tx, {
        hospitalId: o.hospitalId,
        actorUserId: o.userId,
        impersonatorUserId: o.impersonatorUserId,
        action: 'support_ticket.attachment_added',
        entityType: 'support_ticket',
        entityId: ticket.id,
        summary: `Attached ${file.filename.slice(0, 120)} to support ticket: ${ticket.subject.slice(0, 80)}`,
      })
      return row
    })
    return toAttachment(row)
  } catch (error) {
    await o.storage.delete(key).catch(() => undefined)
    throw error
  }
}

async function attachmentOf(tx: Tx, ticketId: string, attachmentId: string) {
  const [row] = await tx
    .select()
    .from(supportTicketAttachments)
    .where(
      and(
        eq(supportTicketAttachments.ticketId, ticketId),
        eq(supportTicketAttachments.id, attachmentId),
      ),
    )
  return row
}

/** GET /api/support-tickets/:id/attachments/:attachmentId: the row, if the caller sees the ticket. */
export async function findAttachment(
  o: TicketActor & { id: string; attachmentId: string },
): Promise<AttachmentRow> {
  const row = await withTenant(o.db, o, async (tx) => {
    const ticket = await findTicket(tx, o.id, ownerFilter(o))
    return ticket ? attachmentOf(tx, ticket.id, o.attachmentId) : undefined
  })
  if (!row) throw notFound('Attachment')
  return row
}

/** The platform side: any hospital's attachment (super admins), by hospital and ticket. */
export async function findAttachmentAsPlatform(o: {
  db: AppDb
  hospitalId: string
  id: string
  attachmentId: string
}): Promise<AttachmentRow> {
  const row = await withPlatform(o.db, async (tx) => {
    const [h] = await tx
      .select({ id: hospitals.id })
      .from(hospitals)
      .where(eq(hospitals.id, o.hospitalId))
    if (!h) return undefined
    await asTenant(tx, o.hospitalId)
    const ticket = await findTicket(tx, o.id, null)
    return ticket ? attachmentOf(tx, ticket.id, o.attachmentId) : undefined
  })
  if (!row) throw notFound('Attachment')
  return row
}

/**
 * DELETE /api/support-tickets/:id/attachments/:attachmentId: the uploader takes a file back
 * while the ticket is open. The row goes (audited) first, then the file.
 */
export async function removeAttachment(
  o: TicketActor & { id: string; attachmentId: string; storage: ObjectStorage },
): Promise<void> {
  const key = await withTenant(o.db, o, async (tx) => {
    const ticket = await findTicket(tx, o.id, ownerFilter(o), true)
    const row = ticket ? await attachmentOf(tx, ticket.id, o.attachmentId) : undefined
    if (!ticket || !row) throw notFound('Attachment')
    if (row.uploadedBy !== o.userId)
      throw new AppError('FORBIDDEN', 'Only the person who attached a file can remove it')
    if (ticket.status !== 'open')
      throw new AppError('CONFLICT', 'Attachments can be removed only while the ticket is open')
    await tx
      .delete(supportTicketAttachments)
      .where(
        and(
          eq(supportTicketAttachments.ticketId, ticket.id),
          eq(supportTicketAttachments.id, row.id),
        ),
      )
    await recordAudit(tx, {
      hospitalId: o.hospitalId,
      actorUserId: o.userId,
      impersonatorUserId: o.impersonatorUserId,
      action: 'support_ticket.attachment_removed',
      entityType: 'support_ticket',
      entityId: ticket.id,
      summary: `Removed ${row.filename.slice(0, 120)} from support ticket: ${ticket.subject.slice(0, 80)}`,
    })
    return row.storageKey
  })
  await o.storage.delete(key)
}
