import { eq, sql } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import {
  PAST_DUE_GRACE_DAYS,
  READ_ONLY_MESSAGES,
  type ReadOnlyReason,
  type ReadOnlyState,
  type SupportVisit,
} from '../../shared/schemas/support-access'
import type { ActingRole } from '../../shared/roles'
import type { AppDb } from '../db/client'
import { hospitals } from '../db/schema/hospitals'
import { supportSessions } from '../db/schema/support'
import { withPlatform } from '../db/tenant'
import { AppError } from '../http/app-error'
import type { Access, Actor } from './access'

/*
 * Two per-request rules about the hospital a request acts in (issue 27, decision 029):
 *  - support access: a super admin's session that entered a hospital acts in it only while the
 *    grant behind it is live. Checked in the database on every request (never cached), so an
 *    expiry or a revocation takes effect at once on every instance;
 *  - read-only mode: a cancelled hospital, or one past due beyond the grace period, may read
 *    and export but not write.
 */

interface HospitalStatus {
  status: string
  changedAt: Date
}

/** Why a hospital is read-only now, or null when it is writable. */
export function readOnlyReason(h: HospitalStatus, now = Date.now()): ReadOnlyReason | null {
  if (h.status === 'cancelled') return 'cancelled'
  if (h.status === 'past_due' && now - h.changedAt.getTime() > PAST_DUE_GRACE_DAYS * 86_400_000)
    return 'past_due'
  return null
}

export function readOnlyStateOf(h: HospitalStatus): ReadOnlyState | null {
  const reason = readOnlyReason(h)
  return reason ? { reason, message: READ_ONLY_MESSAGES[reason] } : null
}

/**
 * Writes a read-only hospital may still make: signing out, its own account, exports, and
 * presence (Live Monitoring's heartbeat and pagehide beacon: no hospital data changes).
 */
export function writableWhenReadOnly(path: string): boolean {
  if (path === '/api/logout' || path.startsWith('/api/auth/') || path.startsWith('/api/me/'))
    return true
  if (path === '/api/live-monitoring/heartbeat' || path === '/api/live-monitoring/offline')
    return true
  return path.split('/').some((segment) => /^exports?(\.[a-z0-9]+)?$/.test(segment))
}

/** A support visit as the server keeps it per request: the grant behind it too. */
export interface ActiveSupportVisit extends SupportVisit {
  grantId: string
}

const visits = new WeakMap<FastifyRequest, ActiveSupportVisit>()

/** The support visit this request runs under (a super admin inside a hospital), if any. */
export function supportVisitOf(req: FastifyRequest): ActiveSupportVisit | null {
  return visits.get(req) ?? null
}

/**
 * The role a support visit acts as (issue 39): the support role, or the hospital's admin when
 * the hospital widened the grant to full admin explicitly.
 */
export function supportRoleOf(visit: Pick<SupportVisit, 'scope'>): 'support' | 'admin' {
  return visit.scope === 'full_admin' ? 'admin' : 'support'
}

/**
 * Whether the session's support visit under `grantId` is still live: the session is inside
 * under that grant, and the grant is neither revoked nor expired (open streams, issue 39).
 */
export async function supportGrantLive(
  db: AppDb,
  sessionId: string,
  grantId: string,
): Promise<boolean> {
  const result = await withPlatform(db, (tx) =>
    tx.execute(sql`
      select 1 from support_sessions s
      join support_access_grants g on g.id = s.grant_id
      where s.session_id = ${sessionId} and s.grant_id = ${grantId}
        and g.revoked_at is null and g.expires_at > now()`),
  )
  return (result as unknown as { rows: unknown[] }).rows.length > 0
}

export async function hospitalStatus(db: AppDb, hospitalId: string): Promise<HospitalStatus> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({ status: hospitals.subscriptionStatus, changedAt: hospitals.statusChangedAt })
      .from(hospitals)
      .where(eq(hospitals.id, hospitalId)),
  )
  return row ?? { status: 'active', changedAt: new Date() }
}

/** The super admin session's support visit, its grant checked now; ended ones are removed. */
async function supportVisit(
  db: AppDb,
  sessionId: string,
): Promise<
  | { kind: 'none' }
  | { kind: 'ended'; hospitalName: string }
  | { kind: 'live'; visit: ActiveSupportVisit; hospital: HospitalStatus }
> {
  const result = await withPlatform(db, (tx) =>
    tx.execute(sql`
      select s.hospital_id as "hospitalId", h.name as "hospitalName",
        h.subscription_status as "status", h.status_changed_at as "changedAt",
        g.expires_at as "expiresAt", g.id as "grantId", g.scope as "scope",
        (g.revoked_at is null and g.expires_at > now()) as "live"
      from support_sessions s
      join support_access_grants g on g.id = s.grant_id
      join hospitals h on h.id = s.hospital_id
      where s.session_id = ${sessionId}`),
  )
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0]
  if (!row) return { kind: 'none' }
  const hospitalName = String(row.hospitalName)
  if (row.live !== true) {
    await withPlatform(db, (tx) =>
      tx.delete(supportSessions).where(eq(supportSessions.sessionId, sessionId)),
    )
    return { kind: 'ended', hospitalName }
  }
  return {
    kind: 'live',
    visit: {
      hospitalId: String(row.hospitalId),
      hospitalName,
      expiresAt: new Date(row.expiresAt as string | Date).toISOString(),
      scope: row.scope === 'full_admin' ? 'full_admin' : 'support',
      grantId: String(row.grantId),
    },
    hospital: { status: String(row.status), changedAt: new Date(row.changedAt as string | Date) },
  }
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD'

/**
 * Runs after the session is resolved, before the route's own rule. Returns the actor the request
 * acts as: a super admin inside a hospital acts as a member of it with the support role (or the
 * admin role under a full-admin grant), their own id as both actor and impersonator (so every
 * audit row names them and marks it as support).
 */
export async function applyHospitalAccess(
  db: AppDb,
  req: FastifyRequest,
  actor: Actor,
  access: Access,
): Promise<Actor> {
  let acting = actor
  let status: HospitalStatus | undefined
  if (actor.isSuperAdmin && !actor.hospitalId) {
    const found = await supportVisit(db, actor.sessionId)
    if (found.kind === 'ended' && access.kind === 'permission')
      throw new AppError(
        'SUPPORT_ACCESS_ENDED',
        `Support access to ${found.hospitalName} has ended (it expired or the hospital revoked it)`,
      )
    if (found.kind === 'live') {
      visits.set(req, found.visit)
      status = found.hospital
      acting = {
        ...actor,
        hospitalId: found.visit.hospitalId,
        role: supportRoleOf(found.visit),
        impersonatedBy: actor.userId,
      }
    }
  }
  if (!acting.hospitalId || access.kind === 'superAdmin' || !isWrite(req.method)) return acting
  const path = req.url.split('?', 1)[0] ?? ''
  if (writableWhenReadOnly(path)) return acting
  const reason = readOnlyReason(status ?? (await hospitalStatus(db, acting.hospitalId)))
  if (reason) throw new AppError('HOSPITAL_READ_ONLY', READ_ONLY_MESSAGES[reason])
  return acting
}

/**
 * /api/auth/user as the request acts: a super admin inside a hospital shows with the role the
 * visit acts as (`support`, or `admin` under a full-admin grant) and the visit, so the client
 * hides what that role cannot do; a member of a read-only hospital sees why.
 */
export async function currentUserAsActing<
  U extends {
    hospitalId: string | null
    hospitalName: string | null
    timeZone: string
    role: ActingRole
  },
>(db: AppDb, req: FastifyRequest, current: U): Promise<U> {
  const visit = supportVisitOf(req)
  const hospitalId = visit?.hospitalId ?? current.hospitalId
  if (!hospitalId) return { ...current, supportVisit: null, readOnly: null }
  const [h] = await withPlatform(db, (tx) =>
    tx
      .select({
        name: hospitals.name,
        timeZone: hospitals.timeZone,
        status: hospitals.subscriptionStatus,
        changedAt: hospitals.statusChangedAt,
      })
      .from(hospitals)
      .where(eq(hospitals.id, hospitalId)),
  )
  const readOnly = h ? readOnlyStateOf(h) : null
  if (!visit) return { ...current, supportVisit: null, readOnly }
  const shown: SupportVisit = {
    hospitalId: visit.hospitalId,
    hospitalName: visit.hospitalName,
    expiresAt: visit.expiresAt,
    scope: visit.scope,
  }
  return {
    ...current,
    role: supportRoleOf(visit),
    hospitalId,
    hospitalName: h?.name ?? visit.hospitalName,
    timeZone: h?.timeZone ?? current.timeZone,
    supportVisit: shown,
    readOnly,
  }
}
