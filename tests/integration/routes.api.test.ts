import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SeenRoute } from '../support/route-recorder'
import type { Access } from '../../src/server/auth/access'
import { buildApp } from '../../src/server/app'
import { permissions } from '../../src/shared/permissions'
import { expectError } from '../support/http'
import { openTestDatabase, TEST_AUTH_SECRET, type TestDatabase } from '../support/test-app'

/** Every route any Fastify instance registers in this file, seen by an onRoute hook added at creation. */
const seen = vi.hoisted(() => [] as SeenRoute[])
vi.mock('fastify', async (importOriginal) => {
  const { recordingFastify } = await import('../support/route-recorder')
  return recordingFastify(await importOriginal(), seen)
})

/**
 * Routes anyone may call without signing in. Adding one here is a deliberate decision;
 * any other public /api route fails this test.
 */
const PUBLIC_ROUTES = [
  'GET /api/login',
  'GET /api/logout',
  // The 'Sign out?' page's form (same-origin guard).
  'POST /api/logout',
  'POST /api/auth/trial',
  'POST /api/auth/sign-in/email',
  'GET /api/auth/*',
  'POST /api/auth/*',
  // The landing page's demo-request form (rate-limited per IP).
  'POST /api/demo-requests',
  // Meta's webhook: the subscription handshake (verify token) and signed leadgen deliveries.
  'GET /api/webhooks/meta',
  'POST /api/webhooks/meta',
  // Messaging providers' webhooks (issue 25): each verified by its provider's signature.
  'POST /api/webhooks/twilio/:hospitalId/status',
  'POST /api/webhooks/twilio/:hospitalId/inbound',
  'GET /api/webhooks/whatsapp',
  'POST /api/webhooks/whatsapp',
  'POST /api/webhooks/sendgrid/:hospitalId',
  // Voice providers' callbacks (issue 41): Exotel by the hospital's callback token, Twilio signed.
  'POST /api/webhooks/exotel/:hospitalId/status',
  'POST /api/webhooks/twilio/:hospitalId/voice',
  // Incoming calls (issue 41): Exotel's Connect applet (the hospital's token), Twilio (signed).
  'GET /api/webhooks/exotel/:hospitalId/incoming',
  'POST /api/webhooks/exotel/:hospitalId/incoming',
  'POST /api/webhooks/twilio/:hospitalId/voice/incoming',
  // The public booking page (issue 26): limits per mobile and per IP, codes hashed.
  'GET /api/public/booking/:slug',
  'GET /api/public/booking/:slug/slots',
  'POST /api/public/booking/:slug/holds',
  'POST /api/public/booking/:slug/holds/:id/confirm',
  // The team invitation page (issue 27): 256-bit single-use tokens, hashed; rate-limited per IP.
  'POST /api/public/invitations/lookup',
  'POST /api/public/invitations/accept',
  // Password reset (issue 40, item 7): one answer for every address; limits per address and IP.
  'POST /api/public/password-reset/request',
  'POST /api/public/password-reset/confirm',
]

let database: TestDatabase
let app: FastifyInstance

beforeAll(async () => {
  database = await openTestDatabase()
  app = (
    await buildApp({
      database: database.database,
      authSecret: TEST_AUTH_SECRET,
      logLevel: 'silent',
      authRateLimit: false,
    })
  ).app
  // Routes inside plugins (the sign-out form's scope) register when the app boots.
  await app.ready()
})
afterAll(async () => {
  await app?.close()
  await database?.drop()
})

const apiRoutes = () => seen.filter((r) => r.url.startsWith('/api') && r.method !== 'HEAD')
const isAccess = (value: unknown): value is Access => {
  const a = value as Access | undefined
  if (!a || typeof a !== 'object') return false
  switch (a.kind) {
    case 'public':
    case 'authed':
    case 'superAdmin':
      return true
    case 'permission':
      return (permissions as readonly string[]).includes(a.permission)
    default:
      return false
  }
}

describe('route catalog', () => {
  it('sees the app’s routes', () => {
    const keys = apiRoutes().map((r) => `${r.method} ${r.url}`)
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/patients',
        'POST /api/patients/manual',
        'PATCH /api/patients/:id',
        'GET /api/auth/user',
      ]),
    )
  })

  it('has a valid access rule on every /api route', () => {
    const missing = apiRoutes()
      .filter((r) => !isAccess(r.access))
      .map((r) => `${r.method} ${r.url}`)
    expect(missing).toEqual([])
  })

  it('makes only the allowlisted routes public', () => {
    const open = apiRoutes()
      .filter((r) => (r.access as Access).kind === 'public')
      .map((r) => `${r.method} ${r.url}`)
    expect(open.sort()).toEqual([...PUBLIC_ROUTES].sort())
  })

  it('answers every guarded route with 401 when signed out', async () => {
    await app.ready()
    const guarded = apiRoutes().filter((r) => (r.access as Access).kind !== 'public')
    expect(guarded.length).toBeGreaterThan(0)
    for (const route of guarded) {
      const url = route.url.replace(/:[A-Za-z]+/g, crypto.randomUUID()).replace('*', 'x')
      // Each write gets a body of the one type it takes (the lead import takes only CSV and an
      // attachment upload and a backup upload only a raw file; they refuse any other type before
      // the session).
      const body =
        route.method === 'GET'
          ? {}
          : route.url === '/api/leads/import'
            ? { payload: 'Name,Phone\r\n', headers: { 'content-type': 'text/csv' } }
            : (route.method === 'POST' && route.url.endsWith('/attachments')) ||
                route.url === '/api/backup/uploads'
              ? {
                  payload: Buffer.from('hello'),
                  headers: { 'content-type': 'application/octet-stream', 'x-filename': 'a.txt' },
                }
              : { payload: {} }
      const res = await app.inject({ method: route.method as 'GET', url, ...body })
      expectError(res, 401, 'UNAUTHENTICATED')
    }
  })
})

describe('registering a route', () => {
  it('throws for an /api route without an access rule, and accepts one with it', async () => {
    const fresh = await buildApp({
      database: database.database,
      authSecret: TEST_AUTH_SECRET,
      logLevel: 'silent',
    })
    try {
      const handler = async () => ({ ok: true })
      expect(() => fresh.app.get('/api/unguarded', handler)).toThrow(/declares no access rule/)
      expect(() =>
        fresh.app.route({ method: ['GET', 'POST'], url: '/api/unguarded-too', handler }),
      ).toThrow(/declares no access rule/)
      expect(() =>
        fresh.app.post('/api/guarded', { config: { access: { kind: 'authed' } } }, handler),
      ).not.toThrow()
      expect(() => fresh.app.get('/outside-the-api', handler)).not.toThrow()
      await expect(
        fresh.app.register(async (child) => {
          child.get('/api/in-a-plugin', handler)
        }),
      ).rejects.toThrow(/declares no access rule/)
    } finally {
      await fresh.app.close()
    }
  })
})
