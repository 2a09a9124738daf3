import { fromNodeHeaders } from 'better-auth/node'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { can, type Permission, supportRefusal } from '../../shared/permissions'
import { type ActingRole, type Role, roles } from '../../shared/roles'
import { mustEnrolTwoFactor } from '../../shared/schemas/auth'
import type { AppDb } from '../db/client'
import { AppError } from '../http/app-error'
import type { Auth } from './auth'
import { cookieValue, type SessionCache, sessionCacheKey } from './session-cache'
import { type HospitalSecurity, securityFor } from './hospital-policy'
import { keepSessionAlive, type SessionPolicy } from './session-policy'

/** Who may call a route. Every /api route declares one; registration fails otherwise. */
export type Access =
  | { kind: 'public' }
  | { kind: 'authed' }
  | { kind: 'permission'; permission: Permission }
  | { kind: 'superAdmin' }

export const publicRoute = { access: { kind: 'public' } satisfies Access }
export const authed = { access: { kind: 'authed' } satisfies Access }
/** Signed in, and open to a platform account that has not enrolled two-factor yet. */
export const authedBeforeEnrolment = { ...authed, beforeEnrolment: true }
export const superAdmin = { access: { kind: 'superAdmin' } satisfies Access }
export function requirePermission(permission: Permission) {
  return { access: { kind: 'permission', permission } satisfies Access }
}

export interface Actor {
  userId: string
  email: string
  /** The role the request acts as: `support` for a super admin inside under a support grant. */
  role: ActingRole
  isSuperAdmin: boolean
  hospitalId: string | null
  sessionId: string
  twoFactorEnabled: boolean
  /** The user's hospital requires two-factor of every member (Settings -> Security). */
  twoFactorRequired: boolean
  /** When an administrator acts as this user: the administrator's id (impersonation). */
  impersonatedBy: string | null
}

/** A signed-in member of a hospital: what tenant services receive. */
export interface MemberActor extends Actor {
  hospitalId: string
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access
    beforeEnrolment?: boolean
  }
  interface FastifyRequest {
    actor: Actor | null
  }
}

/** A signed-in session as the session cache keeps it: the actor, its deadlines and limits. */
export interface CachedActor extends Actor {
  role: Role
  createdAt: Date
  expiresAt: Date
  /** The session limits of the user's hospital (or the global ones): hospital-policy.ts. */
  policy: SessionPolicy
}

export interface SessionDeps {
  auth: Auth
  db: AppDb
  /** The global session limits: accounts outside a hospital, and hospitals without a timeout. */
  policy: SessionPolicy
  /** Recently resolved sessions (session-cache.ts, docs/decisions/010). */
  sessions: SessionCache<CachedActor>
  /** A user's hospital policy; securityFor (hospital-policy.ts) unless a unit test stubs it. */
  securityOf?: (hospitalId: string | null) => Promise<HospitalSecurity>
  /**
   * Runs after sign-in and two-factor are checked, before the route's rule: who the request
   * acts as inside a hospital (support access) and whether it may write (read-only mode).
   */
  hospitalAccess?: (req: FastifyRequest, actor: Actor, access: Access) => Promise<Actor>
}

const cookieNames = new WeakMap<Auth, Promise<string>>()

/** better-auth's session cookie name (with its prefix, and __Secure- on HTTPS). */
export function sessionCookieName(auth: Auth): Promise<string> {
  let name = cookieNames.get(auth)
  if (!name) {
    name = auth.$context.then((ctx) => ctx.authCookies.sessionToken.name)
    cookieNames.set(auth, name)
  }
  return name
}

/** The session token inside a signed cookie value (`<token>.<signature>`, maybe %-encoded). */
function tokenOf(signed: string): string {
  let value = signed.startsWith('"') ? signed.slice(1, -1) : signed
  try {
    value = decodeURIComponent(value)
  } catch {
    // as sent
  }
  const dot = value.lastIndexOf('.')
  return dot === -1 ? value : value.slice(0, dot)
}

function toActor(s: CachedActor): Actor {
  return {
    userId: s.userId,
    email: s.email,
    role: s.role,
    isSuperAdmin: s.isSuperAdmin,
    hospitalId: s.hospitalId,
    sessionId: s.sessionId,
    twoFactorEnabled: s.twoFactorEnabled,
    twoFactorRequired: s.twoFactorRequired,
    impersonatedBy: s.impersonatedBy,
  }
}

/**
 * The role a user acts with. A value not in the list (a typo, a role from a newer build,
 * better-auth's 'user') gets the least privilege, never more: users.role has a CHECK
 * constraint (migration 0015), so this is the second line of defence.
 */
export function roleOf(value: unknown): Role {
  return roles.includes(value as Role) ? (value as Role) : 'viewer'
}

type SessionFacts = Omit<CachedActor, 'twoFactorRequired' | 'policy'>

/** What better-auth's getSession found, as an actor (null: suspended or inactive). */
function fromSession(result: {
  session: { id: string; createdAt: Date; expiresAt: Date }
  user: { id: string; email: string }
}): SessionFacts | null {
  const u = result.user as typeof result.user & Record<string, unknown>
  if (u.banned === true || u.isActive === false) return null
  const impersonatedBy = (result.session as { impersonatedBy?: unknown }).impersonatedBy
  const role = roleOf(u.role)
  return {
    userId: u.id,
    email: u.email,
    role,
    isSuperAdmin: u.isSuperAdmin === true || role === 'super_admin',
    hospitalId: typeof u.hospitalId === 'string' ? u.hospitalId : null,
    sessionId: result.session.id,
    twoFactorEnabled: u.twoFactorEnabled === true,
    impersonatedBy: typeof impersonatedBy === 'string' ? impersonatedBy : null,
    createdAt: result.session.createdAt,
    expiresAt: result.session.expiresAt,
  }
}

/** Moves the idle deadline when due (about once a minute) and keeps the cache in step. */
async function keepAlive(
  deps: SessionDeps,
  key: string | undefined,
  s: CachedActor,
): Promise<Actor | null> {
  const kept = await keepSessionAlive(deps.db, { ...s, id: s.sessionId }, s.policy)
  if (kept.kind === 'gone') {
    if (key) deps.sessions.dropKey(key)
    return null
  }
  if (kept.kind === 'moved' && key) deps.sessions.update(key, { ...s, expiresAt: kept.expiresAt })
  return toActor(s)
}

/**
 * The signed-in user of a request (null when signed out); each use keeps the session alive.
 * A session resolved in the last few seconds comes from the session cache without a database
 * round trip; anything else (first use, a forged or stale cookie, a revoked session) goes to
 * better-auth, which checks the signature and looks the session and user up.
 */
export async function resolveActor(deps: SessionDeps, req: FastifyRequest): Promise<Actor | null> {
  const signed = cookieValue(req.headers.cookie, await sessionCookieName(deps.auth))
  const key = signed ? sessionCacheKey(signed) : undefined
  const hit = key ? deps.sessions.get(key) : undefined
  if (hit && hit.expiresAt.getTime() > Date.now()) return keepAlive(deps, key, hit)

  const generation = deps.sessions.generation()
  const result = await deps.auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
  const facts = result ? fromSession(result) : null
  if (!result || !facts) {
    if (key) deps.sessions.dropKey(key)
    return null
  }
  // The hospital's policy is read after the generation was taken: a policy change meanwhile
  // (NOTIFY from migration 0026) keeps this answer out of the cache.
  const security = deps.securityOf
    ? await deps.securityOf(facts.hospitalId)
    : await securityFor(deps.db, facts.hospitalId, deps.policy)
  const found: CachedActor = {
    ...facts,
    twoFactorRequired: security.requireTwoFactor,
    policy: security.policy,
  }
  // Cached only when the cookie we keyed on is the one better-auth accepted.
  if (key && signed && tokenOf(signed) === result.session.token) {
    deps.sessions.set(key, found, generation)
  }
  return keepAlive(deps, key, found)
}

/**
 * Requests after which this instance's cached sessions of the caller (and of a `userId` named
 * in the body) are dropped before the answer leaves: sign-out, revoked sessions, password and
 * two-factor changes, suspension. Every instance also hears it by NOTIFY (migration 0008).
 */
function mayRevoke(method: string, url: string): boolean {
  const path = url.split('?', 1)[0] ?? ''
  if (path === '/api/logout') return true
  return method !== 'GET' && path.startsWith('/api/auth/')
}

async function dropRevoked(deps: SessionDeps, req: FastifyRequest): Promise<void> {
  const signed = cookieValue(req.headers.cookie, await sessionCookieName(deps.auth))
  const own = signed ? deps.sessions.dropKey(sessionCacheKey(signed)) : undefined
  const userId = own?.userId ?? req.actor?.userId
  if (userId) deps.sessions.dropUser(userId)
  const target = (req.body as { userId?: unknown } | undefined)?.userId
  if (typeof target === 'string') deps.sessions.dropUser(target)
}

export const TWO_FACTOR_REQUIRED_MESSAGE =
  'Platform accounts must turn on two-factor authentication before doing anything else.'
export const HOSPITAL_TWO_FACTOR_REQUIRED_MESSAGE =
  'Your hospital requires two-factor authentication: turn it on before doing anything else.'

/** The 403 for an account that must enrol in two-factor first (platform or hospital rule). */
export function twoFactorRequiredError(actor: Actor): AppError {
  return new AppError(
    'TWO_FACTOR_REQUIRED',
    actor.isSuperAdmin ? TWO_FACTOR_REQUIRED_MESSAGE : HOSPITAL_TWO_FACTOR_REQUIRED_MESSAGE,
  )
}

/** The actor of a route guarded by a permission: always a hospital member. */
export function member(req: FastifyRequest): MemberActor {
  const actor = req.actor
  if (!actor?.hospitalId) throw new AppError('FORBIDDEN', 'You are not a member of a hospital')
  return actor as MemberActor
}

/**
 * Who acts, for tenant services and their audit rows; `actingRole` for the few services that
 * check a finer rule inside one route (PUT /api/settings' security section).
 */
export function actingMember(req: FastifyRequest) {
  const actor = member(req)
  return {
    hospitalId: actor.hospitalId,
    userId: actor.userId,
    impersonatorUserId: actor.impersonatedBy,
    actingRole: actor.role,
  }
}

/**
 * The refusal for a permission the actor lacks. A support visit hears the rule that refuses
 * it (SUPPORT_NOT_ALLOWED); staff hear that their role may not.
 */
export function permissionRefusal(role: ActingRole, permission: Permission): AppError {
  if (role === 'support') return new AppError('SUPPORT_NOT_ALLOWED', supportRefusal(permission))
  return new AppError('FORBIDDEN', `Your role (${role}) may not do this`)
}

export function registerAccessControl(app: FastifyInstance, deps: SessionDeps): void {
  app.decorateRequest('actor', null)

  app.addHook('onSend', async (req, reply) => {
    if (reply.statusCode < 400 && mayRevoke(req.method, req.url)) await dropRevoked(deps, req)
  })

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return
    if (!route.config?.access) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`)
    }
  })

  app.addHook('preHandler', async (req) => {
    const access = req.routeOptions.config.access
    if (!access || access.kind === 'public') return
    req.actor = await resolveActor(deps, req)
    let actor = req.actor
    if (!actor) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
    if (mustEnrolTwoFactor(actor) && !req.routeOptions.config.beforeEnrolment) {
      throw twoFactorRequiredError(actor)
    }
    // Support access and read-only mode (auth/hospital-access.ts, decision 029).
    if (deps.hospitalAccess) actor = req.actor = await deps.hospitalAccess(req, actor, access)
    switch (access.kind) {
      case 'authed':
        return
      case 'superAdmin':
        if (!actor.isSuperAdmin)
          throw new AppError('FORBIDDEN', 'Only a platform super admin may do this')
        return
      case 'permission':
        if (!actor.hospitalId) throw new AppError('FORBIDDEN', 'You are not a member of a hospital')
        if (!can(actor.role, access.permission))
          throw permissionRefusal(actor.role, access.permission)
        return
    }
  })
}
