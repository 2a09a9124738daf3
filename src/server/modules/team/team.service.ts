import { and, asc, count, desc, eq, inArray, isNull, max, ne } from 'drizzle-orm'
import { roleOf } from '../../auth/access'
import type { StaffRole } from '../../../shared/roles'
import {
  LAST_ADMIN_MESSAGE,
  type Team,
  type TeamMember,
  type UpdateMemberInput,
} from '../../../shared/schemas/team'
import type { AppDb, Tx } from '../../db/client'
import { session, user } from '../../db/schema/auth'
import { securityEvents } from '../../db/schema/security'
import { invitations } from '../../db/schema/team'
import { withPlatform } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { toInvitation } from './invitations.service'
import {
  activeMemberOf,
  asPlatform,
  asTenant,
  assertSeatFree,
  HOSPITAL_SUSPENSION_REASON,
  lockTeam,
  seatUsage,
  suspendedByPlatform,
} from './team-db'

export interface TeamOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

/** The hospital's own staff: platform accounts are never listed or touched here. */
const staffOf = (hospitalId: string) =>
  and(eq(user.hospitalId, hospitalId), eq(user.isSuperAdmin, false), ne(user.role, 'super_admin'))

const memberColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  banned: user.banned,
  isActive: user.isActive,
  banReason: user.banReason,
  createdAt: user.createdAt,
}

/** GET /api/team: members (name order), open invitations (newest first) and the seats in use. */
export async function listTeam(opts: TeamOptions): Promise<Team> {
  return withPlatform(opts.db, async (tx) => {
    const rows = await tx
      .select(memberColumns)
      .from(user)
      .where(staffOf(opts.hospitalId))
      .orderBy(asc(user.name), asc(user.id))
    const ids = rows.map((r) => r.id)
    const signIns = ids.length
      ? await tx
          .select({ userId: securityEvents.userId, at: max(securityEvents.createdAt) })
          .from(securityEvents)
          .where(
            and(inArray(securityEvents.userId, ids), eq(securityEvents.event, 'sign_in.success')),
          )
          .groupBy(securityEvents.userId)
      : []
    const lastSignIn = new Map(signIns.map((s) => [s.userId, s.at]))
    const usage = await seatUsage(tx, opts.hospitalId)
    await asTenant(tx, opts.hospitalId)
    const open = await tx
      .select()
      .from(invitations)
      .where(and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .orderBy(desc(invitations.createdAt), desc(invitations.id))
    const names = new Map(rows.map((r) => [r.id, r.name]))
    const members: TeamMember[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      role: roleOf(r.role) as StaffRole,
      status: r.banned || !r.isActive ? 'suspended' : 'active',
      joinedAt: r.createdAt.toISOString(),
      lastSignInAt: lastSignIn.get(r.id)?.toISOString() ?? null,
      isYou: r.id === opts.userId,
    }))
    return {
      members,
      invitations: open.map((i) =>
        toInvitation(i, i.invitedByUserId ? (names.get(i.invitedByUserId) ?? null) : null),
      ),
      usage: {
        maxUsers: usage.maxUsers,
        activeMembers: usage.activeMembers,
        pendingInvitations: usage.pendingInvitations,
      },
    }
  })
}

/** What a PATCH changed (nothing, when the member already was so). */
export interface MemberChanges {
  role: string | undefined
  suspended: boolean
  activated: boolean
}

type MemberRow = Awaited<ReturnType<typeof findMember>>

/** A member of this hospital, locked; another hospital's user or a platform account is a 404. */
async function findMember(tx: Tx, hospitalId: string, id: string) {
  const [row] = await tx
    .select(memberColumns)
    .from(user)
    .where(and(eq(user.id, id), staffOf(hospitalId)))
    .for('update')
  if (!row) throw notFound('User')
  return row
}

const isActiveAdmin = (m: { role: string; banned: boolean; isActive: boolean }) =>
  m.role === 'admin' && !m.banned && m.isActive

/** Refuses a change that would leave the hospital without an active admin (409). */
async function assertAnotherAdmin(tx: Tx, hospitalId: string, target: MemberRow): Promise<void> {
  if (!isActiveAdmin(target)) return
  const [others] = await tx
    .select({ n: count() })
    .from(user)
    .where(and(activeMemberOf(hospitalId), eq(user.role, 'admin'), ne(user.id, target.id)))
  if ((others?.n ?? 0) === 0) throw new AppError('CONFLICT', LAST_ADMIN_MESSAGE)
}

async function audit(
  tx: Tx,
  opts: TeamOptions,
  target: MemberRow,
  action: string,
  summary: string,
) {
  await asTenant(tx, opts.hospitalId)
  await recordAudit(tx, {
    hospitalId: opts.hospitalId,
    actorUserId: opts.userId,
    impersonatorUserId: opts.impersonatorUserId,
    action,
    entityType: 'user',
    entityId: target.id,
    summary,
  })
  await asPlatform(tx)
}

/**
 * PATCH /api/team/members/:id: a new role, and/or suspend or activate. Suspension deletes the
 * member's sessions in the same transaction (migration 0008's triggers NOTIFY every instance,
 * which drop their cached sessions); the caller also drops this instance's cache at once.
 * Activation takes a seat, so the plan's limit applies. The last active admin cannot be
 * demoted or suspended. Returns the member and what changed.
 */
export async function updateMember(
  opts: TeamOptions & { id: string; values: UpdateMemberInput },
): Promise<{ member: TeamMember; changes: MemberChanges }> {
  const { role, status } = opts.values
  const result = await withPlatform(opts.db, async (tx) => {
    await lockTeam(tx, opts.hospitalId)
    const before = await findMember(tx, opts.hospitalId, opts.id)
    const wasSuspended = before.banned || !before.isActive
    const demote = role !== undefined && role !== 'admin' && before.role === 'admin'
    const suspend = status === 'suspended' && !wasSuspended
    const activate = status === 'active' && wasSuspended
    if (demote || suspend) await assertAnotherAdmin(tx, opts.hospitalId, before)
    if (activate && (!before.isActive || suspendedByPlatform(before)))
      throw new AppError(
        'CONFLICT',
        `${before.name} was suspended by Arogya support; only the platform can reactivate them`,
      )
    if (activate) assertSeatFree(await seatUsage(tx, opts.hospitalId))
    const set: Partial<typeof user.$inferInsert> = {}
    if (role !== undefined && role !== before.role) set.role = role
    if (suspend) Object.assign(set, { banned: true, banReason: HOSPITAL_SUSPENSION_REASON })
    if (activate)
      Object.assign(set, { banned: false, banReason: null, banExpires: null, isActive: true })
    if (Object.keys(set).length) {
      await tx
        .update(user)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(user.id, before.id))
    }
    if (suspend) await tx.delete(session).where(eq(session.userId, before.id))
    if (set.role)
      await audit(
        tx,
        opts,
        before,
        'team.member_role_changed',
        `Changed the role of ${before.name} from ${before.role} to ${set.role}`,
      )
    if (suspend)
      await audit(
        tx,
        opts,
        before,
        'team.member_suspended',
        `Suspended ${before.name} and ended their sessions`,
      )
    if (activate) await audit(tx, opts, before, 'team.member_activated', `Activated ${before.name}`)
    const after = await findMember(tx, opts.hospitalId, opts.id)
    return { after, changes: { role: set.role, suspended: suspend, activated: activate } }
  })
  const { after } = result
  return {
    member: {
      id: after.id,
      name: after.name,
      email: after.email,
      role: roleOf(after.role) as StaffRole,
      status: after.banned || !after.isActive ? 'suspended' : 'active',
      joinedAt: after.createdAt.toISOString(),
      lastSignInAt: null,
      isYou: after.id === opts.userId,
    },
    changes: result.changes,
  }
}

/**
 * DELETE /api/team/members/:id: the member is deactivated and detached from the hospital (the
 * account stays, so audit rows keep naming them), and their sessions end at once. The last
 * active admin cannot be removed.
 */
export async function removeMember(opts: TeamOptions & { id: string }): Promise<void> {
  await withPlatform(opts.db, async (tx) => {
    await lockTeam(tx, opts.hospitalId)
    const before = await findMember(tx, opts.hospitalId, opts.id)
    await assertAnotherAdmin(tx, opts.hospitalId, before)
    await tx.delete(session).where(eq(session.userId, before.id))
    await tx
      .update(user)
      .set({ isActive: false, hospitalId: null, updatedAt: new Date() })
      .where(eq(user.id, before.id))
    await audit(
      tx,
      opts,
      before,
      'team.member_removed',
      `Removed ${before.name} <${before.email}> from the team`,
    )
  })
}
