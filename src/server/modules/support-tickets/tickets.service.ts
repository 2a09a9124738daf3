import { eq, sql } from 'drizzle-orm'
import {
  attachmentExtension,
  attachmentLimitBytes,
  type CreateTicketData,
  mayReopen,
  REOPEN_DAYS,
  type SupportTicket,
  type SupportTicketDetail,
  type TicketComment,
} from '../../../shared/schemas/support-tickets'
import type { AppDb } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { supportTicketComments, supportTickets } from '../../db/schema/support-tickets'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import {
  findTicket,
  newestFirst,
  ticketComments,
  ticketExtras,
  toComment,
  toTicket,
  userNames,
} from './ticket-view'

/** A hospital member acting on support tickets; `seesAll`: the hospital's admins. */
export interface TicketActor {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId: string | null
  seesAll: boolean
}

const LIST_LIMIT = 200

const ownerFilter = (o: TicketActor) => (o.seesAll ? null : o.userId)

/** GET /api/support-tickets: the hospital's tickets (or the caller's own), newest first. */
export async function listTickets(o: TicketActor): Promise<SupportTicket[]> {
  const { rows, extras } = await withTenant(o.db, o, async (tx) => {
    const rows = await tx
      .select()
      .from(supportTickets)
      .where(o.seesAll ? undefined : eq(supportTickets.createdBy, o.userId))
      .orderBy(...newestFirst)
      .limit(LIST_LIMIT)
    return {
      rows,
      extras: await ticketExtras(
        tx,
        rows.map((r) => r.id),
      ),
    }
  })
  const names = await userNames(
    o.db,
    rows.map((r) => r.createdBy),
  )
  return rows.map((r) => toTicket(r, extras, names))
}

/** The plan's attachment limit in bytes (platform table). */
export async function hospitalAttachmentLimit(db: AppDb, hospitalId: string): Promise<number> {
  const [h] = await withPlatform(db, (tx) =>
    tx.select({ plan: hospitals.plan }).from(hospitals).where(eq(hospitals.id, hospitalId)),
  )
  if (!h) throw notFound('Hospital')
  return attachmentLimitBytes(h.plan)
}

/**
 * POST /api/support-tickets. The announced attachments (metadata only, spec section 7) are
 * checked against the allowed types and the plan's limit before anything is stored, so a ticket
 * is not created for files that would be refused; the files follow, one upload each.
 */
export async function createTicket(
  o: TicketActor & { input: CreateTicketData },
): Promise<SupportTicket> {
  const { input } = o
  if (input.attachments?.length) {
    const limit = await hospitalAttachmentLimit(o.db, o.hospitalId)
    const issues = input.attachments.flatMap((a, i) => {
      if (!attachmentExtension(a.name))
        return [
          { path: `attachments.${i}.name`, message: `${a.name}: this file type is not accepted` },
        ]
      if (a.size > limit)
        return [
          {
            path: `attachments.${i}.size`,
            message: `${a.name} is larger than ${limit / 1024 / 1024} MB`,
          },
        ]
      return []
    })
    if (issues.length)
      throw new AppError('VALIDATION', `Invalid input: ${issues[0]?.message ?? ''}`, issues)
  }
  const row = await withTenant(o.db, o, async (tx) => {
    const [row] = await tx
      .insert(supportTickets)
      .values({
        hospitalId: o.hospitalId,
        subject: input.subject,
        description: input.description,
        category: input.category,
        priority: input.priority,
        createdBy: o.userId,
      })
      .returning()
    if (!row) throw new Error('support ticket not stored')
    await recordAudit(tx, {
      hospitalId: o.hospitalId,
      actorUserId: o.userId,
      impersonatorUserId: o.impersonatorUserId,
      action: 'support_ticket.created',
      entityType: 'support_ticket',
      entityId: row.id,
      summary: `Submitted support ticket: ${input.subject.slice(0, 120)}`,
    })
    return row
  })
  const names = await userNames(o.db, [row.createdBy])
  return toTicket(row, { attachments: new Map(), comments: new Map() }, names)
}

/** GET /api/support-tickets/:id: the ticket with its comment thread and attachments. */
export async function ticketDetail(o: TicketActor & { id: string }): Promise<SupportTicketDetail> {
  const found = await withTenant(o.db, o, async (tx) => {
    const row = await findTicket(tx, o.id, ownerFilter(o))
    if (!row) return null
    return {
      row,
      extras: await ticketExtras(tx, [row.id]),
      comments: await ticketComments(tx, row.id),
    }
  })
  if (!found) throw notFound('Support ticket')
  const names = await userNames(o.db, [
    found.row.createdBy,
    ...found.comments.map((c) => c.authorUserId),
  ])
  return {
    ...toTicket(found.row, found.extras, names),
    comments: found.comments.map((c) => toComment(c, names)),
  }
}

/** POST /api/support-tickets/:id/comments: the hospital's side of the thread. */
export async function addHospitalComment(
  o: TicketActor & { id: string; body: string },
): Promise<TicketComment> {
  const comment = await withTenant(o.db, o, async (tx) => {
    const row = await findTicket(tx, o.id, ownerFilter(o), true)
    if (!row) throw notFound('Support ticket')
    if (row.status === 'closed')
      throw new AppError('CONFLICT', 'This ticket is closed: submit a new ticket instead')
    const [comment] = await tx
      .insert(supportTicketComments)
      .values({
        hospitalId: o.hospitalId,
        ticketId: row.id,
        authorUserId: o.userId,
        authorSide: 'hospital',
        body: o.body,
      })
      .returning()
    if (!comment) throw new Error('comment not stored')
    await tx
      .update(supportTickets)
      .set({ updatedAt: sql`now()` })
      .where(eq(supportTickets.id, row.id))
    await recordAudit(tx, {
      hospitalId: o.hospitalId,
      actorUserId: o.userId,
      impersonatorUserId: o.impersonatorUserId,
      action: 'support_ticket.commented',
      entityType: 'support_ticket',
      entityId: row.id,
      summary: `Commented on support ticket: ${row.subject.slice(0, 120)}`,
    })
    return comment
  })
  return toComment(comment, await userNames(o.db, [o.userId]))
}

/** POST /api/support-tickets/:id/reopen: a ticket resolved within 7 days goes back to open. */
export async function reopenTicket(o: TicketActor & { id: string }): Promise<SupportTicket> {
  const row = await withTenant(o.db, o, async (tx) => {
    const row = await findTicket(tx, o.id, ownerFilter(o), true)
    if (!row) throw notFound('Support ticket')
    if (!mayReopen(row.status, row.resolvedAt))
      throw new AppError(
        'INVALID_TRANSITION',
        `Only a ticket resolved in the last ${REOPEN_DAYS} days can be reopened`,
      )
    const [updated] = await tx
      .update(supportTickets)
      .set({ status: 'open', resolvedAt: null, updatedAt: sql`now()` })
      .where(eq(supportTickets.id, row.id))
      .returning()
    await recordAudit(tx, {
      hospitalId: o.hospitalId,
      actorUserId: o.userId,
      impersonatorUserId: o.impersonatorUserId,
      action: 'support_ticket.reopened',
      entityType: 'support_ticket',
      entityId: row.id,
      summary: `Reopened support ticket: ${row.subject.slice(0, 120)}`,
    })
    return updated ?? row
  })
  const extras = await withTenant(o.db, o, (tx) => ticketExtras(tx, [row.id]))
  return toTicket(row, extras, await userNames(o.db, [row.createdBy]))
}
