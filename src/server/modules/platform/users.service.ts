import { and, asc, count, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { type Role, roleLabels, staffRoles } from '../../../shared/roles'
import type {
  PlatformUser,
  PlatformUserList,
  updateUserInput,
} from '../../../shared/schemas/platform'
import type { AppDb } from '../../db/client'
import { session, user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordPlatformAudit } from '../audit/platform-audit.service'
import { recordSecurityEvent, type SecurityEventName } from '../security/security-log'
import { containsPattern } from './hospital-rows'

/** users.ban_reason of a suspension by the platform: a hospital admin cannot undo it (team). */
export const PLATFORM_SUSPENSION_REASON = 'Suspended by the platform'

const columns = {
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  isActive: user.isActive,
  banned: user.banned,
  isSuperAdmin: user.isSuperAdmin,
  hospitalId: user.hospitalId,
  hospitalName: hospitals.name,
  plan: hospitals.plan,
  createdAt: user.createdAt,
}

interface Row {
  id: string
  name: string
  email: string
  role: string
  isActive: boolean
  banned: boolean
  isSuperAdmin: boolean
  hospitalId: string | null
  hospitalName: string | null
  plan: string | null
  createdAt: Date
}

function toUser(r: Row): PlatformUser {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role as Role,
    isActive: r.isActive,
    status: r.banned ? 'suspended' : 'active',
    isSuperAdmin: r.isSuperAdmin,
    hospitalId: r.hospitalId,
    hospitalName: r.hospitalName,
    plan: r.plan,
    createdAt: r.createdAt.toISOString(),
  }
}

/** GET /api/admin/users: every account (platform ones first), by hospital and name. */
export async function listUsers(opts: {
  db: AppDb
  q?: string | undefined
  hospitalId?: string | undefined
  limit: number
  offset: number
}): Promise<PlatformUserList> {
  const filters: SQL[] = []
  if (opts.q) {
    const pattern = containsPattern(opts.q)
    const match = or(ilike(user.name, pattern), ilike(user.email, pattern))
    if (match) filters.push(match)
  }
  if (opts.hospitalId) filters.push(eq(user.hospitalId, opts.hospitalId))
  const where = filters.length ? and(...filters) : undefined
  return withPlatform(opts.db, async (tx) => {
    const rows = await tx
      .select(columns)
      .from(user)
      .leftJoin(hospitals, eq(hospitals.id, user.hospitalId))
      .where(where)
      .orderBy(sql`${hospitals.name} asc nulls first`, asc(user.name), asc(user.id))
      .limit(opts.limit)
      .offset(opts.offset)
    const [total] = await tx.select({ n: count() }).from(user).where(where)
    return { items: rows.map(toUser), total: total?.n ?? 0 }
  })
}

/**
 * PATCH /api/admin/users/:id: role, active state and suspension. Deactivating or suspending
 * deletes the user's sessions in the same transaction; the triggers of drizzle/0008 tell every
 * instance to drop them from its session cache at commit.
 */
export async function updateUser(opts: {
  db: AppDb
  actorUserId: string
  id: string
  input: z.output<typeof updateUserInput>
}): Promise<PlatformUser> {
  const { input } = opts
  const events: SecurityEventName[] = []
  const target = await withPlatform(opts.db, async (tx) => {
    const [current] = await tx
      .select(columns)
      .from(user)
      .leftJoin(hospitals, eq(hospitals.id, user.hospitalId))
      .where(eq(user.id, opts.id))
      .for('update', { of: user })
    if (!current) throw notFound('User')
    if (current.id === opts.actorUserId)
      throw new AppError('CONFLICT', 'You cannot change your own account here')
    if (input.role !== undefined) checkRole(current, input.role)
    const changes: string[] = []
    if (input.role !== undefined && input.role !== current.role) {
      changes.push(`role ${roleLabels[current.role as Role]} → ${roleLabels[input.role]}`)
      events.push('user.role_changed')
    }
    const activating = input.isActive === true && !current.isActive
    const unsuspending = input.status === 'active' && current.banned
    if ((activating && !current.banned) || (unsuspending && current.isActive))
      await checkSeat(tx, current)
    if (input.isActive !== undefined && input.isActive !== current.isActive) {
      changes.push(input.isActive ? 'activated' : 'deactivated')
      if (!input.isActive) events.push('user.sessions_revoked')
    }
    if (input.status !== undefined && (input.status === 'suspended') !== current.banned) {
      changes.push(input.status === 'suspended' ? 'suspended' : 'unsuspended')
      events.push(input.status === 'suspended' ? 'user.suspended' : 'user.unsuspended')
    }
    if (!changes.length) return current
    await tx
      .update(user)
      .set({
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
        ...(input.status !== undefined
          ? input.status === 'suspended'
            ? { banned: true, banReason: PLATFORM_SUSPENSION_REASON }
            : { banned: false, banReason: null, banExpires: null }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(user.id, opts.id))
    if (input.isActive === false || input.status === 'suspended')
      await tx.delete(session).where(eq(session.userId, opts.id))
    await recordPlatformAudit(tx, {
      actorUserId: opts.actorUserId,
      hospitalId: current.hospitalId,
      action: 'user.updated',
      entityType: 'user',
      entityId: opts.id,
      summary: `${current.name} (${current.email}): ${changes.join('; ')}`,
    })
    return current
  })
  for (const event of events)
    await recordSecurityEvent(opts.db, {
      event,
      userId: target.id,
      email: target.email,
      hospitalId: target.hospitalId,
      details: { by: opts.actorUserId, ...(input.role ? { role: input.role } : {}) },
    })
  const [row] = await withPlatform(opts.db, (tx) =>
    tx
      .select(columns)
      .from(user)
      .leftJoin(hospitals, eq(hospitals.id, user.hospitalId))
      .where(eq(user.id, opts.id)),
  )
  if (!row) throw notFound('User')
  return toUser(row)
}

/** A hospital member holds a staff role; a platform account stays a super admin. */
function checkRole(current: Row, role: Role): void {
  if (current.hospitalId && !(staffRoles as readonly string[]).includes(role))
    throw new AppError('VALIDATION', 'A hospital member cannot be made a super admin', [
      { path: 'role', message: 'Choose admin, doctor, nurse, receptionist or viewer' },
    ])
  if (!current.hospitalId && role !== 'super_admin')
    throw new AppError('VALIDATION', 'A platform account keeps the super admin role', [
      { path: 'role', message: 'A platform account keeps the super admin role' },
    ])
}

/** Activating a member takes a seat of the hospital's plan (maxUsers). */
async function checkSeat(
  tx: Parameters<Parameters<typeof withPlatform>[1]>[0],
  current: Row,
): Promise<void> {
  if (!current.hospitalId) return
  const [h] = await tx
    .select({ maxUsers: hospitals.maxUsers })
    .from(hospitals)
    .where(eq(hospitals.id, current.hospitalId))
  const [seats] = await tx
    .select({ n: count() })
    .from(user)
    .where(
      and(
        eq(user.hospitalId, current.hospitalId),
        eq(user.isActive, true),
        eq(user.banned, false),
        ne(user.id, current.id),
      ),
    )
  if (h && (seats?.n ?? 0) >= h.maxUsers)
    throw new AppError(
      'CONFLICT',
      `${current.hospitalName ?? 'This hospital'} already has ${h.maxUsers} active users, its plan's limit. Raise Max users first.`,
    )
}
