import { and, eq, or, sql } from 'drizzle-orm'
import {
  type AdminSupportTicket,
  platformTransitions,
  statusLabels,
  type SupportTicketDetail,
  type SupportTicketSummary,
  type TicketComment,
  type TicketStatus,
} from '../../../shared/schemas/support-tickets'
import type { AppDb, Tx } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { supportTicketComments, supportTickets } from '../../db/schema/support-tickets'
import { withPlatform } from '../../db/tenant'
import type { Mailer } from '../../integrations/email/mailer'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { asPlatform, asTenant } from '../team/team-db'
import {
  adminAttachmentUrl,
  findTicket,
  newestFirst,
  type TicketRow,
  ticketComments,
  ticketExtras,
  toComment,
  toTicket,
  userNames,
} from './ticket-view'

/*
 * The platform side (super admins). Tickets are tenant rows under forced RLS with no platform
 * policy, so the platform reads them hospital by hospital: one transaction that switches to
 * app_user with each hospital set in turn (docs/decisions/037).
 */

export interface PlatformActor {
  db: AppDb
  userId: string
}

const ADMIN_LIST_LIMIT = 300
const DAY = 24 * 60 * 60 * 1000

async function allHospitals(tx: Tx) {
  return tx
    .select({ id: hospitals.id, name: hospitals.name })
    .from(hospitals)
    .orderBy(hospitals.name)
}

/** GET /api/admin/support-tickets: every hospital's tickets, newest first, by status. */
export async function listAllTickets(
  o: PlatformActor & { status?: TicketStatus | undefined },
): Promise<AdminSupportTicket[]> {
  const perHospital = await withPlatform(o.db, async (tx) => {
    const out = []
    for (const h of await allHospitals(tx)) {
      await asTenant(tx, h.id)
      const rows = await tx
        .select()
        .from(supportTickets)
        .where(o.status ? eq(supportTickets.status, o.status) : undefined)
        .orderBy(...newestFirst)
        .limit(ADMIN_LIST_LIMIT)
      out.push({
        hospital: h,
        rows,
        extras: await ticketExtras(
          tx,
          rows.map((r) => r.id),
        ),
      })
      await asPlatform(tx)
    }
    return out
  })
  const names = await userNames(
    o.db,
    perHospital.flatMap((p) => p.rows.flatMap((r) => [r.createdBy, r.assignedTo])),
  )
  return perHospital
    .flatMap((p) =>
      p.rows.map((r) => ({
        ...toTicket(r, p.extras, names),
        hospitalName: p.hospital.name,
        assignedToName: r.assignedTo ? (names.get(r.assignedTo) ?? null) : null,
      })),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, ADMIN_LIST_LIMIT)
}

/** GET /api/admin/support-tickets/summary: open tickets by age, and those in progress. */
export async function ticketSummary(o: PlatformActor): Promise<SupportTicketSummary> {
  const rows = await withPlatform(o.db, async (tx) => {
    const out: { status: TicketStatus; createdAt: Date }[] = []
    for (const h of await allHospitals(tx)) {
      await asTenant(tx, h.id)
      out.push(
        ...(await tx
          .select({ status: supportTickets.status, createdAt: supportTickets.createdAt })
          .from(supportTickets)
          .where(or(eq(supportTickets.status, 'open'), eq(supportTickets.status, 'in_progress')))),
      )
      await asPlatform(tx)
    }
    return out
  })
  const now = Date.now()
  const open = rows.filter((r) => r.status === 'open').map((r) => now - r.createdAt.getTime())
  return {
    open: {
      underOneDay: open.filter((age) => age < DAY).length,
      oneToThreeDays: open.filter((age) => age >= DAY && age <= 3 * DAY).length,
      overThreeDays: open.filter((age) => age > 3 * DAY).length,
      total: open.length,
    },
    inProgress: rows.filter((r) => r.status === 'in_progress').length,
  }
}

/** Runs fn inside the ticket's hospital (tenant mode) with the ticket locked; 404 when absent. */
async function onTicket<T>(
  o: PlatformActor & { hospitalId: string; id: string },
  fn: (tx: Tx, row: TicketRow, hospitalName: string) => Promise<T>,
): Promise<T> {
  return withPlatform(o.db, async (tx) => {
    const [h] = await tx
      .select({ name: hospitals.name })
      .from(hospitals)
      .where(eq(hospitals.id, o.hospitalId))
    if (!h) throw notFound('Support ticket')
    await asTenant(tx, o.hospitalId)
    const row = await findTicket(tx, o.id, null, true)
    if (!row) throw notFound('Support ticket')
    return fn(tx, row, h.name)
  })
}

/** GET /api/admin/support-tickets/:hospitalId/:id */
export async function adminTicketDetail(
  o: PlatformActor & { hospitalId: string; id: string },
): Promise<SupportTicketDetail & { hospitalName: string; assignedToName: string | null }> {
  const found = await onTicket(o, async (tx, row, hospitalName) => ({
    row,
    hospitalName,
    extras: await ticketExtras(tx, [row.id]),
    comments: await ticketComments(tx, row.id),
  }))
  const names = await userNames(o.db, [
    found.row.createdBy,
    found.row.assignedTo,
    ...found.comments.map((c) => c.authorUserId),
  ])
  const ticket = toTicket(found.row, found.extras, names)
  return {
    ...ticket,
    attachments: ticket.attachments.map((a) => ({
      ...a,
      url: adminAttachmentUrl(o.hospitalId, ticket.id, a.id),
    })),
    comments: found.comments.map((c) => toComment(c, names)),
    hospitalName: found.hospitalName,
    assignedToName: found.row.assignedTo ? (names.get(found.row.assignedTo) ?? null) : null,
  }
}

/** POST /api/admin/support-tickets/:hospitalId/:id/assign {assignedTo}: a super admin or none. */
export async function assignTicket(
  o: PlatformActor & { hospitalId: string; id: string; assignedTo: string | null },
): Promise<{ assignedTo: string | null; assignedToName: string | null }> {
  let assigneeName: string | null = null
  if (o.assignedTo) {
    const [assignee] = await withPlatform(o.db, (tx) =>
      tx
        .select({ name: user.name })
        .from(user)
        .where(
          and(
            eq(user.id, o.assignedTo ?? ''),
            or(eq(user.isSuperAdmin, true), eq(user.role, 'super_admin')),
          ),
        ),
    )
    if (!assignee)
      throw new AppError(
        'VALIDATION',
        'Invalid input: assignedTo: Choose a platform support user',
        [{ path: 'assignedTo', message: 'Choose a platform support user' }],
      )
    assigneeName = assignee.name
  }
  await onTicket(o, async (tx, row) => {
    await tx
      .update(supportTickets)
      .set({ assignedTo: o.assignedTo, updatedAt: sql`now()` })
      .where(eq(supportTickets.id, row.id))
    await recordAudit(tx, {
      hospitalId: o.hospitalId,
      actorUserId: o.userId,
      action: 'support_ticket.assigned',
      entityType: 'support_ticket',
      entityId: row.id,
      summary: assigneeName
        ? `Arogya support assigned the ticket to ${assigneeName}`
        : 'Arogya support unassigned the ticket',
    })
  })
  return { assignedTo: o.assignedTo, assignedToName: assigneeName }
}

/**
 * POST /api/admin/support-tickets/:hospitalId/:id/status {status, resolutionNotes}: moves the
 * ticket along platformTransitions (409 otherwise); resolving needs notes (400). The submitter
 * is told by email after COMMIT (sandbox outbox without SMTP).
 */
export async function changeTicketStatus(
  o: PlatformActor & {
    hospitalId: string
    id: string
    status: TicketStatus
    resolutionNotes?: string | undefined
    mailer: Mailer
  },
): Promise<{ status: TicketStatus }> {
  const notes = o.resolutionNotes?.trim() ?? ''
  if (o.status === 'resolved' && !notes)
    throw new AppError(
      'VALIDATION',
      'Invalid input: resolutionNotes: Say how the ticket was resolved',
      [{ path: 'resolutionNotes', message: 'Say how the ticket was resolved' }],
    )
  const changed = await onTicket(o, async (tx, row, hospitalName) => {
    if (!platformTransitions[row.status].includes(o.status))
      throw new AppError(
        'INVALID_TRANSITION',
        `A ${statusLabels[row.status].toLowerCase()} ticket cannot be moved to ${statusLabels[o.status].toLowerCase()}`,
      )
    await tx
      .update(supportTickets)
      .set({
        status: o.status,
        updatedAt: sql`now()`,
        ...(o.status === 'resolved' ? { resolvedAt: sql`now()`, resolutionNotes: notes } : {}),
        ...(o.status === 'in_progress' || o.status === 'open' ? { resolvedAt: null } : {}),
        ...(notes && o.status !== 'resolved' ? { resolutionNotes: notes } : {}),
      })
      .where(eq(supportTickets.id, row.id))
    await recordAudit(tx, {
      hospitalId: o.hospitalId,
      actorUserId: o.userId,
      action: 'support_ticket.status_changed',
      entityType: 'support_ticket',
      entityId: row.id,
      summary: `Arogya support moved the ticket from ${statusLabels[row.status]} to ${statusLabels[o.status]}`,
    })
    await asPlatform(tx)
    const [submitter] = await tx
      .select({ email: user.email, name: user.name })
      .from(user)
      .where(eq(user.id, row.createdBy))
    return { row, hospitalName, submitter }
  })
  if (changed.submitter) {
    const { row, submitter } = changed
    await o.mailer.send({
      to: submitter.email,
      purpose: 'support-ticket-status',
      subject: `Your support ticket is now ${statusLabels[o.status].toLowerCase()}: ${row.subject.slice(0, 80)}`,
      text: [
        `Hello ${submitter.name},`,
        '',
        `Your support ticket "${row.subject}" for ${changed.hospitalName} is now ${statusLabels[o.status].toLowerCase()}.`,
        ...(o.status === 'resolved'
          ? [
              '',
              `Resolution: ${notes}`,
              '',
              'If the problem is back, you can reopen the ticket within 7 days from the Support page.',
            ]
          : []),
        '',
        '— Arogya Support',
      ].join('\n'),
    })
  }
  return { status: o.status }
}

/** POST /api/admin/support-tickets/:hospitalId/:id/comments: the platform's side of the thread. */
export async function addPlatformComment(
  o: PlatformActor & { hospitalId: string; id: string; body: string },
): Promise<TicketComment> {
  const comment = await onTicket(o, async (tx, row) => {
    const [comment] = await tx
      .insert(supportTicketComments)
      .values({
        hospitalId: o.hospitalId,
        ticketId: row.id,
        authorUserId: o.userId,
        authorSide: 'platform',
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
      action: 'support_ticket.commented',
      entityType: 'support_ticket',
      entityId: row.id,
      summary: `Arogya support replied on the ticket: ${row.subject.slice(0, 120)}`,
    })
    return comment
  })
  return toComment(comment, await userNames(o.db, [o.userId]))
}
