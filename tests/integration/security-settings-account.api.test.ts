import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD_CHANGED_MESSAGE } from '../../src/shared/schemas/account-security'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, cookieHeader, login, signIn } from '../support/login'
import { call } from '../support/security-settings'
import {
  createTestApp,
  demoEmail,
  queryRows,
  TEST_PASSWORD,
  type TestApp,
  userIdOf,
} from '../support/test-app'

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

/** Signs in from a given browser; returns the session cookie. */
async function loginFrom(email: string, userAgent: string, password = TEST_PASSWORD) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { ...browserHeaders(), 'user-agent': userAgent },
    payload: { email, password },
  })
  if (res.statusCode !== 200) throw new Error(`sign-in: ${res.statusCode} ${res.body}`)
  return cookieHeader(res)
}

interface Listed {
  id: string
  device: string
  ipAddress: string | null
  signedInAt: string
  lastUsedAt: string
  expiresAt: string
  current: boolean
}

async function listSessions(cookie: string): Promise<Listed[]> {
  const res = await call(t.app, 'GET', '/api/me/sessions', cookie)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ sessions: Listed[] }>().sessions
}

const alive = async (cookie: string) =>
  (await call(t.app, 'GET', '/api/auth/user', cookie)).statusCode === 200

async function securityEvents(userId: string, event: string) {
  return queryRows<{ details: unknown }>(
    t.db,
    sql`select details from security_events where user_id = ${userId} and event = ${event}`,
  )
}

describe('active sessions', () => {
  it('lists the user’s own sessions with device, place and last use; this device marked', async () => {
    const email = demoEmail('doctor')
    const desk = await loginFrom(email, CHROME_WINDOWS)
    const phone = await loginFrom(email, SAFARI_IPHONE)
    // Someone else's session never shows.
    await login(t.app, demoEmail('nurse'))
    const sessions = await listSessions(desk)
    expect(sessions).toHaveLength(2)
    const mine = sessions.find((s) => s.current)
    expect(mine).toMatchObject({ device: 'Chrome on Windows', current: true })
    expect(mine?.ipAddress).toBeTruthy()
    const other = sessions.find((s) => !s.current)
    expect(other?.device).toBe('Safari on iPhone')
    for (const s of sessions) {
      expect(Date.parse(s.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(s.signedInAt) - 1000)
      expect(Date.parse(s.expiresAt)).toBeGreaterThan(Date.now())
      expect(s).not.toHaveProperty('token')
    }
    // Seen from the phone, the phone is this device.
    const fromPhone = await listSessions(phone)
    expect(fromPhone.find((s) => s.current)?.device).toBe('Safari on iPhone')
  })

  it('signs out one session: it ends at once, the others stay', async () => {
    const email = demoEmail('receptionist')
    const desk = await loginFrom(email, CHROME_WINDOWS)
    const phone = await loginFrom(email, SAFARI_IPHONE)
    expect(await alive(phone)).toBe(true) // cached now: the revocation must drop it
    const target = (await listSessions(desk)).find((s) => !s.current)!
    const res = await call(t.app, 'DELETE', `/api/me/sessions/${target.id}`, desk)
    expect(res.statusCode, res.body).toBe(204)
    expect(await alive(phone)).toBe(false)
    expect(await alive(desk)).toBe(true)
    expect((await listSessions(desk)).map((s) => s.id)).not.toContain(target.id)
    const events = await securityEvents(await userIdOf(t.db, email), 'session.revoked')
    expect(events.some((e) => (e.details as { sessionId?: string }).sessionId === target.id)).toBe(
      true,
    )
  })

  it("another user's session id is 404 and changes nothing", async () => {
    const victim = await login(t.app, demoEmail('admin'))
    const attacker = await login(t.app, demoEmail('viewer'))
    const [victimSession] = await listSessions(victim)
    expectError(
      await call(t.app, 'DELETE', `/api/me/sessions/${victimSession!.id}`, attacker),
      404,
      'NOT_FOUND',
    )
    // Another hospital's user, too.
    const elsewhere = await login(t.app, demoEmail('admin', 'smiledental'))
    expectError(
      await call(t.app, 'DELETE', `/api/me/sessions/${victimSession!.id}`, elsewhere),
      404,
      'NOT_FOUND',
    )
    expectError(await call(t.app, 'DELETE', '/api/me/sessions/no-such-session', attacker), 404)
    expect(await alive(victim)).toBe(true)
  })

  it('refuses a malformed id and a signed-out caller', async () => {
    const cookie = await login(t.app, demoEmail('viewer'))
    expect(
      issuePaths(await call(t.app, 'DELETE', `/api/me/sessions/${'x'.repeat(80)}`, cookie)),
    ).toEqual(['id'])
    expect(issuePaths(await call(t.app, 'DELETE', '/api/me/sessions/a%20b', cookie))).toEqual([
      'id',
    ])
    expectError(await call(t.app, 'GET', '/api/me/sessions', ''), 401, 'UNAUTHENTICATED')
    expectError(await call(t.app, 'DELETE', '/api/me/sessions/abc', ''), 401, 'UNAUTHENTICATED')
  })

  it('signs out all other sessions, and keeps this one', async () => {
    const email = demoEmail('nurse', 'smiledental')
    const here = await login(t.app, email)
    const others = [await login(t.app, email), await login(t.app, email)]
    for (const o of others) expect(await alive(o)).toBe(true)
    expect(
      issuePaths(
        await call(t.app, 'POST', '/api/me/sessions/sign-out-others', here, { all: true }),
      ),
    ).toEqual([''])
    const res = await call(t.app, 'POST', '/api/me/sessions/sign-out-others', here, {})
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ revoked: 2 })
    for (const o of others) expect(await alive(o)).toBe(false)
    expect(await alive(here)).toBe(true)
    expect((await listSessions(here)).map((s) => s.current)).toEqual([true])
  })
})

describe('change password', () => {
  const email = demoEmail('viewer', 'smiledental')
  const NEW = 'a-brand-new-password-2026'

  it('refuses bad input with field messages and changes nothing', async () => {
    const cookie = await login(t.app, email)
    const post = (payload: unknown) => call(t.app, 'POST', '/api/me/password', cookie, payload)
    expect(issuePaths(await post({}))).toEqual([
      'confirmPassword',
      'currentPassword',
      'newPassword',
    ])
    expect(
      issuePaths(
        await post({
          currentPassword: TEST_PASSWORD,
          newPassword: NEW,
          confirmPassword: 'other-password',
        }),
      ),
    ).toEqual(['confirmPassword'])
    expect(
      issuePaths(
        await post({
          currentPassword: TEST_PASSWORD,
          newPassword: 'short',
          confirmPassword: 'short',
        }),
      ),
    ).toEqual(['newPassword'])
    expect(
      issuePaths(
        await post({
          currentPassword: TEST_PASSWORD,
          newPassword: TEST_PASSWORD,
          confirmPassword: TEST_PASSWORD,
        }),
      ),
    ).toEqual(['newPassword'])
    expect(
      issuePaths(
        await post({
          currentPassword: TEST_PASSWORD,
          newPassword: NEW,
          confirmPassword: NEW,
          revokeOtherSessions: false,
        }),
      ),
    ).toEqual([''])
    const wrong = await post({
      currentPassword: 'not-my-password',
      newPassword: NEW,
      confirmPassword: NEW,
    })
    expect(issuePaths(wrong)).toEqual(['currentPassword'])
    expect(wrong.json().message).toBe('Your current password is not correct')
    expect((await signIn(t.app, email, TEST_PASSWORD)).statusCode).toBe(200)
    expect(await alive(cookie)).toBe(true)
  })

  it('changes it and signs out every other session; this device stays signed in', async () => {
    const here = await login(t.app, email)
    const other = await login(t.app, email)
    expect(await alive(other)).toBe(true)
    const res = await call(t.app, 'POST', '/api/me/password', here, {
      currentPassword: TEST_PASSWORD,
      newPassword: NEW,
      confirmPassword: NEW,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ message: PASSWORD_CHANGED_MESSAGE })
    expect(res.body).not.toMatch(/token/)
    const renewed = cookieHeader(res)
    expect(renewed).toMatch(/arogya\.session_token=/)
    expect(await alive(other)).toBe(false)
    expect(await alive(renewed)).toBe(true)
    expect(await listSessions(renewed)).toHaveLength(1)
    // The new password signs in; the old one no longer does.
    expect((await signIn(t.app, email, TEST_PASSWORD)).statusCode).toBe(401)
    expect(await alive(await login(t.app, email, NEW))).toBe(true)
    const userId = await userIdOf(t.db, email)
    expect(await securityEvents(userId, 'password.changed')).toHaveLength(1)
    expect((await securityEvents(userId, 'password.change_failed')).length).toBeGreaterThan(0)
  })
})
