import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emailOutbox } from '../../src/server/db/schema/security'
import { withPlatform } from '../../src/server/db/tenant'
import { MAIL_NOT_CONFIGURED_MESSAGE } from '../../src/server/integrations/email/mailer'
import { outboxEntry } from '../../src/shared/schemas/outbox'
import { expectError } from '../support/http'
import { browserHeaders, cookieHeader, login } from '../support/login'
import { lastMailTo, linkInMailTo } from '../support/mail'
import { adminCall, newHospital } from '../support/platform'
import { invitationToken, teamApi } from '../support/team'
import { createTestApp, demoEmail, queryRows, type TestApp } from '../support/test-app'
import { loginSuperAdmin } from '../support/two-factor'

// Issue 39, item 5: without SMTP_URL the platform outbox handed out live invitation and
// activation links to the super admin. Now no outbox row, and no answer of GET
// /api/admin/outbox, holds a live secret (the recipient's email alone does); a masked link opens
// nothing; and in production a server without a mail server refuses to send such links (409),
// creating nothing. (There is no password-reset email: better-auth's reset endpoints answer 404,
// src/server/auth/endpoints.ts; one added later is masked by the same mailer.)

const PASSWORD = 'new-member-password-2026'

const trialBody = (email: string) => ({
  hospitalName: 'Outbox Clinic, Pune',
  name: 'Ira Kulkarni',
  email,
  password: 'trial-password-2026',
  phone: '098765 43210',
})

async function outbox(app: TestApp) {
  const cookie = await loginSuperAdmin(app.app)
  const res = await adminCall(app.app, cookie, 'GET', '/api/admin/outbox')
  expect(res.statusCode, res.body).toBe(200)
  return { body: res.body, entries: z.array(outboxEntry.strict()).parse(res.json()) }
}

/** Every row of the outbox table, as a string (what a database reader would see). */
async function outboxTable(app: TestApp): Promise<string> {
  return JSON.stringify(await queryRows(app.db, sql`select * from email_outbox`))
}

describe('a development server (sandbox outbox)', () => {
  let t: TestApp
  let admin: string
  const api = () => teamApi(t.app)
  beforeAll(async () => {
    t = await createTestApp({ baseURL: 'http://localhost' })
    admin = await login(t.app, demoEmail('admin'))
  })
  afterAll(async () => {
    await t?.close()
  })

  it('keeps an invitation with its token masked; the masked link opens nothing, the emailed one does', async () => {
    const to = 'outbox.invitee@example.in'
    const res = await api().invite(admin, { email: to, name: 'Outbox Invitee', role: 'admin' })
    expect(res.statusCode, res.body).toBe(201)
    const token = await invitationToken(t.db, to)
    expect(token).toMatch(/^[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/)

    const { body, entries } = await outbox(t)
    const entry = entries.find((e) => e.to === to && e.purpose === 'team-invitation')
    expect(entry?.text).toContain(`http://localhost/invite#••••${token.slice(-4)}`)
    expect(body).not.toContain(token)
    expect(body).not.toContain(token.split('.')[1])
    expect(await outboxTable(t)).not.toContain(token.split('.')[1])

    // What a super admin can copy from the outbox opens nothing.
    const masked = /\/invite#(\S+)/.exec(entry?.text ?? '')?.[1] ?? ''
    expect(masked).toBe(`••••${token.slice(-4)}`)
    expectError(await api().lookup(masked), 400)
    expectError(await api().accept(masked, PASSWORD), 400)
    // The recipient's own email (captured in tests) still works.
    expect((await api().accept(token, PASSWORD)).statusCode).toBe(201)
  })

  it('keeps a trial activation with its token masked; the masked link activates nothing', async () => {
    const email = 'outbox.trial@family-clinic.example'
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trial',
      headers: browserHeaders(),
      payload: trialBody(email),
    })
    expect(res.statusCode, res.body).toBe(202)
    const link = new URL(linkInMailTo(t.db, email, 'verify-email'))
    const token = link.searchParams.get('token') ?? ''
    expect(token.length).toBeGreaterThan(40)

    const { body, entries } = await outbox(t)
    const entry = entries.find((e) => e.to === email && e.purpose === 'verify-email')
    expect(entry?.text).toContain(`/api/auth/verify-email?token=••••${token.slice(-4)}`)
    expect(body).not.toContain(token)
    expect(await outboxTable(t)).not.toContain(token)

    const maskedLink = /(https?:\/\/\S+verify-email\S+)/.exec(entry?.text ?? '')?.[1] ?? ''
    const url = new URL(maskedLink)
    const open = await t.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { host: 'localhost' },
    })
    expect(cookieHeader(open)).not.toContain('session_token')
    const [account] = await queryRows<{ email_verified: boolean }>(
      t.db,
      sql`select email_verified from users where email = ${email}`,
    )
    expect(account?.email_verified).toBe(false)
  })

  it('masks rows kept before the rule when it shows them', async () => {
    const live = `${'ab'.repeat(16)}.${'Zx9_'.repeat(10)}abc`
    await withPlatform(t.db, (tx) =>
      tx.insert(emailOutbox).values({
        purpose: 'team-invitation',
        toAddress: 'old.row@example.in',
        subject: 'You are invited',
        textBody: `Open this link:\nhttp://localhost/invite#${live}\n`,
        driver: 'sandbox',
        status: 'sandbox',
      }),
    )
    const { body, entries } = await outbox(t)
    expect(body).not.toContain(live)
    expect(entries.find((e) => e.to === 'old.row@example.in')?.text).toBe(
      `Open this link:\nhttp://localhost/invite#••••${live.slice(-4)}\n`,
    )
  })
})

describe('a production server without SMTP_URL', () => {
  let t: TestApp
  let admin: string
  const api = () => teamApi(t.app)
  beforeAll(async () => {
    t = await createTestApp({ baseURL: 'http://localhost', requireMailDelivery: true })
    admin = await login(t.app, demoEmail('admin'))
  })
  afterAll(async () => {
    await t?.close()
  })

  const invitationsTo = async (email: string) =>
    (
      await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from invitations where email = ${email}`,
      )
    )[0]?.n

  it('refuses to invite with a clear 409, creating no invitation and keeping no link', async () => {
    const to = 'prod.invitee@example.in'
    const body = expectError(
      await api().invite(admin, { email: to, name: 'Prod Invitee', role: 'admin' }),
      409,
      'CONFLICT',
    )
    expect(body.message).toBe(MAIL_NOT_CONFIGURED_MESSAGE)
    expect(body.message).toContain('SMTP_URL')
    expect(await invitationsTo(to)).toBe(0)
    expect(lastMailTo(t.db, to)).toBeUndefined()
  })

  it('refuses to resend an invitation made before, with the same answer', async () => {
    const [hospital] = await queryRows<{ id: string }>(
      t.db,
      sql`select hospital_id as id from users where email = ${demoEmail('admin')}`,
    )
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into invitations (hospital_id, email, name, role, token_hash, expires_at)
          values (${hospital?.id}, 'earlier@example.in', 'Earlier', 'nurse', ${'0'.repeat(64)},
                  now() + interval '7 days')
          returning id`,
    )
    const res = await api().resend(admin, row?.id ?? '')
    expect(expectError(res, 409, 'CONFLICT').message).toBe(MAIL_NOT_CONFIGURED_MESSAGE)
    const [after] = await queryRows<{ token_hash: string }>(
      t.db,
      sql`select token_hash from invitations where id = ${row?.id}`,
    )
    expect(after?.token_hash).toBe('0'.repeat(64))
  })

  it('refuses a trial sign-up, creating no hospital or account', async () => {
    const email = 'prod.trial@family-clinic.example'
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trial',
      headers: browserHeaders(),
      payload: trialBody(email),
    })
    expect(expectError(res, 409, 'CONFLICT').message).toBe(MAIL_NOT_CONFIGURED_MESSAGE)
    const [n] = await queryRows<{ users: number; hospitals: number }>(
      t.db,
      sql`select (select count(*)::int from users where email = ${email}) as users,
                 (select count(*)::int from hospitals where email = ${email}) as hospitals`,
    )
    expect(n).toEqual({ users: 0, hospitals: 0 })
  })

  it('refuses Add Hospital (its first admin is invited by email), creating nothing', async () => {
    const cookie = await loginSuperAdmin(t.app)
    const res = await adminCall(t.app, cookie, 'POST', '/api/admin/hospitals', newHospital('p1'))
    expect(expectError(res, 409, 'CONFLICT').message).toBe(MAIL_NOT_CONFIGURED_MESSAGE)
    const [n] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from hospitals where email = 'desk.p1@dhanvantari.test'`,
    )
    expect(n?.n).toBe(0)
  })
})
