import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AppDb } from '../db/client'
import { registerErrorHandler } from '../http/error-handler'
import {
  actingMember,
  authed,
  authedBeforeEnrolment,
  type CachedActor,
  publicRoute,
  registerAccessControl,
  requirePermission,
  roleOf,
  superAdmin,
  HOSPITAL_TWO_FACTOR_REQUIRED_MESSAGE,
  TWO_FACTOR_REQUIRED_MESSAGE,
} from './access'
import type { Auth } from './auth'
import { createSessionCache } from './session-cache'

// The route guards at their edges (mutation testing, docs/decisions/024), with better-auth's
// getSession replaced by a stub: who is signed in, who may do what, what is cached.

const COOKIE = 'arogya.session_token'
const future = () => new Date(Date.now() + 3_600_000)

interface StubUser {
  id: string
  email: string
  role?: unknown
  isSuperAdmin?: unknown
  hospitalId?: unknown
  twoFactorEnabled?: unknown
  banned?: unknown
  isActive?: unknown
}

let user: StubUser | null
let sessionExtra: Record<string, unknown>
let getSessionCalls = 0

const auth = {
  $context: Promise.resolve({ authCookies: { sessionToken: { name: COOKIE } } }),
  api: {
    getSession: async () => {
      getSessionCalls++
      if (!user) return null
      return {
        session: {
          id: 'session-1',
          token: 'tok',
          createdAt: new Date(),
          expiresAt: future(),
          ...sessionExtra,
        },
        user,
      }
    },
  },
} as unknown as Auth

const sessions = createSessionCache<CachedActor>()
let app: FastifyInstance

beforeAll(async () => {
  app = Fastify()
  registerErrorHandler(app)
  // The idle deadline is never due here (expiresAt an hour away): no database is touched.
  registerAccessControl(app, {
    auth,
    db: {} as AppDb,
    policy: { absoluteHours: 12, idleMinutes: 30 },
    sessions,
    // Hospital 'h2' requires two-factor of its members (Settings -> Security).
    securityOf: async (hospitalId) => ({
      requireTwoFactor: hospitalId === 'h2',
      policy: { absoluteHours: 12, idleMinutes: 30 },
    }),
  })
  app.get('/api/public', { config: publicRoute }, async (req) => ({ actor: req.actor }))
  app.get('/api/me', { config: authed }, async (req) => req.actor)
  app.get('/api/enrol', { config: authedBeforeEnrolment }, async () => ({ ok: true }))
  app.get('/api/platform', { config: superAdmin }, async () => ({ ok: true }))
  app.post('/api/patients', { config: requirePermission('patients:write') }, async (req) =>
    actingMember(req),
  )
  app.get('/api/audit', { config: requirePermission('audit:read') }, async () => ({ ok: true }))
  app.get('/outside', async () => ({ ok: true }))
  await app.ready()
})
afterAll(() => app?.close())
beforeEach(() => {
  user = null
  sessionExtra = {}
  getSessionCalls = 0
  sessions.clear()
})

const call = (method: 'GET' | 'POST', url: string, cookie = `${COOKIE}=tok.sig`) =>
  app.inject({ method, url, headers: { cookie }, ...(method === 'POST' ? { payload: {} } : {}) })

describe('roleOf', () => {
  it('keeps a known role and gives anything else the least privilege', () => {
    for (const role of ['super_admin', 'admin', 'doctor', 'nurse', 'receptionist', 'viewer'])
      expect(roleOf(role)).toBe(role)
    for (const value of ['user', 'Admin', 'owner', '', null, undefined, 1])
      expect(roleOf(value)).toBe('viewer')
  })
})

describe('registerAccessControl', () => {
  it('refuses to register an /api route that declares no access rule', async () => {
    const other = Fastify()
    registerAccessControl(other, {
      auth,
      db: {} as AppDb,
      policy: { absoluteHours: 1, idleMinutes: 1 },
      sessions,
    })
    expect(() => other.get('/api/undeclared', async () => ({}))).toThrow(
      'Route GET /api/undeclared declares no access rule',
    )
    expect(() => other.get('/apis', async () => ({}))).toThrow(/declares no access rule/)
    expect(() => other.get('/elsewhere', async () => ({}))).not.toThrow()
    await other.close()
  })

  it('answers public routes without looking up a session', async () => {
    user = { id: 'u1', email: 'a@b.in', role: 'admin', hospitalId: 'h1' }
    const res = await call('GET', '/api/public')
    expect(res.json()).toEqual({ actor: null })
    expect(getSessionCalls).toBe(0)
  })

  it('answers 401 when signed out', async () => {
    const res = await call('GET', '/api/me')
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: 'Please sign in to continue', code: 'UNAUTHENTICATED' })
  })

  it('treats a suspended or inactive user as signed out', async () => {
    for (const flags of [{ banned: true }, { isActive: false }]) {
      user = { id: 'u1', email: 'a@b.in', role: 'admin', hospitalId: 'h1', ...flags }
      expect((await call('GET', '/api/me')).statusCode).toBe(401)
    }
    user = {
      id: 'u1',
      email: 'a@b.in',
      role: 'admin',
      hospitalId: 'h1',
      banned: false,
      isActive: true,
    }
    expect((await call('GET', '/api/me')).statusCode).toBe(200)
  })

  it('describes the signed-in actor from the session', async () => {
    user = {
      id: 'u1',
      email: 'a@b.in',
      role: 'doctor',
      hospitalId: 'h1',
      twoFactorEnabled: true,
      isSuperAdmin: 'yes',
    }
    sessionExtra = { impersonatedBy: 'admin-9' }
    expect((await call('GET', '/api/me')).json()).toEqual({
      userId: 'u1',
      email: 'a@b.in',
      role: 'doctor',
      isSuperAdmin: false,
      hospitalId: 'h1',
      sessionId: 'session-1',
      twoFactorEnabled: true,
      twoFactorRequired: false,
      impersonatedBy: 'admin-9',
    })
    user = { id: 'u2', email: 'c@d.in', role: 'admin', hospitalId: 7, twoFactorEnabled: 'true' }
    sessionExtra = { impersonatedBy: 5 }
    expect((await call('GET', '/api/me', `${COOKIE}=tok2.sig`)).json()).toMatchObject({
      hospitalId: null,
      twoFactorEnabled: false,
      impersonatedBy: null,
    })
  })

  it('makes a platform account enrol two-factor first', async () => {
    user = {
      id: 'sa',
      email: 'sa@x.in',
      role: 'super_admin',
      isSuperAdmin: true,
      twoFactorEnabled: false,
    }
    const blocked = await call('GET', '/api/platform')
    expect(blocked.statusCode).toBe(403)
    expect(blocked.json()).toEqual({
      message: TWO_FACTOR_REQUIRED_MESSAGE,
      code: 'TWO_FACTOR_REQUIRED',
    })
    expect(TWO_FACTOR_REQUIRED_MESSAGE).toBe(
      'Platform accounts must turn on two-factor authentication before doing anything else.',
    )
    expect((await call('GET', '/api/enrol')).statusCode).toBe(200)
    user = { ...user, twoFactorEnabled: true }
    expect((await call('GET', '/api/platform', `${COOKIE}=tok3.sig`)).statusCode).toBe(200)
    // The super_admin role counts as a platform account even without the flag.
    user = { id: 'sb', email: 'sb@x.in', role: 'super_admin', twoFactorEnabled: false }
    expect((await call('GET', '/api/platform', `${COOKIE}=tok4.sig`)).statusCode).toBe(403)
  })

  it('makes a member of a hospital that requires two-factor enrol first, and no one else', async () => {
    user = { id: 'm1', email: 'm@h2.in', role: 'doctor', hospitalId: 'h2', twoFactorEnabled: false }
    const blocked = await call('POST', '/api/patients')
    expect(blocked.statusCode).toBe(403)
    expect(blocked.json()).toEqual({
      message: HOSPITAL_TWO_FACTOR_REQUIRED_MESSAGE,
      code: 'TWO_FACTOR_REQUIRED',
    })
    expect((await call('GET', '/api/me', `${COOKIE}=tok7.sig`)).statusCode).toBe(403)
    expect((await call('GET', '/api/enrol', `${COOKIE}=tok8.sig`)).statusCode).toBe(200)
    user = { ...user, twoFactorEnabled: true }
    expect((await call('POST', '/api/patients', `${COOKIE}=tok9.sig`)).statusCode).toBe(200)
    user = { id: 'm2', email: 'm@h1.in', role: 'doctor', hospitalId: 'h1', twoFactorEnabled: false }
    expect((await call('POST', '/api/patients', `${COOKIE}=tok10.sig`)).statusCode).toBe(200)
  })

  it('lets only a super admin reach platform routes', async () => {
    user = { id: 'u1', email: 'a@b.in', role: 'admin', hospitalId: 'h1' }
    const res = await call('GET', '/api/platform')
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({
      message: 'Only a platform super admin may do this',
      code: 'FORBIDDEN',
    })
  })

  it('checks the permission table for hospital members', async () => {
    user = { id: 'u1', email: 'a@b.in', role: 'viewer', hospitalId: 'h1' }
    const res = await call('POST', '/api/patients')
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ message: 'Your role (viewer) may not do this', code: 'FORBIDDEN' })
    user = { id: 'u1', email: 'a@b.in', role: 'nurse', hospitalId: 'h1' }
    sessionExtra = { impersonatedBy: 'admin-9' }
    const ok = await call('POST', '/api/patients', `${COOKIE}=tok5.sig`)
    expect(ok.json()).toEqual({
      hospitalId: 'h1',
      userId: 'u1',
      impersonatorUserId: 'admin-9',
      actingRole: 'nurse',
    })
    expect((await call('GET', '/api/audit', `${COOKIE}=tok5.sig`)).statusCode).toBe(403)
    user = { id: 'u1', email: 'a@b.in', role: 'misspelt', hospitalId: 'h1' }
    expect((await call('POST', '/api/patients', `${COOKIE}=tok6.sig`)).json()).toEqual({
      message: 'Your role (viewer) may not do this',
      code: 'FORBIDDEN',
    })
  })

  it('refuses a hospital permission to an account without a hospital', async () => {
    user = { id: 'sa', email: 'sa@x.in', role: 'admin', isSuperAdmin: true, twoFactorEnabled: true }
    const res = await call('POST', '/api/patients')
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ message: 'You are not a member of a hospital', code: 'FORBIDDEN' })
  })

  it('caches a session only under the cookie better-auth accepted, and drops it when refused', async () => {
    user = { id: 'u1', email: 'a@b.in', role: 'admin', hospitalId: 'h1' }
    await call('GET', '/api/me')
    await call('GET', '/api/me')
    expect(getSessionCalls).toBe(1)
    // A cookie whose token is not the session's: looked up every time, never cached.
    await call('GET', '/api/me', `${COOKIE}=other.sig`)
    await call('GET', '/api/me', `${COOKIE}=other.sig`)
    expect(getSessionCalls).toBe(3)
    // %-encoded and quoted cookie values name the same token.
    await call('GET', '/api/me', `${COOKIE}="tok%2Esig2"`)
    await call('GET', '/api/me', `${COOKIE}="tok%2Esig2"`)
    expect(getSessionCalls).toBe(4)
    user = null
    sessions.clear()
    expect((await call('GET', '/api/me')).statusCode).toBe(401)
  })
})
