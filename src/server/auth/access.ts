import { fromNodeHeaders } from 'better-auth/node'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { can, type Permission } from '../../shared/permissions'
import { type Role, roles } from '../../shared/roles'
import { mustEnrolTwoFactor } from '../../shared/schemas/auth'
import type { AppDb } from '../db/client'
import { AppError } from '../http/app-error'
import type { Auth } from './auth'
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
  role: Role
  isSuperAdmin: boolean
  hospitalId: string | null
  sessionId: string
  twoFactorEnabled: boolean
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

export interface SessionDeps {
  auth: Auth
  db: AppDb
  policy: SessionPolicy
}

/** The signed-in user of a request (null when signed out); each use keeps the session alive. */
export async function resolveActor(deps: SessionDeps, req: FastifyRequest): Promise<Actor | null> {
  const result = await deps.auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
  if (!result) return null
  const u = result.user as typeof result.user & Record<string, unknown>
  if (u.banned === true || u.isActive === false) return null
  await keepSessionAlive(deps.db, result.session, deps.policy)
  const impersonatedBy = (result.session as { impersonatedBy?: unknown }).impersonatedBy
  const role = roles.includes(u.role as Role) ? (u.role as Role) : 'viewer'
  return {
    userId: u.id,
    email: u.email,
    role,
    isSuperAdmin: u.isSuperAdmin === true || role === 'super_admin',
    hospitalId: typeof u.hospitalId === 'string' ? u.hospitalId : null,
    sessionId: result.session.id,
    twoFactorEnabled: u.twoFactorEnabled === true,
    impersonatedBy: typeof impersonatedBy === 'string' ? impersonatedBy : null,
  }
}

export const TWO_FACTOR_REQUIRED_MESSAGE =
  'Platform accounts must turn on two-factor authentication before doing anything else.'

/** The actor of a route guarded by a permission: always a hospital member. */
export function member(req: FastifyRequest): MemberActor {
  const actor = req.actor
  if (!actor?.hospitalId) throw new AppError('FORBIDDEN', 'You are not a member of a hospital')
  return actor as MemberActor
}

/** Who acts, for tenant services and their audit rows. */
export function actingMember(req: FastifyRequest) {
  const actor = member(req)
  return {
    hospitalId: actor.hospitalId,
    userId: actor.userId,
    impersonatorUserId: actor.impersonatedBy,
  }
}

export function registerAccessControl(app: FastifyInstance, deps: SessionDeps): void {
  app.decorateRequest('actor', null)

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
    const actor = req.actor
    if (!actor) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
    if (mustEnrolTwoFactor(actor) && !req.routeOptions.config.beforeEnrolment) {
      throw new AppError('TWO_FACTOR_REQUIRED', TWO_FACTOR_REQUIRED_MESSAGE)
    }
    switch (access.kind) {
      case 'authed':
        return
      case 'superAdmin':
        if (!actor.isSuperAdmin)
          throw new AppError('FORBIDDEN', 'Only a platform super admin may do this')
        return
      case 'permission':
        if (!actor.hospitalId) throw new AppError('FORBIDDEN', 'You are not a member of a hospital')
        if (!can(actor.role, access.permission)) {
          throw new AppError('FORBIDDEN', `Your role (${actor.role}) may not do this`)
        }
        return
    }
  })
}
