import { and, eq } from 'drizzle-orm'
import { splitName } from '../../../shared/names'
import type { StaffRole } from '../../../shared/roles'
import {
  EMAIL_TAKEN_MESSAGE,
  INVITATION_EXPIRED_MESSAGE,
  INVITATION_NOT_FOUND_MESSAGE,
  INVITATION_REVOKED_MESSAGE,
  INVITATION_USED_MESSAGE,
  type InvitationDetails,
  userLimitMessage,
} from '../../../shared/schemas/team'
import type { Auth } from '../../auth/auth'
import { insertCredentialUser } from '../../auth/credential-user'
import type { AppDb, Tx } from '../../db/client'
import { account, user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { invitations } from '../../db/schema/team'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import type { InvitationRow } from './invitations.service'
import { hashInvitationToken, hospitalIdOfToken } from './invitation-token'
import { asPlatform, asTenant, emailState, lockTeam, platformSuspended, seatUsage } from './team-db'
import { isUniqueViolation } from '../../db/sql-error'

/**
 * The public side of an invitation (no session): the acceptance page looks it up, then the
 * invitee sets a password. A link works once, for 7 days, unless revoked; anything else is a
 * clear 4xx that changes nothing. The token names its hospital, whose tenant is opened to find
 * the hashed token (invitations are under forced RLS).
 */

/** The invitation a token opens, whatever its state (tenant mode), locked for the accept. */
async function findByToken(tx: Tx, token: string): Promise<InvitationRow | undefined> {
  const hospitalId = hospitalIdOfToken(token)
  const [found] = await tx
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(eq(hospitals.id, hospitalId))
  if (!found) return undefined
  await asTenant(tx, hospitalId)
  const [row] = await tx
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, hashInvitationToken(token)))
    .for('update')
  await asPlatform(tx)
  return row
}

/** Refuses a token that is unknown, revoked, used or expired. */
function usable(row: InvitationRow | undefined): InvitationRow {
  if (!row) throw new AppError('NOT_FOUND', INVITATION_NOT_FOUND_MESSAGE)
  if (row.acceptedAt) throw new AppError('CONFLICT', INVITATION_USED_MESSAGE)
  if (row.revokedAt) throw new AppError('CONFLICT', INVITATION_REVOKED_MESSAGE)
  if (row.expiresAt.getTime() <= Date.now())
    throw new AppError('CONFLICT', INVITATION_EXPIRED_MESSAGE)
  return row
}

/** POST /api/public/invitations/lookup: what the acceptance page shows. */
export async function lookupInvitation(opts: {
  db: AppDb
  token: string
}): Promise<InvitationDetails> {
  return withPlatform(opts.db, async (tx) => {
    const row = usable(await findByToken(tx, opts.token))
    const [hospital] = await tx
      .select({ name: hospitals.name })
      .from(hospitals)
      .where(eq(hospitals.id, row.hospitalId))
    return {
      hospitalName: hospital?.name ?? '',
      email: row.email,
      name: row.name,
      role: row.role as StaffRole,
      expiresAt: row.expiresAt.toISOString(),
    }
  })
}

/**
 * POST /api/public/invitations/accept: the invitee's account (email verified: the link proves
 * the address), with the invitation's name and role, in the invitation's hospital; the
 * invitation is used up in the same transaction, with its audit row. The client signs in next.
 */
export async function acceptInvitation(opts: {
  db: AppDb
  auth: Auth
  token: string
  password: string
}): Promise<{ email: string; userId: string }> {
  // Cheap checks first, so a dead link costs no password hash.
  await lookupInvitation(opts)
  const passwordHash = await (await opts.auth.$context).password.hash(opts.password)
  try {
    return await withPlatform(opts.db, async (tx) => {
      const hospitalId = hospitalIdOfToken(opts.token)
      await lockTeam(tx, hospitalId)
      const row = usable(await findByToken(tx, opts.token))
      const existing = await emailState(tx, row.email)
      if (existing.kind === 'taken') throw new AppError('CONFLICT', EMAIL_TAKEN_MESSAGE)
      if (existing.kind === 'suspended') throw platformSuspended()
      // The invitation held a seat; should the plan have shrunk since, the limit still holds.
      const usage = await seatUsage(tx, hospitalId, row.id)
      if (usage.activeMembers + usage.pendingInvitations >= usage.maxUsers)
        throw new AppError('CONFLICT', userLimitMessage(usage.maxUsers))
      const userId =
        existing.kind === 'rejoin'
          ? await rejoin(tx, existing.userId, row, passwordHash)
          : await newMember(tx, row, passwordHash)
      await asTenant(tx, hospitalId)
      await tx
        .update(invitations)
        .set({ acceptedAt: new Date(), acceptedUserId: userId, updatedAt: new Date() })
        .where(eq(invitations.id, row.id))
      await recordAudit(tx, {
        hospitalId,
        actorUserId: userId,
        action: 'team.invitation_accepted',
        entityType: 'user',
        entityId: userId,
        summary: `${row.name} <${row.email}> accepted the invitation and joined as ${row.role}`,
      })
      return { email: row.email, userId }
    })
  } catch (error) {
    // The same address accepted twice at once: the second finds it taken.
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', INVITATION_USED_MESSAGE)
    throw error
  }
}

/** A new account with the invitation's name and role, its email verified by the link. */
async function newMember(tx: Tx, row: InvitationRow, passwordHash: string): Promise<string> {
  const { firstName, lastName } = splitName(row.name)
  const userId = await insertCredentialUser(
    tx,
    {
      email: row.email,
      firstName,
      lastName,
      role: row.role,
      hospitalId: row.hospitalId,
      emailVerified: true,
    },
    passwordHash,
  )
  if (row.name !== `${firstName} ${lastName}`.trim())
    await tx.update(user).set({ name: row.name }).where(eq(user.id, userId))
  return userId
}

/**
 * A removed member comes back (the same account, so old audit rows still name them): attached
 * to this hospital with the invitation's role, active, with the password just chosen.
 */
async function rejoin(tx: Tx, userId: string, row: InvitationRow, passwordHash: string) {
  await tx
    .update(user)
    .set({
      hospitalId: row.hospitalId,
      role: row.role,
      isActive: true,
      banned: false,
      banReason: null,
      banExpires: null,
      emailVerified: true,
      updatedAt: new Date(),
    })
    .where(eq(user.id, userId))
  const updated = await tx
    .update(account)
    .set({ password: passwordHash, updatedAt: new Date() })
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))
    .returning({ id: account.id })
  if (!updated.length)
    await tx.insert(account).values({
      id: crypto.randomUUID(),
      accountId: userId,
      providerId: 'credential',
      userId,
      password: passwordHash,
    })
  return userId
}
