import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  INACTIVE_MESSAGE,
  SUSPENDED_MESSAGE,
  trustedOriginsFor,
  VERIFICATION_HOURS,
} from '../../src/server/auth/auth'
import { insertCredentialUser } from '../../src/server/auth/credential-user'
import { withPlatform } from '../../src/server/db/tenant'
import { browserHeaders, login, signIn } from '../support/login'
import { lastMailTo } from '../support/mail'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// better-auth as we configure it (auth.ts), seen from outside (mutation testing,
// docs/decisions/024): which accounts may sign in, how long sessions and links live, what
// better-auth's own sign-up and password rules say.

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.db, query)

describe('trustedOriginsFor', () => {
  it("trusts BASE_URL's origin, else the request's, never a wildcard", () => {
    expect(trustedOriginsFor('https://crm.example.in/app/', undefined)).toEqual([
      'https://crm.example.in',
    ])
    expect(trustedOriginsFor('https://crm.example.in', new Request('http://x.test/a'))).toEqual([
      'https://crm.example.in',
    ])
    expect(trustedOriginsFor(undefined, new Request('http://x.test:8080/api/auth/x'))).toEqual([
      'http://x.test:8080',
    ])
    expect(trustedOriginsFor(undefined, undefined)).toEqual([])
  })
})

describe('sign-in', () => {
  it('starts a session cookie that lives for the longest session a hospital may set, with the idle deadline in the database', async () => {
    const res = await signIn(t.app, demoEmail('admin'))
    expect(res.statusCode).toBe(200)
    const cookie = [res.headers['set-cookie']]
      .flat()
      .find((c) => c?.startsWith('arogya.session_token='))
    // 72 hours (Settings → Security allows up to 72); the server ends each session at its own
    // deadline in the database.
    expect(cookie).toMatch(/Max-Age=259200;/)
    expect(cookie).toMatch(/HttpOnly/)
    expect(res.json()).not.toHaveProperty('token')
    const [session] = await rows<{ idle: number }>(
      sql`select extract(epoch from s.expires_at - s.created_at)::int as idle
          from sessions s join users u on u.id = s.user_id
          where u.email = ${demoEmail('admin')} order by s.created_at desc limit 1`,
    )
    expect(session?.idle).toBeGreaterThanOrEqual(30 * 60 - 5)
    expect(session?.idle).toBeLessThanOrEqual(30 * 60 + 5)
  })

  it('refuses an account whose email is not verified', async () => {
    const hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
    const hash = await (await t.auth.$context).password.hash('unverified-password')
    await withPlatform(t.db, (tx) =>
      insertCredentialUser(
        tx,
        {
          email: 'unverified@sanjeevani.demo',
          firstName: 'Un',
          lastName: 'Verified',
          role: 'doctor',
          hospitalId,
          emailVerified: false,
        },
        hash,
      ),
    )
    const res = await signIn(t.app, 'unverified@sanjeevani.demo', 'unverified-password')
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('EMAIL_NOT_VERIFIED')
    expect(res.headers['set-cookie'] ?? '').not.toMatch(/session_token=[^;]/)
  })

  it('refuses an inactive or suspended account with its message', async () => {
    await rows(
      sql`update users set is_active = false where email = ${demoEmail('nurse', 'smiledental')}`,
    )
    const inactive = await signIn(t.app, demoEmail('nurse', 'smiledental'))
    expect(inactive.statusCode).toBe(403)
    expect(inactive.json()).toMatchObject({ message: INACTIVE_MESSAGE, code: 'INACTIVE_USER' })
    await rows(
      sql`update users set banned = true where email = ${demoEmail('viewer', 'smiledental')}`,
    )
    const banned = await signIn(t.app, demoEmail('viewer', 'smiledental'))
    expect(banned.statusCode).toBe(403)
    expect(banned.json().message).toBe(SUSPENDED_MESSAGE)
    expect(SUSPENDED_MESSAGE).toBe(
      'Your account is suspended. Please contact your hospital administrator.',
    )
    expect(INACTIVE_MESSAGE).toBe(
      'Your account is inactive. Please contact your hospital administrator.',
    )
  })
})

describe('better-auth behind our routes', () => {
  it('has its own sign-up switched off, even when called directly', async () => {
    await expect(
      t.auth.api.signUpEmail({
        body: { email: 'new@x.in', password: 'long-enough-pass', name: 'New' },
      }),
    ).rejects.toThrow()
    expect(await rows(sql`select id from users where email = 'new@x.in'`)).toEqual([])
  })

  it('holds a new password to 8..128 characters', async () => {
    const cookie = await login(t.app, demoEmail('receptionist'))
    const change = (newPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: browserHeaders(cookie),
        payload: { currentPassword: 'wrong-on-purpose', newPassword },
      })
    expect((await change('1234567')).json().code).toBe('PASSWORD_TOO_SHORT')
    expect((await change('p'.repeat(129))).json().code).toBe('PASSWORD_TOO_LONG')
    expect((await change('12345678')).json().code).not.toMatch(/PASSWORD_TOO/)
  })

  it('makes activation links that live 24 hours', async () => {
    expect(VERIFICATION_HOURS).toBe(24)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trial',
      headers: browserHeaders(),
      payload: {
        hospitalName: 'Mutant Clinic',
        name: 'Dr Mutant',
        email: 'mutant-trial@clinic.in',
        password: 'long-enough-pass',
        phone: '98765 43210',
      },
    })
    expect(res.statusCode).toBe(202)
    const mail = lastMailTo(t.db, 'mutant-trial@clinic.in')
    const token = /token=([^&\s]+)/.exec(mail?.text ?? '')?.[1]
    expect(token).toBeDefined()
    const payload = JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString()) as {
      exp: number
      iat: number
    }
    expect(payload.exp - payload.iat).toBe(24 * 3600)
  })
})
