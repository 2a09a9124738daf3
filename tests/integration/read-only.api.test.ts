import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CurrentUser } from '../../src/shared/schemas/auth'
import { READ_ONLY_MESSAGES } from '../../src/shared/schemas/support-access'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { manualPatientPayload } from '../support/patients'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 27, read-only mode: a cancelled hospital, or one past due beyond the 14-day grace period,
// can still sign in, read and export, but every write is refused with HOSPITAL_READ_ONLY.

let t: TestApp
let admin: string
let receptionist: string
let adminB: string
let sa: string
let a: string

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
function call(cookie: string, method: Method, url: string, body?: unknown) {
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

let n = 0
const addPatient = (cookie: string) =>
  call(cookie, 'POST', '/api/patients/manual', manualPatientPayload({ name: `Read Only ${++n}` }))
const setStatus = (subscriptionStatus: string) =>
  call(sa, 'PATCH', `/api/admin/hospitals/${a}`, { subscriptionStatus })
const me = async (cookie: string) =>
  (await call(cookie, 'GET', '/api/auth/user')).json<CurrentUser>()
const patientCount = async () =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where hospital_id = ${a}`,
    )
  )[0]?.n

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  sa = await loginSuperAdmin(t.app)
  a = await hospitalIdOf(t.db, 'sanjeevani')
})
afterAll(async () => {
  await t?.close()
})

describe('past due', () => {
  it('stays writable during the grace period, and records when the status changed', async () => {
    expect((await setStatus('past_due')).statusCode).toBe(200)
    const [row] = await queryRows<{ recent: boolean }>(
      t.db,
      sql`select status_changed_at > now() - interval '1 minute' as recent from hospitals where id = ${a}`,
    )
    expect(row?.recent).toBe(true)
    expect((await addPatient(receptionist)).statusCode).toBe(201)
    expect((await me(admin)).readOnly).toBeNull()
  })

  it('beyond the grace period: reads, exports and sign-in work; writes are refused and change nothing', async () => {
    await t.db.execute(
      sql`update hospitals set status_changed_at = now() - interval '15 days' where id = ${a}`,
    )
    const before = await patientCount()
    const refused = expectError(await addPatient(receptionist), 403, 'HOSPITAL_READ_ONLY')
    expect(refused.message).toBe(READ_ONLY_MESSAGES.past_due)
    expectError(
      await call(admin, 'PATCH', '/api/hospital/settings', { name: 'Renamed' }),
      403,
      'HOSPITAL_READ_ONLY',
    )
    expect(await patientCount()).toBe(before)

    expect((await call(admin, 'GET', '/api/patients')).statusCode).toBe(200)
    const csv = await call(admin, 'GET', '/api/invoices/export.csv')
    expect(csv.statusCode).toBe(200)
    const user = await me(admin)
    expect(user.readOnly).toEqual({ reason: 'past_due', message: READ_ONLY_MESSAGES.past_due })

    // A fresh sign-in works, and so does signing out.
    const again = await login(t.app, demoEmail('viewer'))
    expect((await me(again)).readOnly?.reason).toBe('past_due')
    expect((await call(again, 'POST', '/api/auth/sign-out', {})).statusCode).toBe(200)

    // The other hospital is not affected.
    expect((await addPatient(adminB)).statusCode).toBe(201)
  })

  it('back to active on payment: writable again at once', async () => {
    expect((await setStatus('active')).statusCode).toBe(200)
    expect((await addPatient(receptionist)).statusCode).toBe(201)
    expect((await me(admin)).readOnly).toBeNull()
  })
})

describe('cancelled', () => {
  it('is read-only at once, and writable again when reactivated', async () => {
    expect((await setStatus('past_due')).statusCode).toBe(200)
    expect((await setStatus('cancelled')).statusCode).toBe(200)
    const refused = expectError(await addPatient(admin), 403, 'HOSPITAL_READ_ONLY')
    expect(refused.message).toBe(READ_ONLY_MESSAGES.cancelled)
    expect((await me(admin)).readOnly?.reason).toBe('cancelled')
    expect((await call(admin, 'GET', '/api/invoices')).statusCode).toBe(200)
    // The user's own appearance is not hospital data.
    const prefs = await call(admin, 'GET', '/api/me/preferences')
    expect((await call(admin, 'PUT', '/api/me/preferences', prefs.json())).statusCode).toBe(200)

    expect((await setStatus('active')).statusCode).toBe(200)
    expect((await addPatient(admin)).statusCode).toBe(201)
  })
})
