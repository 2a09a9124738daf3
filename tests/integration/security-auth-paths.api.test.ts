import { request, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authEndpoints } from '../../src/server/auth/endpoints'
import { createPatient } from '../../src/server/modules/patients/patients.service'
import { expectError } from '../support/http'
import { browserHeaders, login, sessionToken, signIn } from '../support/login'
import { lastMailTo } from '../support/mail'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
  userIdOf,
} from '../support/test-app'
import { enrolTwoFactor } from '../support/two-factor'

// Issue 6, items 1 (path tricks), 3 (impersonation, platform two-factor), 12 (tokens in JSON),
// 13 (cross-site sign-out) and 14 (client-chosen IPs).
let t: TestApp
let port = 0
beforeAll(async () => {
  t = await createTestApp()
  // Over a real socket: app.inject() would normalise './' before the router saw it.
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as AddressInfo).port
})
afterAll(async () => {
  await t?.close()
})

interface RawResponse {
  statusCode: number
  body: string
  headers: IncomingHttpHeaders
}

/** An HTTP request with the path sent byte for byte as given. */
function raw(method: string, path: string, body?: object, cookie?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host: `127.0.0.1:${port}`,
          origin: `http://127.0.0.1:${port}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () =>
          resolve({ statusCode: res.statusCode ?? 0, body: text, headers: res.headers }),
        )
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const setsSession = (res: RawResponse) =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).some((c) => /session_token=[^;]/.test(c))

async function userCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from users`)
  return row?.n ?? -1
}

/** Every way to spell /api/auth/<path> that normalises back to it. */
function variants(path: string): string[] {
  const rest = path.slice(1)
  const slash = rest.indexOf('/')
  const list = [
    `/api/auth/./${rest}`,
    `/api/auth/%2e/${rest}`,
    `/api/auth/%2E/${rest}`,
    `/api/auth%2f${rest}`,
    `/api/auth/%2F${rest}`,
    `/api/auth//${rest}`,
    `/api//auth/${rest}`,
    `/api/auth/${rest}/`,
    `/api/auth/${rest}/.`,
    `/api/auth/x/../${rest}`,
    `/api/auth/${rest.toUpperCase()}`,
    `/api/auth/${rest[0]?.toUpperCase()}${rest.slice(1)}`,
    `/api/auth/${rest.replace(/-/g, '%2d')}`,
  ]
  if (slash !== -1) {
    list.push(`/api/auth/${rest.slice(0, slash)}%2f${rest.slice(slash + 1)}`)
    list.push(`/api/auth/${rest.slice(0, slash)}//${rest.slice(slash + 1)}`)
    list.push(`/api/auth/${rest.slice(0, slash)}/./${rest.slice(slash + 1)}`)
  }
  return list
}

const paths = [
  ...new Set([
    ...authEndpoints.map((e) => e.path),
    '/sign-in/email',
    '/sign-up/email',
    '/admin/impersonate-user',
  ]),
]

describe('only the exact path of an allowlisted auth endpoint reaches better-auth', () => {
  const body = {
    name: 'Mallory',
    email: demoEmail('doctor'),
    password: 'arogya-test-password-2026',
  }

  it.each(paths)('%s: every non-canonical spelling is 404 and does nothing', async (path) => {
    const before = await userCount()
    const cookie = await login(t.app, demoEmail('admin', 'smiledental'))
    for (const url of variants(path)) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await raw(method, url, method === 'POST' ? body : undefined, cookie)
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404)
        expect(setsSession(res), url).toBe(false)
      }
    }
    expect(await userCount()).toBe(before)
    // No variant signed the session out, revoked it or changed its two-factor state.
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ twoFactorEnabled: false })
  })

  it('keeps a held account held: no spelling of the sign-in path gets past the throttle', async () => {
    const email = demoEmail('nurse')
    for (let i = 0; i < 6; i++) await signIn(t.app, email, 'wrong-password')
    expectError(await signIn(t.app, email), 429, 'RATE_LIMITED')
    for (const url of variants('/sign-in/email')) {
      const res = await raw('POST', url, { email, password: 'arogya-test-password-2026' })
      expect(res.statusCode, url).toBe(404)
      expect(setsSession(res)).toBe(false)
    }
  })

  it('refuses endpoints outside the allowlist (sign-up, impersonation, set-role, create-user)', async () => {
    const cookie = await login(t.app, demoEmail('admin'))
    for (const path of [
      'sign-up/email',
      'admin/impersonate-user',
      'admin/set-role',
      'admin/create-user',
      'admin/set-user-password',
      'update-user',
      'delete-user',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/auth/${path}`,
        headers: browserHeaders(cookie),
        payload: {},
      })
      expectError(res, 404, 'NOT_FOUND')
    }
  })
})

describe('platform accounts', () => {
  let superCookie = ''

  it('a super admin without two-factor may only enrol', async () => {
    const cookie = await login(t.app, SUPER_ADMIN_EMAIL)
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
    expect(me.json()).toMatchObject({ isSuperAdmin: true, twoFactorEnabled: false })
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/admin/demo-requests',
      headers: { cookie },
    })
    expectError(list, 403, 'TWO_FACTOR_REQUIRED')
    const ban = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/ban-user',
      headers: browserHeaders(cookie),
      payload: { userId: await userIdOf(t.db, demoEmail('viewer')) },
    })
    expectError(ban, 403, 'TWO_FACTOR_REQUIRED')
    superCookie = (await enrolTwoFactor(t.app, cookie)).cookie
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/admin/demo-requests',
      headers: { cookie: superCookie },
    })
    expect(after.statusCode).toBe(200)
  })

  it('cannot impersonate a hospital user, by path or through better-auth itself', async () => {
    const userId = await userIdOf(t.db, demoEmail('doctor'))
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/impersonate-user',
      headers: browserHeaders(superCookie),
      payload: { userId },
    })
    expectError(res, 404)
    await expect(
      t.auth.api.impersonateUser({
        body: { userId },
        headers: new Headers({ cookie: superCookie }),
      }),
    ).rejects.toThrow()
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from sessions where impersonated_by is not null`,
    )
    expect(row?.n).toBe(0)
  })

  it('audit rows name the acting user and, when impersonated, the impersonator', async () => {
    const hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
    const userId = await userIdOf(t.db, demoEmail('receptionist'))
    const superId = await userIdOf(t.db, SUPER_ADMIN_EMAIL)
    // An impersonated session, as a future controlled impersonation would create it.
    const cookie = await login(t.app, demoEmail('receptionist'))
    const token = sessionToken(cookie)?.split('.')[0] ?? ''
    await t.db.execute(sql`update sessions set impersonated_by = ${superId} where token = ${token}`)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/patients/manual',
      headers: browserHeaders(cookie),
      payload: { name: 'Impersonation Check', phone: '9876500001' },
    })
    expect(res.statusCode, res.body).toBe(201)
    const direct = await createPatient({
      db: t.db,
      hospitalId,
      userId,
      values: { name: 'Direct Check', phone: '+919876500002' },
    })
    const rows = await queryRows<{ entity_id: string; actor: string; impersonator: string | null }>(
      t.db,
      sql`select entity_id, actor_user_id as actor, impersonator_user_id as impersonator
          from audit_events where entity_id in (${res.json<{ id: string }>().id}, ${direct.id})`,
    )
    expect(rows).toHaveLength(2)
    const byId = new Map(rows.map((r) => [r.entity_id, r]))
    expect(byId.get(res.json<{ id: string }>().id)).toMatchObject({
      actor: userId,
      impersonator: superId,
    })
    expect(byId.get(direct.id)).toMatchObject({ actor: userId, impersonator: null })
  })
})

describe('session tokens and client-chosen addresses', () => {
  it('never returns a session token in JSON, at any depth', async () => {
    const cookie = await login(t.app, demoEmail('doctor'))
    for (const url of ['/api/auth/get-session', '/api/auth/list-sessions']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } })
      expect(res.statusCode, url).toBe(200)
      expect(res.body).not.toMatch(/"token"/)
      expect(res.body).not.toContain(sessionToken(cookie)?.split('.')[0] ?? 'x')
    }
  })

  it('records the address the server saw, not one the client claims', async () => {
    const spoofed = {
      'x-forwarded-for': '203.0.113.66',
      'x-real-ip': '203.0.113.67',
      'x-arogya-client-ip': '203.0.113.68',
    }
    const email = 'ip.check@clinic.example'
    const trial = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trial',
      remoteAddress: '198.51.100.9',
      headers: { ...browserHeaders(), ...spoofed },
      payload: {
        hospitalName: 'IP Check Clinic',
        name: 'Ira Check',
        email,
        password: 'ip-check-password-2026',
        phone: '9876512345',
      },
    })
    expect(trial.statusCode).toBe(202)
    const mail = lastMailTo(t.db, email)
    const link = new URL(/(http\S+verify-email\S+)/.exec(mail?.text ?? '')?.[1] ?? 'http://x/')
    expect(link.host).toBe('localhost')
    const open = await t.app.inject({
      method: 'GET',
      url: `${link.pathname}${link.search}`,
      remoteAddress: '198.51.100.9',
      headers: { host: 'localhost', ...spoofed, 'x-forwarded-host': 'evil.example' },
    })
    expect(open.statusCode).toBe(302)
    const rows = await queryRows<{ ip_address: string }>(
      t.db,
      sql`select s.ip_address from sessions s join users u on u.id = s.user_id where u.email = ${email}`,
    )
    expect(rows.map((r) => r.ip_address)).toEqual(['198.51.100.9'])
    const events = await queryRows<{ ip: string }>(
      t.db,
      sql`select ip from security_events where email = ${email}`,
    )
    expect(events.length).toBeGreaterThan(0)
    for (const e of events) expect(e.ip).toBe('198.51.100.9')
  })
})

describe('GET /api/logout', () => {
  it('signs out at once only on a same-origin signal; otherwise asks, and the form posts behind the guard', async () => {
    const cookie = await login(t.app, demoEmail('nurse', 'smiledental'))
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
    const ask = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie } })
    expect(ask.statusCode).toBe(200)
    expect(ask.headers['content-type']).toMatch(/^text\/html/)
    expect(ask.body).toContain('<h1>Sign out?</h1>')
    expect(ask.body).toContain('<form method="post" action="/api/logout">')
    // Otherwise helmet's no-referrer makes the form's POST carry `Origin: null`.
    expect(ask.headers['referrer-policy']).toBe('same-origin')
    expect((await me()).statusCode).toBe(200)

    const form = { cookie, 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' }
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { ...form, origin: 'https://evil.example' },
      payload: '',
    })
    expectError(forged, 403)
    expect((await me()).statusCode).toBe(200)

    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { ...form, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      payload: '',
    })
    expect(confirmed.statusCode).toBe(303)
    expect(confirmed.headers.location).toBe('/')
    expect((await me()).statusCode).toBe(401)
  })
})
