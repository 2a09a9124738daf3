import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INACTIVE_MESSAGE, SUSPENDED_MESSAGE } from '../../src/server/auth/auth'
import { currentUser } from '../../src/shared/schemas/auth'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, cookieHeader, login, sessionToken, signIn } from '../support/login'
import { untilStatus } from '../support/revocation'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
} from '../support/test-app'

let t: TestApp
beforeAll(async () => {
  // Injected requests all come from 127.0.0.1; the per-IP test below uses another address.
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const me = (cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/user', headers: cookie ? { cookie } : {} })

describe('sign-in', () => {
  it('signs in with the right password and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const res = await signIn(t.app, demoEmail('doctor'))
    expect(res.statusCode).toBe(200)
    const body = res.json<{ user: Record<string, unknown> }>()
    expect(body.user.email).toBe(demoEmail('doctor'))
    expect(JSON.stringify(body)).not.toMatch(/password|scrypt/i)
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])
    const session = setCookie.find((c) => c.startsWith('arogya.session_token='))
    expect(session).toBeDefined()
    expect(session).toMatch(/;\s*HttpOnly/i)
    expect(session).toMatch(/;\s*SameSite=Lax/i)
    expect(session).toMatch(/;\s*Path=\//)
    // As long as the longest session a hospital may set (72 hours); the server ends each one.
    expect(session).toMatch(/;\s*Max-Age=259200/)
    expect(session).not.toMatch(/;\s*Secure/i)
  })

  it('refuses a wrong password and an unknown email alike, with 401 and no cookie', async () => {
    const wrong = await signIn(t.app, demoEmail('doctor'), 'not-the-password')
    const unknown = await signIn(t.app, 'nobody@sanjeevani.demo', 'not-the-password')
    const a = expectError(wrong, 401)
    const b = expectError(unknown, 401)
    expect(a).toEqual(b)
    expect(wrong.headers['set-cookie']).toBeUndefined()
  })

  it('validates the body: 400 with issues for a missing password or unknown fields', async () => {
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(),
      payload: { email: demoEmail('doctor') },
    })
    expect(issuePaths(missing)).toEqual(['password'])
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(),
      payload: { email: demoEmail('doctor'), password: 'x', role: 'admin' },
    })
    expectError(extra, 400, 'VALIDATION')
  })

  it('issues a new session token at every sign-in, even when a session cookie is sent', async () => {
    const first = await login(t.app, demoEmail('nurse'))
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(first),
      payload: { email: demoEmail('nurse'), password: 'arogya-test-password-2026' },
    })
    expect(res.statusCode).toBe(200)
    const second = cookieHeader(res)
    expect(sessionToken(second)).toBeDefined()
    expect(sessionToken(second)).not.toBe(sessionToken(first))
  })

  it('refuses a sign-in from another origin when a cookie is present (CSRF), and foreign callback URLs', async () => {
    const cookie = await login(t.app, demoEmail('nurse', 'smiledental'))
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { ...browserHeaders(cookie), origin: 'https://evil.example' },
      payload: { email: demoEmail('nurse', 'smiledental'), password: 'arogya-test-password-2026' },
    })
    expectError(crossSite, 403)
    const redirect = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(),
      payload: {
        email: demoEmail('nurse', 'smiledental'),
        password: 'arogya-test-password-2026',
        callbackURL: 'https://evil.example/phish',
      },
    })
    expect(issuePaths(redirect)).toEqual(['callbackURL'])
    expect(redirect.headers['set-cookie']).toBeUndefined()
    for (const callbackURL of ['//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: browserHeaders(),
        payload: { email: demoEmail('nurse', 'smiledental'), password: 'wrong', callbackURL },
      })
      expectError(res, 400, 'VALIDATION')
    }
  })

  it('tells suspended and inactive users clearly why they cannot sign in', async () => {
    await t.db.execute(
      sql`update users set banned = true where email = ${demoEmail('receptionist')}`,
    )
    await t.db.execute(sql`update users set is_active = false where email = ${demoEmail('viewer')}`)
    try {
      const suspended = expectError(await signIn(t.app, demoEmail('receptionist')), 403)
      expect(suspended.message).toBe(SUSPENDED_MESSAGE)
      const inactive = expectError(await signIn(t.app, demoEmail('viewer')), 403)
      expect(inactive.message).toBe(INACTIVE_MESSAGE)
      const [row] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from sessions s join users u on u.id = s.user_id
            where u.email in (${demoEmail('receptionist')}, ${demoEmail('viewer')})`,
      )
      expect(row?.n).toBe(0)
    } finally {
      await t.db.execute(
        sql`update users set banned = false, is_active = true where email in (${demoEmail('receptionist')}, ${demoEmail('viewer')})`,
      )
    }
  })

  it('stops honouring an existing session once the user is suspended or deactivated', async () => {
    const email = demoEmail('receptionist', 'smiledental')
    const cookie = await login(t.app, email)
    expect((await me(cookie)).statusCode).toBe(200)
    // Changed behind the app's back: its cached session hears of it by NOTIFY (within 2 s).
    await t.db.execute(sql`update users set banned = true where email = ${email}`)
    expectError(await untilStatus(() => me(cookie), 401), 401, 'UNAUTHENTICATED')
    await t.db.execute(
      sql`update users set banned = false, is_active = false where email = ${email}`,
    )
    expectError(await me(cookie), 401, 'UNAUTHENTICATED')
    await t.db.execute(sql`update users set is_active = true where email = ${email}`)
    expect((await me(cookie)).statusCode).toBe(200)
  })

  it('slows down repeated wrong passwords for one account from one address (security-throttle tests hold the details)', async () => {
    const email = demoEmail('viewer', 'smiledental')
    for (let i = 0; i < 6; i++)
      expect((await signIn(t.app, email, 'wrong-password')).statusCode).toBe(401)
    const held = expectError(await signIn(t.app, email), 429, 'RATE_LIMITED')
    expect(held.message).toMatch(/wait/)
    expectError(await signIn(t.app, email.toUpperCase()), 429, 'RATE_LIMITED')
    // Another account from the same address is unaffected.
    expect((await signIn(t.app, demoEmail('doctor', 'smiledental'))).statusCode).toBe(200)
  })
})

describe('GET /api/auth/user', () => {
  it('is 401 when signed out, or with a forged cookie', async () => {
    expectError(await me(), 401, 'UNAUTHENTICATED')
    expectError(await me('arogya.session_token=forged.value'), 401, 'UNAUTHENTICATED')
  })

  it('returns the signed-in user with the hospital', async () => {
    const res = await me(await login(t.app, demoEmail('doctor')))
    expect(res.statusCode).toBe(200)
    const user = currentUser.strict().parse(res.json())
    expect(user).toMatchObject({
      email: demoEmail('doctor'),
      role: 'doctor',
      firstName: 'Rajesh',
      lastName: 'Iyer',
      isActive: true,
      status: 'active',
      isSuperAdmin: false,
      hospitalId: await hospitalIdOf(t.db, 'sanjeevani'),
      hospitalName: 'Sanjeevani Multispeciality Hospital, Pune',
      plan: 'enterprise',
      timeZone: 'Asia/Kolkata',
    })
  })

  it('shows the super admin with no hospital', async () => {
    const res = await me(await login(t.app, SUPER_ADMIN_EMAIL))
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      role: 'super_admin',
      isSuperAdmin: true,
      hospitalId: null,
      hospitalName: null,
    })
  })
})

describe('browser navigations /api/login and /api/logout', () => {
  it('redirects /api/login to the sign-in page, or the sign-up mode', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/login' })
    expect(plain.statusCode).toBe(302)
    expect(plain.headers.location).toBe('/login')
    const signup = await t.app.inject({ method: 'GET', url: '/api/login?signup=1' })
    expect(signup.statusCode).toBe(302)
    expect(signup.headers.location).toBe('/login?mode=signup')
  })

  it('ends every session of the user, not only the one that signs out', async () => {
    const email = demoEmail('admin', 'smiledental')
    const laptop = await login(t.app, email)
    const phone = await login(t.app, email)
    const other = await login(t.app, demoEmail('nurse', 'smiledental'))
    expect(sessionToken(laptop)).not.toBe(sessionToken(phone))
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/logout',
      headers: { cookie: laptop, 'sec-fetch-site': 'same-origin' },
    })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/')
    const cleared = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('arogya.session_token='))
    expect(cleared).toMatch(/Max-Age=0/)
    expectError(await me(laptop), 401)
    expectError(await me(phone), 401)
    expect((await me(other)).statusCode).toBe(200)
  })

  it('asks before a cross-site sign-out and keeps the session', async () => {
    const cookie = await login(t.app, demoEmail('admin'))
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/logout',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('Sign out?')
    expect((await me(cookie)).statusCode).toBe(200)
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...browserHeaders(cookie), origin: 'https://evil.example' },
      payload: {},
    })
    expectError(post, 403)
    expect((await me(cookie)).statusCode).toBe(200)
  })

  it('redirects home when nobody is signed in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/logout' })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/')
  })
})
