import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SeenRoute } from '../support/route-recorder'
import { AUTH_BASE } from '../../src/server/auth/endpoints'
import { HSTS } from '../../src/server/http/security-headers'
import { cookieHeader } from '../support/login'
import { loginSuperAdmin } from '../support/two-factor'
import { createTestApp, demoEmail, queryRows, type TestApp } from '../support/test-app'

// Issue 17: "our origin" as the server sees it, Secure cookies and HSTS over https, and what the
// outside scan found refused (cross-site writes, form and text bodies, X-XSS-Protection: 0).

/** Every route the app registers, seen by an onRoute hook added at creation. */
const routes = vi.hoisted(() => [] as SeenRoute[])
vi.mock('fastify', async (importOriginal) => {
  const { recordingFastify } = await import('../support/route-recorder')
  return recordingFastify(await importOriginal(), routes)
})

describe('without BASE_URL behind a trusted proxy (127.0.0.1)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: ['127.0.0.1'] })
  })
  afterAll(async () => {
    await t?.close()
  })

  const signIn = (
    headers: Record<string, string>,
    remoteAddress = '127.0.0.1',
    role: 'doctor' | 'admin' = 'doctor',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `${AUTH_BASE}/sign-in/email`,
      remoteAddress,
      headers: { 'content-type': 'application/json', ...headers },
      payload: { email: demoEmail(role), password: 'arogya-test-password-2026' },
    })
  const cookies = (res: LightMyRequestResponse) =>
    ([] as string[]).concat(res.headers['set-cookie'] ?? [])

  it('over https (the trusted proxy says so): every cookie Secure, HSTS sent', async () => {
    const res = await signIn({
      host: 'crm.clinic.example',
      origin: 'https://crm.clinic.example',
      'x-forwarded-proto': 'https',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(cookies(res).length).toBeGreaterThan(0)
    for (const c of cookies(res)) expect(c).toMatch(/;\s*Secure/i)
    expect(res.headers['strict-transport-security']).toBe(HSTS)
    // Sign-out's cookie removal is Secure too.
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: {
        host: 'crm.clinic.example',
        origin: 'https://crm.clinic.example',
        'x-forwarded-proto': 'https',
        'content-type': 'application/json',
        cookie: cookieHeader(res),
      },
      payload: {},
    })
    expect(out.statusCode).toBe(303)
    for (const c of cookies(out)) expect(c).toMatch(/;\s*Secure/i)
    expect(out.headers['strict-transport-security']).toBe(HSTS)
  })

  it('over plain http: neither', async () => {
    const res = await signIn({ host: 'localhost', origin: 'http://localhost' })
    expect(res.statusCode, res.body).toBe(200)
    for (const c of cookies(res)) expect(c).not.toMatch(/;\s*Secure/i)
    expect(res.headers['strict-transport-security']).toBeUndefined()
  })

  it('a client that is not the proxy cannot claim https (or another host)', async () => {
    const res = await signIn(
      { host: 'localhost', origin: 'http://localhost', 'x-forwarded-proto': 'https' },
      '203.0.113.9',
    )
    expect(res.statusCode, res.body).toBe(200)
    for (const c of cookies(res)) expect(c).not.toMatch(/;\s*Secure/i)
    expect(res.headers['strict-transport-security']).toBeUndefined()
  })

  it('our origin is the forwarded host only when the proxy is trusted', async () => {
    const cookie = cookieHeader(await signIn({ host: 'localhost', origin: 'http://localhost' }))
    const write = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: `${AUTH_BASE}/revoke-other-sessions`,
        remoteAddress,
        headers: {
          host: 'internal:5000',
          'x-forwarded-host': 'crm.clinic.example',
          'x-forwarded-proto': 'https',
          origin: 'https://crm.clinic.example',
          'content-type': 'application/json',
          cookie,
        },
        payload: {},
      })
    // From the proxy: the page at https://crm.clinic.example is ours, for our guard and better-auth.
    expect((await write('127.0.0.1')).statusCode).toBe(200)
    // From anyone else the same claim is ignored: the request came to http://internal:5000.
    expect((await write('203.0.113.9')).statusCode).toBe(403)
  })

  it('refuses cross-site writes (403) and form or text bodies (415/400) on every write', async () => {
    const writes = [
      ...new Set(
        routes
          .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
          .filter((r) => r.url.startsWith('/api'))
          .map((r) => `${r.method} ${r.url.replace('*', 'sign-out').replace(/:[A-Za-z]+/g, '0')}`),
      ),
    ]
    expect(writes.length).toBeGreaterThan(5)
    // The admin may call every hospital write, so a refusal here is the body's, not the role's.
    const adminCookie = cookieHeader(
      await signIn({ host: 'localhost', origin: 'http://localhost' }, '127.0.0.1', 'admin'),
    )
    // Platform writes (/api/admin/*) are the super admin's, who may call each of them.
    const superCookie = await loginSuperAdmin(t.app)
    const before = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events`,
    )
    for (const entry of writes) {
      const [method = 'POST', url = '/'] = entry.split(' ')
      const cookie = url.startsWith('/api/admin/') ? superCookie : adminCookie
      const send = (headers: Record<string, string>, payload: string) => {
        return t.app.inject({
          method: method as 'POST',
          url,
          headers: { ...{ host: 'localhost', origin: 'http://localhost' }, cookie, ...headers },
          payload,
        })
      }
      const json = { 'content-type': 'application/json' }
      for (const headers of [
        { ...json, origin: 'https://evil.example' },
        { ...json, origin: 'null' },
        { ...json, origin: `http://localhost.evil.example` },
        { ...json, 'sec-fetch-site': 'cross-site' },
        { ...json, 'sec-fetch-site': 'same-site' },
      ]) {
        const res = await send(headers, '{}')
        expect(res.statusCode, `${entry} ${JSON.stringify(headers)}`).toBe(403)
      }
      for (const [type, body] of [
        ['application/x-www-form-urlencoded', 'name=Mallory&phone=9876543210'],
        ['text/plain', '{"name":"Mallory","phone":"9876543210"}'],
        ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
      ] as const) {
        const res = await send({ 'content-type': type }, body)
        // The Sign out? page's form is the one url-encoded body the app takes (same origin only).
        if (entry === 'POST /api/logout' && type.startsWith('application/x-www')) continue
        // Twilio posts its callbacks url-encoded: taken, and refused unsigned (403).
        if (
          entry.startsWith('POST /api/webhooks/twilio/') &&
          type.startsWith('application/x-www')
        ) {
          expect(res.statusCode, `${entry} ${type}`).toBe(403)
          continue
        }
        // Exotel posts its callbacks url-encoded or JSON and signs nothing: a body it takes from
        // a hospital or token that does not match is a 404 (docs/providers/README.md).
        if (entry.startsWith('POST /api/webhooks/exotel/')) {
          expect([404, 415], `${entry} ${type}: ${res.statusCode}`).toContain(res.statusCode)
          continue
        }
        expect([400, 415], `${entry} ${type}: ${res.statusCode} ${res.body}`).toContain(
          res.statusCode,
        )
      }
    }
    const after = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events`,
    )
    expect(after).toEqual(before)
    const page = await t.app.inject({ method: 'GET', url: '/api/login' })
    expect(page.headers['x-xss-protection']).toBe('0')
  })
})
