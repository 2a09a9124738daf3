import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { MAIL_NOT_CONFIGURED_MESSAGE } from '../../src/server/integrations/email/mailer'
import {
  PASSWORD_RESET_DONE_MESSAGE,
  RESET_LINK_INVALID_MESSAGE,
  RESET_LINK_MINUTES,
  RESET_REQUESTED_MESSAGE,
  RESET_REQUESTS_PER_ADDRESS,
  RESET_REQUESTS_PER_IP,
} from '../../src/shared/schemas/password-reset'
import { expectError } from '../support/http'
import { browserHeaders, login, signIn } from '../support/login'
import { lastMailTo, sentMail } from '../support/mail'
import { adminCall } from '../support/platform'
import { auditActions, teamApi } from '../support/team'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'
import { enrolTwoFactor, loginSuperAdmin } from '../support/two-factor'

// Issue 40, item 7: nobody could recover a forgotten password. Now "Forgot password?" emails a
// single-use link valid for 30 minutes (through the outbox, token masked), with one answer for
// every address, limits per address and per IP in PostgreSQL; a reset ends every session and
// leaves two-factor on; suspended accounts cannot get back in; a hospital admin can send a
// member a link (audited), a receptionist or a support visit cannot.

const NEW_PASSWORD = 'a-brand-new-password-2026'
let t: TestApp
let ipCounter = 0
/** Each test asks from its own address, so the per-IP limit counts only its own requests. */
const freshIp = () => `10.40.7.${++ipCounter}`

function post(url: string, body: unknown, ip: string, cookie?: string) {
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method: 'POST',
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    remoteAddress: ip,
  })
}
const requestReset = (email: string, ip: string) =>
  post('/api/public/password-reset/request', { email }, ip)
const confirmReset = (token: string, ip: string, password = NEW_PASSWORD) =>
  post(
    '/api/public/password-reset/confirm',
    { token, newPassword: password, confirmPassword: password },
    ip,
  )

/** The token of the newest reset email to `to`, once it has been handed to the mailer. */
async function resetToken(to: string, after = 0): Promise<string> {
  return vi.waitFor(
    () => {
      const mails = sentMail(t.db).filter((m) => m.to === to && m.purpose === 'password-reset')
      expect(mails.length).toBeGreaterThan(after)
      const token = /\/reset-password#(\S+)/.exec(mails.at(-1)?.text ?? '')?.[1]
      expect(token).toBeDefined()
      return token ?? ''
    },
    { timeout: 5000, interval: 20 },
  )
}
const resetMails = (to: string) =>
  sentMail(t.db).filter((m) => m.to === to && m.purpose === 'password-reset').length

async function currentUser(cookie: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url: '/api/auth/user',
    headers: { host: 'localhost', cookie },
  })
}

beforeAll(async () => {
  t = await createTestApp({ baseURL: 'http://localhost' })
})
afterAll(async () => {
  await t?.close()
})

describe('asking for a reset link', () => {
  it('answers the same for an unknown address as for a known one, and mails only the known', async () => {
    const ip = freshIp()
    const known = demoEmail('nurse')
    const before = sentMail(t.db).length
    const a = await requestReset(known, ip)
    const b = await requestReset('nobody-here@example.in', ip)
    expect(a.statusCode, a.body).toBe(202)
    expect(b.statusCode, b.body).toBe(202)
    expect(a.body).toBe(b.body)
    expect(a.json()).toEqual({ message: RESET_REQUESTED_MESSAGE })
    const token = await resetToken(known)
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/)
    expect(lastMailTo(t.db, known, 'password-reset')?.text).toContain(
      `http://localhost/reset-password#${token}`,
    )
    expect(
      sentMail(t.db)
        .slice(before)
        .map((m) => m.to),
    ).toEqual([known])
    // Bad input is a 400 with the field named, never a 5xx.
    expectError(await requestReset('not an email', ip), 400)
  })

  it('keeps the link in the outbox only with its token masked', async () => {
    const to = demoEmail('nurse')
    const n = resetMails(to)
    expect((await requestReset(to, freshIp())).statusCode).toBe(202)
    const token = await resetToken(to, n)
    const rows = await vi.waitFor(async () => {
      const found = await queryRows<{ text_body: string }>(
        t.db,
        sql`select text_body from email_outbox where purpose = 'password-reset' and to_address = ${to}
            order by created_at desc limit 1`,
      )
      expect(found[0]?.text_body).toContain(`••••${token.slice(-4)}`)
      return found
    })
    expect(rows[0]?.text_body).toContain(`/reset-password#••••${token.slice(-4)}`)
    const all = await queryRows(t.db, sql`select * from email_outbox`)
    expect(JSON.stringify(all)).not.toContain(token)
    const cookie = await loginSuperAdmin(t.app)
    const outbox = await adminCall(t.app, cookie, 'GET', '/api/admin/outbox')
    expect(outbox.statusCode).toBe(200)
    expect(outbox.body).not.toContain(token)
    // The masked link opens nothing.
    expectError(await confirmReset(`${'x'.repeat(20)}${token.slice(-4)}`, freshIp()), 400)
  })

  it(`limits requests to ${RESET_REQUESTS_PER_ADDRESS} per address, known or not, and ${RESET_REQUESTS_PER_IP} per IP`, async () => {
    for (const email of ['limited@example.in', demoEmail('doctor', 'smiledental')]) {
      for (let i = 0; i < RESET_REQUESTS_PER_ADDRESS; i++)
        expect((await requestReset(email, freshIp())).statusCode).toBe(202)
      const held = await requestReset(email, freshIp())
      expectError(held, 429)
      expect(Number(held.headers['retry-after'])).toBeGreaterThan(0)
    }
    const ip = freshIp()
    for (let i = 0; i < RESET_REQUESTS_PER_IP; i++)
      expect((await requestReset(`ip-limit-${i}@example.in`, ip)).statusCode).toBe(202)
    expectError(await requestReset('ip-limit-last@example.in', ip), 429)
    // Counted in PostgreSQL (shared by every instance), under hashed address keys.
    const keys = await queryRows<{ key: string }>(
      t.db,
      sql`select key from rate_limit_hits where key like 'password-reset:%'`,
    )
    expect(keys.length).toBeGreaterThan(0)
    expect(JSON.stringify(keys)).not.toContain('limited@example.in')
  })
})

describe('using the link', () => {
  it('sets the password once: the link cannot be used again, the old password stops working', async () => {
    const email = demoEmail('receptionist')
    const n = resetMails(email)
    await requestReset(email, freshIp())
    const token = await resetToken(email, n)
    // The confirmation must match.
    const mismatch = await post(
      '/api/public/password-reset/confirm',
      { token, newPassword: NEW_PASSWORD, confirmPassword: 'something-else-2026' },
      freshIp(),
    )
    expectError(mismatch, 400)
    expectError(await confirmReset(token, freshIp(), 'short'), 400)
    const done = await confirmReset(token, freshIp())
    expect(done.statusCode, done.body).toBe(200)
    expect(done.json()).toEqual({ message: PASSWORD_RESET_DONE_MESSAGE })
    const again = await confirmReset(token, freshIp(), 'yet-another-password-2026')
    expectError(again, 400)
    expect(again.json<{ message: string }>().message).toBe(RESET_LINK_INVALID_MESSAGE)
    expect((await signIn(t.app, email)).statusCode).toBe(401)
    await login(t.app, email, NEW_PASSWORD)
  })

  it(`expires after ${RESET_LINK_MINUTES} minutes`, async () => {
    const email = demoEmail('admin', 'smiledental')
    const n = resetMails(email)
    await requestReset(email, freshIp())
    const token = await resetToken(email, n)
    const [row] = await queryRows<{ minutes: number }>(
      t.db,
      sql`select extract(epoch from expires_at - created_at)::float8 / 60 as minutes
          from verifications where identifier = ${`reset-password:${token}`}`,
    )
    expect(Math.round(Number(row?.minutes))).toBe(RESET_LINK_MINUTES)
    // 30 minutes later (the row's clock moved back rather than the server's forward).
    await t.db.execute(
      sql`update verifications set expires_at = now() - interval '1 second',
          created_at = now() - interval '30 minutes 1 second'
          where identifier = ${`reset-password:${token}`}`,
    )
    const res = await confirmReset(token, freshIp())
    expectError(res, 400)
    expect(res.json<{ message: string }>().message).toBe(RESET_LINK_INVALID_MESSAGE)
    await login(t.app, email) // unchanged
  })

  it('ends every other session of the account', async () => {
    const email = demoEmail('doctor')
    const phone = await login(t.app, email)
    const laptop = await login(t.app, email)
    expect((await currentUser(phone)).statusCode).toBe(200)
    expect((await currentUser(laptop)).statusCode).toBe(200)
    const n = resetMails(email)
    await requestReset(email, freshIp())
    expect((await confirmReset(await resetToken(email, n), freshIp())).statusCode).toBe(200)
    expect((await currentUser(phone)).statusCode).toBe(401)
    expect((await currentUser(laptop)).statusCode).toBe(401)
    const [left] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from sessions where user_id = ${await userIdOf(t.db, email)}`,
    )
    expect(left?.n).toBe(0)
    // In the hospital's audit log, against the account (auditActions reads team.* only).
    const audited = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events
          where hospital_id = ${await hospitalIdOf(t.db, 'sanjeevani')}
            and action = 'user.password_reset' and entity_id = ${await userIdOf(t.db, email)}`,
    )
    expect(audited[0]?.n).toBe(1)
    // Both steps are in the security log.
    const events = await queryRows<{ event: string }>(
      t.db,
      sql`select event from security_events where email = ${email}
          and event like 'password.reset%' order by created_at`,
    )
    expect(events.map((e) => e.event)).toEqual(['password.reset_requested', 'password.reset'])
  })

  it('still asks for the two-factor code at the next sign-in', async () => {
    const email = demoEmail('viewer', 'smiledental')
    await enrolTwoFactor(t.app, await login(t.app, email))
    const n = resetMails(email)
    await requestReset(email, freshIp())
    expect((await confirmReset(await resetToken(email, n), freshIp())).statusCode).toBe(200)
    const first = await signIn(t.app, email, NEW_PASSWORD)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json<{ twoFactorRedirect?: boolean }>().twoFactorRedirect).toBe(true)
    // No session yet: only the code completes the sign-in.
    expect(first.headers['set-cookie']?.toString() ?? '').not.toMatch(/session_token=[^;]/)
  })
})

describe('suspended accounts', () => {
  it('a member suspended by the hospital gets the same answer but no link', async () => {
    const admin = await login(t.app, demoEmail('admin'))
    const email = demoEmail('viewer')
    const id = await userIdOf(t.db, email)
    const suspend = await teamApi(t.app).update(admin, id, { status: 'suspended' })
    expect(suspend.statusCode, suspend.body).toBe(200)
    const n = resetMails(email)
    const res = await requestReset(email, freshIp())
    expect(res.statusCode).toBe(202)
    expect(res.json()).toEqual({ message: RESET_REQUESTED_MESSAGE })
    await new Promise((r) => setTimeout(r, 200))
    expect(resetMails(email)).toBe(n)
    // The admin cannot send one either, until the member is active again.
    expectError(await post(`/api/team/members/${id}/password-reset`, {}, freshIp(), admin), 409)
    await teamApi(t.app).update(admin, id, { status: 'active' })
  })

  it('an account suspended by the platform after the link was sent cannot use it', async () => {
    const email = demoEmail('nurse', 'smiledental')
    const n = resetMails(email)
    await requestReset(email, freshIp())
    const token = await resetToken(email, n)
    const sa = await loginSuperAdmin(t.app)
    const id = await userIdOf(t.db, email)
    const res = await adminCall(t.app, sa, 'PATCH', `/api/admin/users/${id}`, {
      status: 'suspended',
    })
    expect(res.statusCode, res.body).toBe(200)
    expectError(await confirmReset(token, freshIp()), 403)
    // The password is unchanged, and sign-in stays refused.
    expect((await signIn(t.app, email, NEW_PASSWORD)).statusCode).toBe(401)
    expect((await signIn(t.app, email)).statusCode).toBe(403)
  })
})

describe('a hospital admin sends a member a link', () => {
  it('emails the link from the team screen, audited; receptionists, support visits and other hospitals are refused', async () => {
    const admin = await login(t.app, demoEmail('admin'))
    const email = demoEmail('nurse')
    const id = await userIdOf(t.db, email)
    const url = `/api/team/members/${id}/password-reset`
    const n = resetMails(email)
    const res = await post(url, {}, freshIp(), admin)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ emailStatus: 'sandbox' })
    expect(resetMails(email)).toBe(n + 1)
    expect(lastMailTo(t.db, email, 'password-reset')?.text).toContain('hospital administrator')
    const actions = await auditActions(t.db, await hospitalIdOf(t.db, 'sanjeevani'))
    expect(actions).toContain('team.password_reset_sent')
    // The member uses it.
    const token = await resetToken(email, n)
    expect((await confirmReset(token, freshIp(), 'nurse-chose-this-2026')).statusCode).toBe(200)

    const receptionist = await login(t.app, demoEmail('receptionist'), NEW_PASSWORD)
    expectError(await post(url, {}, freshIp(), receptionist), 403)
    const viewer = await login(t.app, demoEmail('viewer'))
    expectError(await post(url, {}, freshIp(), viewer), 403)
    // Another hospital's admin: 404, nothing sent.
    const other = await login(t.app, demoEmail('admin', 'smiledental'))
    expectError(await post(url, {}, freshIp(), other), 404)
    expect(resetMails(email)).toBe(n + 1)
    // A support visit (a super admin inside under a support grant) may not.
    const grant = await post(
      '/api/support-access',
      { hours: 2, reason: 'Help with sign-in trouble' },
      freshIp(),
      admin,
    )
    expect(grant.statusCode, grant.body).toBe(201)
    const sa = await loginSuperAdmin(t.app)
    const a = await hospitalIdOf(t.db, 'sanjeevani')
    const enter = await post(`/api/admin/hospitals/${a}/support-session`, undefined, freshIp(), sa)
    expect(enter.statusCode, enter.body).toBe(200)
    const refused = await post(url, {}, freshIp(), sa)
    expectError(refused, 403)
    expect(refused.json<{ code: string }>().code).toBe('SUPPORT_NOT_ALLOWED')
    expect(resetMails(email)).toBe(n + 1)
  })
})

describe('a production server without SMTP_URL', () => {
  let prod: TestApp
  beforeAll(async () => {
    prod = await createTestApp({ baseURL: 'http://localhost', requireMailDelivery: true })
  })
  afterAll(async () => {
    await prod?.close()
  })

  it('refuses to send reset links (409), for every address alike', async () => {
    for (const email of [demoEmail('nurse'), 'nobody-here@example.in']) {
      const res = await prod.app.inject({
        method: 'POST',
        url: '/api/public/password-reset/request',
        headers: browserHeaders(),
        payload: JSON.stringify({ email }),
      })
      expectError(res, 409)
      expect(res.json<{ message: string }>().message).toBe(MAIL_NOT_CONFIGURED_MESSAGE)
    }
  })
})
