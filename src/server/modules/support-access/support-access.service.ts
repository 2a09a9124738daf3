import { and, desc, eq, gt, inArray, isNotNull, isNull, like, or, sql } from 'drizzle-orm'
import type {
  GrantStatus,
  SupportAccessOverview,
  SupportGrant,
  SupportScope,
  SupportVisit,
} from '../../../shared/schemas/support-access'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { auditEvents } from '../../db/schema/audit'
import { hospitals } from '../../db/schema/hospitals'
import { supportAccessGrants, supportSessions } from '../../db/schema/support'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { recordPlatformAudit } from '../audit/platform-audit.service'
import { asPlatform, asTenant } from '../team/team-db'
import { notifySupportEnded } from './support-ended'

/** The hospital admin who manages grants (never a super admin inside under a grant). */
export interface HospitalAdminOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId: string | null
}

const GRANTS_SHOWN = 20
const ACTIONS_SHOWN = 50

function refuseSupport(opts: HospitalAdminOptions): void {
  if (opts.impersonatorUserId)
    throw new AppError('FORBIDDEN', 'Only the hospital’s own admins manage support access')
}

type GrantRow = typeof supportAccessGrants.$inferSelect

function statusOf(g: GrantRow, now = Date.now()): GrantStatus {
  if (g.revokedAt) return 'revoked'
  return g.expiresAt.getTime() > now ? 'active' : 'expired'
}

async function namesOf(db: AppDb, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))]
  if (!wanted.length) return new Map()
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({ id: user.id, name: user.name, email: user.email })
      .from(user)
      .where(inArray(user.id, wanted)),
  )
  return new Map(rows.map((r) => [r.id, `${r.name} <${r.email}>`]))
}

function toGrant(g: GrantRow, names: Map<string, string>): SupportGrant {
  return {
    id: g.id,
    hours: g.hours,
    reason: g.reason,
    scope: g.scope,
    grantedBy: names.get(g.grantedByUserId) ?? null,
    createdAt: g.createdAt.toISOString(),
    expiresAt: g.expiresAt.toISOString(),
    revokedAt: g.revokedAt?.toISOString() ?? null,
    revokedBy: g.revokedByUserId ? (names.get(g.revokedByUserId) ?? null) : null,
    status: statusOf(g),
  }
}

/** GET /api/support-access: the latest grants and what support did inside, newest first. */
export async function supportAccessOverview(
  opts: HospitalAdminOptions,
): Promise<SupportAccessOverview> {
  refuseSupport(opts)
  const grants = await withPlatform(opts.db, (tx) =>
    tx
      .select()
      .from(supportAccessGrants)
      .where(eq(supportAccessGrants.hospitalId, opts.hospitalId))
      .orderBy(desc(supportAccessGrants.createdAt), desc(supportAccessGrants.id))
      .limit(GRANTS_SHOWN),
  )
  const actions = await withTenant(opts.db, opts, (tx) =>
    tx
      .select()
      .from(auditEvents)
      .where(
        or(
          isNotNull(auditEvents.impersonatorUserId),
          like(auditEvents.action, 'platform.support.%'),
        ),
      )
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(ACTIONS_SHOWN),
  )
  const names = await namesOf(opts.db, [
    ...grants.flatMap((g) => [g.grantedByUserId, g.revokedByUserId]),
    ...actions.map((a) => a.impersonatorUserId ?? a.actorUserId),
  ])
  return {
    grants: grants.map((g) => toGrant(g, names)),
    actions: actions.map((a) => {
      const by = a.impersonatorUserId ?? a.actorUserId
      return {
        id: a.id,
        createdAt: a.createdAt.toISOString(),
        by: (by && names.get(by)) ?? 'Arogya support',
        action: a.action,
        summary: a.summary,
      }
    }),
  }
}

const scopeWords: Record<SupportScope, string> = {
  support: 'support access',
  full_admin: 'full admin support access',
}

/**
 * POST /api/support-access: lets super admins in for `hours`, audited in the hospital. `scope`
 * 'support' (the default) acts as the support role; 'full_admin', given explicitly, as admin.
 */
export async function grantSupportAccess(
  opts: HospitalAdminOptions & { hours: number; reason: string; scope?: SupportScope },
): Promise<SupportGrant> {
  const scope = opts.scope ?? 'support'
  refuseSupport(opts)
  const grant = await withPlatform(opts.db, async (tx) => {
    const [row] = await tx
      .insert(supportAccessGrants)
      .values({
        hospitalId: opts.hospitalId,
        grantedByUserId: opts.userId,
        reason: opts.reason,
        hours: opts.hours,
        scope,
        expiresAt: sql`now() + make_interval(hours => ${opts.hours})`,
      })
      .returning()
    if (!row) throw new Error('support grant not stored')
    await asTenant(tx, opts.hospitalId)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      action: 'support.granted',
      entityType: 'support_access_grant',
      entityId: row.id,
      summary: `Granted ${scopeWords[scope]} for ${opts.hours} hour${opts.hours === 1 ? '' : 's'}: ${opts.reason}`,
    })
    return row
  })
  return toGrant(grant, await namesOf(opts.db, [opts.userId]))
}

/**
 * POST /api/support-access/:id/revoke: ends the grant now. Sessions inside under it are refused
 * from their next request on (SUPPORT_ACCESS_ENDED; the per-request check then removes them),
 * and, by a NOTIFY sent at COMMIT, their open event streams end at once on every instance.
 */
export async function revokeSupportAccess(
  opts: HospitalAdminOptions & { id: string },
): Promise<SupportGrant> {
  refuseSupport(opts)
  const grant = await withPlatform(opts.db, async (tx) => {
    const [current] = await tx
      .select()
      .from(supportAccessGrants)
      .where(
        and(
          eq(supportAccessGrants.id, opts.id),
          eq(supportAccessGrants.hospitalId, opts.hospitalId),
        ),
      )
      .for('update')
    if (!current) throw notFound('Support access grant')
    if (statusOf(current) !== 'active')
      throw new AppError('CONFLICT', 'This support access has already ended')
    const [row] = await tx
      .update(supportAccessGrants)
      .set({ revokedAt: new Date(), revokedByUserId: opts.userId })
      .where(eq(supportAccessGrants.id, opts.id))
      .returning()
    await asTenant(tx, opts.hospitalId)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      action: 'support.revoked',
      entityType: 'support_access_grant',
      entityId: opts.id,
      summary: `Revoked support access granted for: ${current.reason}`,
    })
    await asPlatform(tx)
    await notifySupportEnded(tx, { hospitalId: opts.hospitalId, grantId: opts.id })
    return row ?? current
  })
  return toGrant(grant, await namesOf(opts.db, [grant.grantedByUserId, grant.revokedByUserId]))
}

/**
 * POST /api/admin/hospitals/:id/support-session: the super admin's session enters the hospital
 * under its longest live grant; 403 without one. Audited on the platform and in the hospital.
 */
export async function enterHospital(opts: {
  db: AppDb
  userId: string
  sessionId: string
  hospitalId: string
}): Promise<SupportVisit> {
  return withPlatform(opts.db, async (tx) => {
    const [hospital] = await tx
      .select({ name: hospitals.name })
      .from(hospitals)
      .where(eq(hospitals.id, opts.hospitalId))
    if (!hospital) throw notFound('Hospital')
    const [grant] = await tx
      .select()
      .from(supportAccessGrants)
      .where(
        and(
          eq(supportAccessGrants.hospitalId, opts.hospitalId),
          isNull(supportAccessGrants.revokedAt),
          gt(supportAccessGrants.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(supportAccessGrants.expiresAt))
      .limit(1)
    if (!grant)
      throw new AppError(
        'FORBIDDEN',
        `${hospital.name} has not granted support access. Ask its admin to grant it in Admin → Support access.`,
      )
    await tx
      .insert(supportSessions)
      .values({
        sessionId: opts.sessionId,
        userId: opts.userId,
        grantId: grant.id,
        hospitalId: opts.hospitalId,
      })
      .onConflictDoUpdate({
        target: supportSessions.sessionId,
        set: { grantId: grant.id, hospitalId: opts.hospitalId, enteredAt: new Date() },
      })
    await recordPlatformAudit(tx, {
      actorUserId: opts.userId,
      hospitalId: opts.hospitalId,
      action: 'support.entered',
      entityType: 'hospital',
      entityId: opts.hospitalId,
      summary: `Entered ${hospital.name} under ${scopeWords[grant.scope]} until ${grant.expiresAt.toISOString()}`,
    })
    return {
      hospitalId: opts.hospitalId,
      hospitalName: hospital.name,
      expiresAt: grant.expiresAt.toISOString(),
      scope: grant.scope,
    }
  })
}

/** DELETE /api/admin/support-session: the session leaves the hospital it is in (if any). */
export async function exitHospital(opts: {
  db: AppDb
  userId: string
  sessionId: string
}): Promise<void> {
  await withPlatform(opts.db, async (tx) => {
    const [left] = await tx
      .delete(supportSessions)
      .where(eq(supportSessions.sessionId, opts.sessionId))
      .returning({ hospitalId: supportSessions.hospitalId })
    if (!left) return
    const [hospital] = await tx
      .select({ name: hospitals.name })
      .from(hospitals)
      .where(eq(hospitals.id, left.hospitalId))
    await recordPlatformAudit(tx, {
      actorUserId: opts.userId,
      hospitalId: left.hospitalId,
      action: 'support.exited',
      entityType: 'hospital',
      entityId: left.hospitalId,
      summary: `Left ${hospital?.name ?? 'the hospital'}`,
    })
  })
}
