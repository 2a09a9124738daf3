import { and, eq, isNull, lte, sql } from 'drizzle-orm'
import type { StaffRole } from '../../../shared/roles'
import {
  ALREADY_INVITED_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  type Invitation,
  type InvitationSent,
} from '../../../shared/schemas/team'
import type { AppDb, Tx } from '../../db/client'
import { invitations } from '../../db/schema/team'
import { withPlatform } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { assertDeliversLinks, type Mailer } from '../../integrations/email/mailer'
import { recordAudit } from '../audit/audit.service'
import {
  invitationEmail,
  invitationExpiry,
  invitationUrl,
  newInvitationToken,
} from './invitation-token'
import {
  asTenant,
  assertSeatFree,
  emailState,
  lockTeam,
  platformSuspended,
  seatUsage,
} from './team-db'

export type InvitationRow = typeof invitations.$inferSelect

export function toInvitation(row: InvitationRow, invitedBy: string | null = null): Invitation {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as StaffRole,
    status: row.expiresAt.getTime() > Date.now() ? 'pending' : 'expired',
    invitedAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    invitedBy,
  }
}

export interface CreateInvitationOptions {
  db: AppDb
  mailer: Mailer
  /** Where the app is reached (BASE_URL, or the request's origin): the link is built on it. */
  publicUrl: string
  hospitalId: string
  /** Who invites (a hospital admin, or a super admin creating the hospital); null: the system. */
  invitedByUserId: string | null
  impersonatorUserId?: string | null | undefined
  email: string
  name: string
  role: StaffRole
}

/**
 * Invites someone to a hospital's team, from a hospital admin's screen or a platform context
 * (the Super Admin's Add Hospital invites the hospital's first admin this way):
 *
 *   await createInvitation({ db, mailer, publicUrl, hospitalId, invitedByUserId, email, name, role })
 *
 * `email` is expected trimmed and lower-cased (the shared `inviteMemberInput` does that). In one
 * transaction under the team lock: refuses an address that already has an account (409; a
 * removed member's may be invited again), one
 * with an open invitation here (409; an expired one is replaced), and one more seat beyond the
 * plan's `max_users` (409 naming it); stores the invitation (token hashed, 7 days) with its
 * audit row. After COMMIT the email goes through the mailer (sandbox outbox without SMTP); a
 * delivery failure does not undo the invitation: `emailStatus` says 'failed' and the admin can
 * resend. Returns the invitation, the email's status and the link (for tests and callers that
 * show it; never logged).
 */
export async function createInvitation(
  opts: CreateInvitationOptions,
): Promise<InvitationSent & { url: string }> {
  assertDeliversLinks(opts.mailer) // production without SMTP_URL: 409, nothing created
  const { token, hash } = newInvitationToken(opts.hospitalId)
  const { row, hospitalName } = await withPlatform(opts.db, async (tx) => {
    await lockTeam(tx, opts.hospitalId)
    const existing = await emailState(tx, opts.email)
    if (existing.kind === 'taken') throw emailTaken()
    if (existing.kind === 'suspended') throw platformSuspended()
    const usage = await seatUsage(tx, opts.hospitalId)
    await asTenant(tx, opts.hospitalId)
    // An expired invitation of this address gives way to the new one.
    await tx
      .update(invitations)
      .set({ revokedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(invitations.email, opts.email),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          lte(invitations.expiresAt, sql`now()`),
        ),
      )
    const [open] = await tx
      .select({ id: invitations.id })
      .from(invitations)
      .where(
        and(
          eq(invitations.email, opts.email),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
        ),
      )
    if (open)
      throw new AppError('CONFLICT', ALREADY_INVITED_MESSAGE, [
        { path: 'email', message: ALREADY_INVITED_MESSAGE },
      ])
    assertSeatFree(usage)
    const [saved] = await tx
      .insert(invitations)
      .values({
        hospitalId: opts.hospitalId,
        email: opts.email,
        name: opts.name,
        role: opts.role,
        tokenHash: hash,
        invitedByUserId: opts.invitedByUserId,
        expiresAt: invitationExpiry(),
      })
      .returning()
    if (!saved) throw new AppError('INTERNAL', 'The invitation was not saved')
    await audit(
      tx,
      opts,
      saved.id,
      'team.invitation_sent',
      `Invited ${opts.name} <${opts.email}> as ${opts.role}`,
    )
    return { row: saved, hospitalName: usage.hospitalName }
  })
  const url = invitationUrl(opts.publicUrl, token)
  const emailStatus = await opts.mailer.send(
    invitationEmail({ to: row.email, name: row.name, hospitalName, role: opts.role, url }),
  )
  return { invitation: toInvitation(row), emailStatus, url }
}

const emailTaken = () =>
  new AppError('CONFLICT', EMAIL_TAKEN_MESSAGE, [{ path: 'email', message: EMAIL_TAKEN_MESSAGE }])

interface ActingOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

async function audit(
  tx: Tx,
  opts: {
    hospitalId: string
    invitedByUserId?: string | null
    userId?: string
    impersonatorUserId?: string | null | undefined
  },
  invitationId: string,
  action: string,
  summary: string,
): Promise<void> {
  await recordAudit(tx, {
    hospitalId: opts.hospitalId,
    actorUserId: opts.userId ?? opts.invitedByUserId ?? null,
    impersonatorUserId: opts.impersonatorUserId,
    action,
    entityType: 'invitation',
    entityId: invitationId,
    summary,
  })
}

/** An invitation of this hospital that is neither accepted nor revoked (tenant mode), locked. */
async function openInvitation(tx: Tx, id: string): Promise<InvitationRow> {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(
      and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)),
    )
    .for('update')
  if (!row) throw notFound('Invitation')
  return row
}

/**
 * POST /api/team/invitations/:id/resend: a new link (the old one stops working) valid for 7
 * more days, emailed again. An expired invitation takes a seat again, so the limit applies.
 */
export async function resendInvitation(
  opts: ActingOptions & { id: string; mailer: Mailer; publicUrl: string },
): Promise<InvitationSent> {
  assertDeliversLinks(opts.mailer) // production without SMTP_URL: 409, nothing created
  const { token, hash } = newInvitationToken(opts.hospitalId)
  const { row, hospitalName } = await withPlatform(opts.db, async (tx) => {
    await lockTeam(tx, opts.hospitalId)
    const usage = await seatUsage(tx, opts.hospitalId, opts.id)
    await asTenant(tx, opts.hospitalId)
    const before = await openInvitation(tx, opts.id)
    assertSeatFree(usage)
    const [saved] = await tx
      .update(invitations)
      .set({
        tokenHash: hash,
        expiresAt: invitationExpiry(),
        sentCount: sql`${invitations.sentCount} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(invitations.id, before.id))
      .returning()
    if (!saved) throw notFound('Invitation')
    await audit(
      tx,
      opts,
      saved.id,
      'team.invitation_resent',
      `Resent the invitation of ${saved.name} <${saved.email}>`,
    )
    return { row: saved, hospitalName: usage.hospitalName }
  })
  const url = invitationUrl(opts.publicUrl, token)
  const emailStatus = await opts.mailer.send(
    invitationEmail({
      to: row.email,
      name: row.name,
      hospitalName,
      role: row.role as StaffRole,
      url,
    }),
  )
  return { invitation: toInvitation(row), emailStatus }
}

/** DELETE /api/team/invitations/:id: the link stops working and the seat is free again. */
export async function revokeInvitation(opts: ActingOptions & { id: string }): Promise<void> {
  await withPlatform(opts.db, async (tx) => {
    await lockTeam(tx, opts.hospitalId)
    await asTenant(tx, opts.hospitalId)
    const row = await openInvitation(tx, opts.id)
    await tx
      .update(invitations)
      .set({ revokedAt: new Date(), updatedAt: new Date() })
      .where(eq(invitations.id, row.id))
    await audit(
      tx,
      opts,
      row.id,
      'team.invitation_revoked',
      `Revoked the invitation of ${row.name} <${row.email}>`,
    )
  })
}
