import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentUser } from '../../src/shared/schemas/auth'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, cookieHeader, signIn } from '../support/login'
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

describe('POST /api/auth/trial', () => {
  it('creates a trial hospital and its admin, and signs the admin in', async () => {
    const before = await counts()
    const res = await trial(valid)
    expect(res.statusCode, res.body).toBe(201)
    const user = currentUser.strict().parse(res.json())
    expect(user).toMatchObject({
      email: 'kavya.menon@family-clinic.example',
      firstName: 'Kavya',
      lastName: 'Menon',
      role: 'admin',
      isSuperAdmin: false,
      hospitalName: valid.hospitalName,
      plan: 'starter',
      status: 'active',
    })
    expect(await counts()).toEqual({ hospitals: before.hospitals + 1, users: before.users + 1 })

    const [hospital] = await queryRows<{
      subscription_status: string
      days: number
      phone: string
      max_users: number
    }>(
      t.db,
      sql`select subscription_status, phone, max_users,
                 round(extract(epoch from (trial_ends_at - now())) / 86400)::int as days
          from hospitals where id = ${user.hospitalId}`,
    )
    expect(hospital).toEqual({
      subscription_status: 'trial',
      phone: '+919876543210',
      max_users: 5,
      days: 14,
    })

    const cookie = cookieHeader(res)
    expect(cookie).toContain('arogya.session_token=')
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
    expect(me.json()).toMatchObject({ id: user.id, hospitalId: user.hospitalId })
    // A new tenant sees none of the demo hospitals' patients.
    const list = await t.app.inject({ method: 'GET', url: '/api/patients', headers: { cookie } })
    expect(list.statusCode).toBe(200)
    expect(list.json()).toEqual([])
    // The admin can sign in again with the chosen password.
    expect((await signIn(t.app, valid.email.toLowerCase(), valid.password)).statusCode).toBe(200)
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

  it('answers an existing email, in any letter case, with 409 and leaves no hospital behind', async () => {
    const before = await counts()
    const res = await trial({ ...valid, email: 'ADMIN@sanjeevani.demo' })
    const body = expectError(res, 409, 'CONFLICT')
    expect(body.issues?.[0]?.path).toBe('email')
    expect(res.headers['set-cookie']).toBeUndefined()
    expectError(await trial(valid), 409, 'CONFLICT')
    expect(await counts()).toEqual(before)
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
  })
})
