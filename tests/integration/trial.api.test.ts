import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentUser, TRIAL_STARTED_MESSAGE, trialStarted } from '../../src/shared/schemas/auth'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, cookieHeader, signIn } from '../support/login'
import { lastMailTo } from '../support/mail'
import { createTestApp, queryRows, type TestApp } from '../support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const trial = (payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/trial',
    headers: browserHeaders(),
    payload: payload as object,
  })

const valid = {
  hospitalName: 'Arogya Family Clinic, Nashik',
  name: 'Kavya Menon',
  email: 'Kavya.Menon@Family-Clinic.example',
  password: 'trial-password-2026',
  phone: '098765 43210',
}

async function counts(): Promise<{ hospitals: number; users: number }> {
  const [row] = await queryRows<{ hospitals: number; users: number }>(
    t.db,
    sql`select (select count(*)::int from hospitals) as hospitals, (select count(*)::int from users) as users`,
  )
  return row ?? { hospitals: -1, users: -1 }
}

/** The newest email to an address, as the mailer was handed it (the outbox masks its link). */
async function lastEmailTo(to: string): Promise<{ purpose: string; text: string } | undefined> {
  const mail = lastMailTo(t.db, to)
  return mail ? { purpose: mail.purpose, text: mail.text } : undefined
}

/** The activation link of an email, as a path on this server. */
function activationPath(text: string): string {
  const match = /(https?:\/\/\S+\/api\/auth\/verify-email\?\S+)/.exec(text)
  if (!match?.[1]) throw new Error(`no activation link in: ${text}`)
  const url = new URL(match[1])
  return `${url.pathname}${url.search}`
}

describe('POST /api/auth/trial', () => {
  it('creates a trial hospital and an unverified admin, and emails the activation link', async () => {
    const before = await counts()
    const res = await trial(valid)
    expect(res.statusCode, res.body).toBe(202)
    expect(trialStarted.strict().parse(res.json())).toEqual({ message: TRIAL_STARTED_MESSAGE })
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(await counts()).toEqual({ hospitals: before.hospitals + 1, users: before.users + 1 })

    const email = valid.email.toLowerCase()
    const [account] = await queryRows<{ hospital_id: string; email_verified: boolean }>(
      t.db,
      sql`select hospital_id, email_verified from users where email = ${email}`,
    )
    expect(account?.email_verified).toBe(false)
    const [hospital] = await queryRows<{
      subscription_status: string
      days: number
      phone: string
      max_users: number
    }>(
      t.db,
      sql`select subscription_status, phone, max_users,
                 round(extract(epoch from (trial_ends_at - now())) / 86400)::int as days
          from hospitals where id = ${account?.hospital_id}`,
    )
    expect(hospital).toEqual({
      subscription_status: 'trial',
      phone: '+919876543210',
      max_users: 5,
      days: 14,
    })

    // Not activated yet: the password alone does not sign in.
    const early = await signIn(t.app, email, valid.password)
    expectError(early, 403)
    expect(cookieHeader(early)).not.toContain('session_token')

    const mail = await lastEmailTo(email)
    expect(mail?.purpose).toBe('verify-email')
    const open = await t.app.inject({
      method: 'GET',
      url: activationPath(mail?.text ?? ''),
      headers: { host: 'localhost' },
    })
    expect(open.statusCode, open.body).toBe(302)
    expect(open.headers.location).toBe('/')
    const cookie = cookieHeader(open)
    expect(cookie).toContain('arogya.session_token=')
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
    const user = currentUser.strict().parse(me.json())
    expect(user).toMatchObject({
      email,
      firstName: 'Kavya',
      lastName: 'Menon',
      role: 'admin',
      isSuperAdmin: false,
      hospitalId: account?.hospital_id,
      hospitalName: valid.hospitalName,
      plan: 'starter',
      status: 'active',
    })
    // A new tenant sees none of the demo hospitals' patients.
    const list = await t.app.inject({ method: 'GET', url: '/api/patients', headers: { cookie } })
    expect(list.statusCode).toBe(200)
    expect(list.json()).toEqual([])
    // The admin can sign in again with the chosen password.
    expect((await signIn(t.app, email, valid.password)).statusCode).toBe(200)
  })

  it('answers bad fields with 400 and an issue per field, creating nothing', async () => {
    const before = await counts()
    const res = await trial({
      hospitalName: ' ',
      name: '',
      email: 'not-an-email',
      password: 'short',
      phone: 'call me',
    })
    expect(issuePaths(res)).toEqual(['email', 'hospitalName', 'name', 'password', 'phone'])
    expect(issuePaths(await trial({}))).toEqual([
      'email',
      'hospitalName',
      'name',
      'password',
      'phone',
    ])
    expectError(
      await trial({ ...valid, email: 'other@x.example', role: 'super_admin' }),
      400,
      'VALIDATION',
    )
    expectError(await trial([valid]), 400, 'VALIDATION')
    expect(await counts()).toEqual(before)
  })

  it('answers an existing email exactly like a new one, and tells its owner by email instead', async () => {
    const before = await counts()
    const fresh = await trial({ ...valid, email: 'new.clinic@example.in' })
    const existing = await trial({ ...valid, email: 'ADMIN@sanjeevani.demo' })
    expect(existing.statusCode).toBe(fresh.statusCode)
    expect(existing.body).toBe(fresh.body)
    expect(existing.headers['content-type']).toBe(fresh.headers['content-type'])
    expect(existing.headers['set-cookie']).toBeUndefined()
    expect(await counts()).toEqual({ hospitals: before.hospitals + 1, users: before.users + 1 })
    expect((await lastEmailTo('admin@sanjeevani.demo'))?.purpose).toBe('trial-existing-account')
    // The existing account's password is unchanged.
    expect((await signIn(t.app, 'admin@sanjeevani.demo')).statusCode).toBe(200)
    expectError(await signIn(t.app, 'admin@sanjeevani.demo', valid.password), 401)
  })

  it('sends a new activation link when an unverified address signs up again', async () => {
    const email = 'twice@clinic.example'
    const sent = async () => {
      const [row] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from email_outbox where to_address = ${email} and purpose = 'verify-email'`,
      )
      return row?.n ?? -1
    }
    expect((await trial({ ...valid, email })).statusCode).toBe(202)
    const before = await counts()
    expect(await sent()).toBe(1)
    const again = await trial({ ...valid, email, password: 'another-password-2026' })
    expect(again.statusCode).toBe(202)
    expect(await sent()).toBe(2)
    // No second hospital or user, and the account stays unverified.
    expect(await counts()).toEqual(before)
    const [account] = await queryRows<{ verified: boolean }>(
      t.db,
      sql`select email_verified as verified from users where email = ${email}`,
    )
    expect(account?.verified).toBe(false)
  })
})

describe('POST /api/auth/sign-up/email', () => {
  it('is blocked: accounts are made through the trial sign-up only', async () => {
    const before = await counts()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: browserHeaders(),
      payload: { name: 'Mallory', email: 'mallory@example.com', password: 'mallory-password' },
    })
    expectError(res, 404, 'NOT_FOUND')
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(await counts()).toEqual(before)
    expectError(await signIn(t.app, 'mallory@example.com', 'mallory-password'), 401)
    // Off inside better-auth too, whatever path might reach it.
    await expect(
      t.auth.api.signUpEmail({
        body: { name: 'Mallory', email: 'mallory@example.com', password: 'mallory-password' },
      }),
    ).rejects.toThrow()
    expect(await counts()).toEqual(before)
  })
})
