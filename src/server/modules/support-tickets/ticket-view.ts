import { and, count, desc, eq, inArray } from 'drizzle-orm'
import {
  mayReopen,
  type SupportTicket,
  type TicketAttachment,
  type TicketComment,
} from '../../../shared/schemas/support-tickets'
import type { AppDb, Tx } from '../../db/client'
import { user } from '../../db/schema/auth'
import {
  supportTicketAttachments,
  supportTicketComments,
  supportTickets,
} from '../../db/schema/support-tickets'
import { withPlatform } from '../../db/tenant'

/** Row to response shapes, shared by the hospital and platform services (tenant mode in). */

export type TicketRow = typeof supportTickets.$inferSelect
type AttachmentRow = typeof supportTicketAttachments.$inferSelect

export function attachmentUrl(ticketId: string, attachmentId: string): string {
  return `/api/support-tickets/${ticketId}/attachments/${attachmentId}`
}

/** The platform's download route for the same file (super admins name the hospital). */
export function adminAttachmentUrl(hospitalId: string, ticketId: string, attachmentId: string) {
  return `/api/admin/support-tickets/${hospitalId}/${ticketId}/attachments/${attachmentId}`
}

export function toAttachment(a: AttachmentRow): TicketAttachment {
  return {
    id: a.id,
    name: a.filename,
    size: a.size,
    type: a.contentType,
    url: attachmentUrl(a.ticketId, a.id),
    createdAt: a.createdAt.toISOString(),
  }
}

/** Attachments and comment counts of these tickets (one hospital, tenant mode). */
export async function ticketExtras(
  tx: Tx,
  ids: string[],
): Promise<{ attachments: Map<string, TicketAttachment[]>; comments: Map<string, number> }> {
  const attachments = new Map<string, TicketAttachment[]>()
  const comments = new Map<string, number>()
  if (!ids.length) return { attachments, comments }
  const files = await tx
    .select()
    .from(supportTicketAttachments)
    .where(inArray(supportTicketAttachments.ticketId, ids))
    .orderBy(supportTicketAttachments.createdAt, supportTicketAttachments.id)
  for (const f of files)
    attachments.set(f.ticketId, [...(attachments.get(f.ticketId) ?? []), toAttachment(f)])
  const counts = await tx
    .select({ ticketId: supportTicketComments.ticketId, n: count() })
    .from(supportTicketComments)
    .where(inArray(supportTicketComments.ticketId, ids))
    .groupBy(supportTicketComments.ticketId)
  for (const c of counts) comments.set(c.ticketId, c.n)
  return { attachments, comments }
}

export function toTicket(
  row: TicketRow,
  extras: { attachments: Map<string, TicketAttachment[]>; comments: Map<string, number> },
  names: Map<string, string>,
): SupportTicket {
  return {
    id: row.id,
    hospitalId: row.hospitalId,
    subject: row.subject,
    description: row.description,
    category: row.category,
    priority: row.priority,
    status: row.status,
    attachments: extras.attachments.get(row.id) ?? [],
    commentCount: extras.comments.get(row.id) ?? 0,
    resolutionNotes: row.resolutionNotes,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    assignedTo: row.assignedTo,
    createdBy: names.get(row.createdBy) ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    canReopen: mayReopen(row.status, row.resolvedAt),
  }
}

/** The comment thread of one ticket, oldest first (tenant mode). */
export async function ticketComments(tx: Tx, ticketId: string) {
  return tx
    .select()
    .from(supportTicketComments)
    .where(eq(supportTicketComments.ticketId, ticketId))
    .orderBy(supportTicketComments.createdAt, supportTicketComments.id)
}

export function toComment(
  c: typeof supportTicketComments.$inferSelect,
  names: Map<string, string>,
): TicketComment {
  return {
    id: c.id,
    side: c.authorSide,
    author:
      c.authorSide === 'platform'
        ? `${names.get(c.authorUserId) ?? 'Arogya'} (Arogya Support)`
        : (names.get(c.authorUserId) ?? 'Former member'),
    body: c.body,
    createdAt: c.createdAt.toISOString(),
  }
}

/** Display names of users (platform table). */
export async function userNames(db: AppDb, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))]
  if (!wanted.length) return new Map()
  const rows = await withPlatform(db, (tx) =>
    tx.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, wanted)),
  )
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** One ticket by id inside the current tenant (optionally only the caller's own), locked. */
export async function findTicket(
  tx: Tx,
  id: string,
  ownerOnly: string | null,
  lock = false,
): Promise<TicketRow | undefined> {
  const where = ownerOnly
    ? and(eq(supportTickets.id, id), eq(supportTickets.createdBy, ownerOnly))
    : eq(supportTickets.id, id)
  const query = tx.select().from(supportTickets).where(where)
  const [row] = lock ? await query.for('update') : await query
  return row
}

export const newestFirst = [desc(supportTickets.createdAt), desc(supportTickets.id)]
