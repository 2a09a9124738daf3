import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  estimatedDateOfBirth,
  type Patient,
  patient,
  phoneMatches,
} from '../../src/shared/schemas/patients'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { createPatient, getPatient, manualPatientPayload, patchPatient } from '../support/patients'
import { loginSuperAdmin } from '../support/two-factor'
import { createTestApp, demoEmail, queryRows, type TestApp } from '../support/test-app'

// Issue 7: mobile numbers, the duplicate-phone guard, age instead of date of birth, titles.
let t: TestApp
let cookie: string
let viewerCookie: string
let smileCookie: string

beforeAll(async () => {
  t = await createTestApp()
  cookie = await login(t.app, demoEmail('receptionist'))
  viewerCookie = await login(t.app, demoEmail('viewer'))
  smileCookie = await login(t.app, demoEmail('admin', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
})

async function created(payload: Record<string, unknown>, as = cookie): Promise<Patient> {
  const res = await createPatient(t.app, as, payload)
  expect(res.statusCode, res.body).toBe(201)
  return patient.strict().parse(res.json())
}

const MOBILE_MESSAGE = 'Enter a valid mobile number, e.g. 98765 43210'

describe('patient phones', () => {
  it.each([
    ['98765 43210', '+919876543210'],
    ['09876543210', '+919876543210'],
    ['+91 98765 43210', '+919876543210'],
    ['+1 212 555 0123', '+12125550123'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+971 50 123 4567', '+971501234567'],
  ])('accepts %j as %s', async (phone, e164) => {
    expect((await created({ name: 'Phone Ok', phone })).phone).toBe(e164)
  })

  it.each(['1234567890', '5555555555', '+91 12345 67890', '020 2550 1234', '+44 20 7946'])(
    'refuses %j with the mobile message, on create and on patch',
    async (phone) => {
      const res = await createPatient(t.app, cookie, { name: 'Phone Bad', phone })
      expect(issuePaths(res)).toEqual(['phone'])
      expect(res.json<{ issues: { message: string }[] }>().issues[0]?.message).toBe(MOBILE_MESSAGE)
      const target = await created({ name: 'Phone Patch', phone: '98765 43210' })
      expect(issuePaths(await patchPatient(t.app, cookie, target.id, { phone }))).toEqual(['phone'])
    },
  )
})

/** GET /api/patients/duplicates as a receptionist by default; null: signed out. */
function duplicates(query: string, as: string | null = cookie) {
  return t.app.inject({
    method: 'GET',
    url: `/api/patients/duplicates${query}`,
    headers: as ? { cookie: as } : {},
  })
}

describe('GET /api/patients/duplicates', () => {
  const phone = '+919811122334'
  let family: Patient[]

  beforeAll(async () => {
    family = []
    for (const name of ['Ravi Deshpande', 'Sunanda Deshpande', 'Ira Deshpande'])
      family.push(await created({ name, phone: '98111 22334' }))
    await created({ name: 'Other Clinic Deshpande', phone: '98111 22334' }, smileCookie)
  })

  it('counts the hospital’s patients with that phone, newest first, as typed any way', async () => {
    for (const typed of ['98111 22334', '098111-22334', '+91 98111 22334', phone]) {
      const res = await duplicates(`?phone=${encodeURIComponent(typed)}`, viewerCookie)
      expect(res.statusCode, res.body).toBe(200)
      const body = phoneMatches.strict().parse(res.json())
      expect(body.count).toBe(3)
      expect(body.patients).toEqual(
        [...family].reverse().map((p) => ({
          id: p.id,
          name: p.name,
          patientNumber: p.patientNumber,
          phone,
        })),
      )
    }
  })

  it('leaves out the patient being edited (excludeId)', async () => {
    const res = await duplicates(`?phone=${phone}&excludeId=${family[0]?.id}`)
    const body = phoneMatches.parse(res.json())
    expect(body.count).toBe(2)
    expect(body.patients.map((p) => p.id)).not.toContain(family[0]?.id)
    const none = phoneMatches.parse((await duplicates('?phone=98765%2001234')).json())
    expect(none).toEqual({ count: 0, patients: [] })
  })

  it('shows at most 5 but counts them all; adding a shared phone still succeeds', async () => {
    for (const name of ['Kid One', 'Kid Two', 'Kid Three'])
      family.push(await created({ name, phone: '+91 98111 22334' }))
    const body = phoneMatches.parse((await duplicates(`?phone=${phone}`)).json())
    expect(body.count).toBe(6)
    expect(body.patients.map((p) => p.name)).toEqual([
      'Kid Three',
      'Kid Two',
      'Kid One',
      'Ira Deshpande',
      'Sunanda Deshpande',
    ])
  })

  it('never counts or shows another hospital’s patients', async () => {
    const body = phoneMatches.parse((await duplicates(`?phone=${phone}`, smileCookie)).json())
    expect(body.count).toBe(1)
    expect(body.patients.map((p) => p.name)).toEqual(['Other Clinic Deshpande'])
    const excluded = await duplicates(`?phone=${phone}&excludeId=${family[0]?.id}`, smileCookie)
    expect(phoneMatches.parse(excluded.json()).count).toBe(1)
  })

  it('answers a bad phone or query with 400, and only staff may ask', async () => {
    const bad = await duplicates('?phone=1234567890')
    expect(issuePaths(bad)).toEqual(['phone'])
    expect(bad.json<{ issues: { message: string }[] }>().issues[0]?.message).toBe(MOBILE_MESSAGE)
    expect(issuePaths(await duplicates(''))).toEqual(['phone'])
    expect(issuePaths(await duplicates('?phone=abc'))).toEqual(['phone'])
    expect(issuePaths(await duplicates(`?phone=${phone}&excludeId=nope`))).toEqual(['excludeId'])
    expect(issuePaths(await duplicates(`?phone=${phone}&name=x`))).toEqual(['query'])
    expectError(await duplicates(`?phone=${phone}`, null), 401, 'UNAUTHENTICATED')
    expectError(await duplicates(`?phone=${phone}`, await loginSuperAdmin(t.app)), 403, 'FORBIDDEN')
  })
})

describe('age instead of date of birth', () => {
  /** The estimate for today, allowing for a test that runs across midnight in India. */
  const estimates = (age: number) => {
    const now = Date.now()
    return [
      estimatedDateOfBirth(age, new Date(now)),
      estimatedDateOfBirth(age, new Date(now + 60_000)),
    ]
  }

  it('stores an estimated date of birth, and a real date clears the flag', async () => {
    const p = await created({ name: 'Age Only', phone: '98765 43210', ageYears: 42 })
    expect(estimates(42)).toContain(p.dateOfBirth)
    expect(p.dateOfBirthEstimated).toBe(true)
    expect((await getPatient(t.app, cookie, p.id)).json()).toEqual(p)

    const dated = patient.parse(
      (await patchPatient(t.app, cookie, p.id, { dateOfBirth: '1983-06-01' })).json(),
    )
    expect(dated).toMatchObject({ dateOfBirth: '1983-06-01', dateOfBirthEstimated: false })
    const aged = patient.parse((await patchPatient(t.app, cookie, p.id, { ageYears: '7' })).json())
    expect(aged.dateOfBirthEstimated).toBe(true)
    expect(estimates(7)).toContain(aged.dateOfBirth)
    // An edit form sends every field back: the same date keeps the estimate.
    const resent = patient.parse(
      (
        await patchPatient(t.app, cookie, p.id, {
          dateOfBirth: aged.dateOfBirth,
          address: 'Same date, new address',
        })
      ).json(),
    )
    expect(resent).toMatchObject({ dateOfBirth: aged.dateOfBirth, dateOfBirthEstimated: true })
    const other = patient.parse(
      (await patchPatient(t.app, cookie, p.id, { allergies: 'None' })).json(),
    )
    expect(other).toMatchObject({ dateOfBirth: aged.dateOfBirth, dateOfBirthEstimated: true })
    const cleared = patient.parse(
      (await patchPatient(t.app, cookie, p.id, { dateOfBirth: null })).json(),
    )
    expect(cleared).toMatchObject({ dateOfBirth: null, dateOfBirthEstimated: false })
  })

  it('is false for a patient added with a date of birth', async () => {
    const p = await created(manualPatientPayload())
    expect(p).toMatchObject({ dateOfBirth: '1988-04-12', dateOfBirthEstimated: false })
  })

  it.each([
    [{ dateOfBirth: '1990-01-01', ageYears: 30 }, 'ageYears'],
    [{ ageYears: 131 }, 'ageYears'],
    [{ ageYears: -1 }, 'ageYears'],
    [{ ageYears: 2.5 }, 'ageYears'],
    [{ ageYears: 'forty' }, 'ageYears'],
  ])('refuses %j', async (extra, path) => {
    const res = await createPatient(t.app, cookie, {
      name: 'Age Bad',
      phone: '98765 43210',
      ...extra,
    })
    expect(issuePaths(res)).toEqual([path])
  })
})

describe('names with titles', () => {
  it('never gives a title as a patient’s first name', async () => {
    const p = await created({ name: 'Dr. Meera Kulkarni', phone: '98765 43210' })
    expect(p).toMatchObject({
      name: 'Dr. Meera Kulkarni',
      firstName: 'Meera',
      lastName: 'Kulkarni',
    })
  })

  it('stores demo staff with the title in the name only', async () => {
    const [doctor] = await queryRows<{ name: string; first_name: string; last_name: string }>(
      t.db,
      sql`select name, first_name, last_name from users where email = ${demoEmail('doctor')}`,
    )
    expect(doctor).toEqual({ name: 'Dr. Rajesh Iyer', first_name: 'Rajesh', last_name: 'Iyer' })
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie: await login(t.app, demoEmail('doctor')) },
    })
    expect(me.json()).toMatchObject({ firstName: 'Rajesh', lastName: 'Iyer' })
  })

  it('signs up a trial admin titled in the name, and gives the clinic its number prefix', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trial',
      headers: browserHeaders(),
      payload: {
        hospitalName: 'Arogya Family Clinic, Nashik',
        name: 'Dr. Kavya Menon',
        email: 'kavya@family-clinic.example',
        password: 'trial-password-2026',
        phone: '098765 43210',
      },
    })
    expect(res.statusCode, res.body).toBe(202)
    const [row] = await queryRows<{
      name: string
      first_name: string
      prefix: string
      next: number
    }>(
      t.db,
      sql`select u.name, u.first_name, c.prefix, c.next_value as next from users u
          join patient_number_counters c on c.hospital_id = u.hospital_id
          where u.email = 'kavya@family-clinic.example'`,
    )
    expect(row).toEqual({ name: 'Dr. Kavya Menon', first_name: 'Kavya', prefix: 'AFC', next: 1 })
  })
})
