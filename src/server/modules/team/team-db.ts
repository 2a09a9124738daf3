import { and, count, eq, gt, isNull, ne, sql } from 'drizzle-orm'
import { PLATFORM_SUSPENDED_MESSAGE, userLimitMessage } from '../../../shared/schemas/team'
import type { Tx } from '../../db/client'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { invitations } from '../../db/schema/team'
import { AppError, notFound } from '../../http/app-error'

/**
 * What the team services share. Users and hospitals are platform tables (read as the
 * connecting role); invitations and audit rows are tenant rows (app_user, hospital set), so a
 * team transaction starts as the platform and switches to the tenant for those, and back.
 */

/** The rest of this transaction runs as app_user inside this hospital (forced RLS applies). */
export async function asTenant(tx: Tx, hospitalId: string): Promise<void> {
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospitalId}, true)`,
  )
}

/** Back to the connecting role, for platform rows (users, sessions, hospitals). */
export async function asPlatform(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('role', 'none', true)`)
}

/**
 * Serialises changes to one hospital's team (invites, activations, role changes, removals)
 * until COMMIT: two requests cannot both take the plan's last place, or both demote the two
 * last admins. Transaction-scoped, so safe behind PgBouncer; its own key (not the patients').
 */
export async function lockTeam(tx: Tx, hospitalId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`team:${hospitalId}`}, 0))`)
}

/** A member who holds a seat: active, not suspended, not a platform account. */
export const activeMemberOf = (hospitalId: string) =>
  and(
    eq(user.hospitalId, hospitalId),
    eq(user.isActive, true),
    eq(user.banned, false),
    eq(user.isSuperAdmin, false),
    ne(user.role, 'super_admin'),
  )

/** An invitation that still holds a seat: neither accepted nor revoked, not expired. */
export const pendingInvitation = () =>
  and(
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, sql`now()`),
  )

export interface SeatUsage {
  hospitalName: string
  maxUsers: number
  activeMembers: number
  pendingInvitations: number
}

/**
 * The plan's seats in use (platform mode in, platform mode out). `exceptInvitationId` leaves
 * one invitation out (the one being resent or accepted).
 */
export async function seatUsage(
  tx: Tx,
  hospitalId: string,
  exceptInvitationId?: string,
): Promise<SeatUsage> {
  const [hospital] = await tx
    .select({ name: hospitals.name, maxUsers: hospitals.maxUsers })
    .from(hospitals)
    .where(eq(hospitals.id, hospitalId))
  if (!hospital) throw notFound('Hospital')
  const [members] = await tx.select({ n: count() }).from(user).where(activeMemberOf(hospitalId))
  await asTenant(tx, hospitalId)
  const [pending] = await tx
    .select({ n: count() })
    .from(invitations)
    .where(
      exceptInvitationId
        ? and(pendingInvitation(), ne(invitations.id, exceptInvitationId))
        : pendingInvitation(),
    )
  await asPlatform(tx)
  return {
    hospitalName: hospital.name,
    maxUsers: hospital.maxUsers,
    activeMembers: members?.n ?? 0,
    pendingInvitations: pending?.n ?? 0,
  }
}

/** Refuses one more seat beyond the plan's limit (409 naming the limit). */
export function assertSeatFree(usage: SeatUsage): void {
  if (usage.activeMembers + usage.pendingInvitations >= usage.maxUsers)
    throw new AppError('CONFLICT', userLimitMessage(usage.maxUsers))
}

/** The ban reason a hospital admin's suspension stores (Team: Suspend). */
export const HOSPITAL_SUSPENSION_REASON = 'Suspended by the hospital admin'

/**
 * A suspension the platform made (Super Admin's users, or better-auth's ban-user with any
 * reason): every ban but the hospital's own. A hospital never lifts one.
 */
export const suspendedByPlatform = (u: { banned: boolean; banReason: string | null }) =>
  u.banned && u.banReason !== HOSPITAL_SUSPENSION_REASON

/**
 * The account that already uses this email (platform mode): 'free' when none; 'rejoin' when it
 * is a removed member (no hospital, deactivated, not a platform account), who may be invited
 * again and gets a new password on accepting; 'suspended' when the platform suspended it (a
 * hospital never undoes that: no invitation, no acceptance, whatever the account's state);
 * 'taken' otherwise.
 */
export async function emailState(
  tx: Tx,
  email: string,
): Promise<
  { kind: 'free' } | { kind: 'rejoin'; userId: string } | { kind: 'taken' } | { kind: 'suspended' }
> {
  const [row] = await tx
    .select({
      id: user.id,
      hospitalId: user.hospitalId,
      isActive: user.isActive,
      isSuperAdmin: user.isSuperAdmin,
      role: user.role,
      banned: user.banned,
      banReason: user.banReason,
    })
    .from(user)
    .where(eq(user.email, email))
  if (!row) return { kind: 'free' }
  if (suspendedByPlatform(row)) return { kind: 'suspended' }
  if (!row.hospitalId && !row.isActive && !row.isSuperAdmin && row.role !== 'super_admin')
    return { kind: 'rejoin', userId: row.id }
  return { kind: 'taken' }
}

/** The 409 for an address the platform suspended (invitation or acceptance). */
export const platformSuspended = () =>
  new AppError('CONFLICT', PLATFORM_SUSPENDED_MESSAGE, [
    { path: 'email', message: PLATFORM_SUSPENDED_MESSAGE },
  ])
