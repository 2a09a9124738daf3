import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gstinCheckCharacter, gstStates, isValidGstin } from '../../src/shared/gst-states'
import {
  GSTIN_STATE_MESSAGE,
  type HospitalSettings,
  hospitalSettings,
  SLUG_TAKEN_MESSAGE,
} from '../../src/shared/schemas/hospital-settings'
import { defaultWorkingHours } from '../../src/shared/scheduling'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 26, Settings → General: GET /api/hospital/settings (any member) and PATCH (admins),
// validated field by field, audited, always the caller's own hospital.

let t: TestApp
let admin: string
let adminB: string
let hospitalA: string
let hospitalB: string
const cookies = new Map<DemoRole, string>()

const URL = '/api/hospital/settings'
/** Real GSTINs' shapes with correct check characters (Maharashtra 27, Karnataka 29). */
const GSTIN_27 = '27AAPFU0939F1ZV'
const GSTIN_29 = '29AAGCB7383J1Z4'

beforeAll(async () => {
  t = await createTestApp()
  for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const)
    cookies.set(role, await login(t.app, demoEmail(role)))
  admin = cookies.get('admin')!
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
})
afterAll(async () => {
  await t?.close()
})

const get = (cookie: string | undefined) =>
  t.app.inject({ method: 'GET', url: URL, headers: cookie ? { cookie } : {} })
const patch = (cookie: string | undefined, body: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: URL,
    headers: browserHeaders(cookie),
    payload: JSON.stringify(body),
  })

function settingsOf(res: LightMyRequestResponse): HospitalSettings {
  expect(res.statusCode, res.body).toBe(200)
  return hospitalSettings.strict().parse(res.json()) as HospitalSettings
}

async function auditRows(hospitalId: string) {
  return queryRows<{ action: string; summary: string; actor_user_id: string | null }>(
    t.db,
    sql`select action, summary, actor_user_id from audit_events
        where hospital_id = ${hospitalId} and action = 'hospital.settings_saved'
        order by created_at, id`,
  )
}

/** A 400 on exactly this field with this message, and nothing changed. */
async function refused(body: Record<string, unknown>, path: string, message?: string | RegExp) {
  const before = settingsOf(await get(admin))
  const audits = (await auditRows(hospitalA)).length
  const res = await patch(admin, body)
  const error = expectError(res, 400, 'VALIDATION')
  const issue = error.issues?.find((i) => i.path === path)
  expect(issue, `${JSON.stringify(body)}: ${res.body}`).toBeDefined()
  if (message) expect(issue?.message).toMatch(message)
  expect(settingsOf(await get(admin))).toEqual(before)
  expect((await auditRows(hospitalA)).length).toBe(audits)
}

describe('GET /api/hospital/settings', () => {
  it('gives every member the hospital’s settings, with the defaults of 0017', async () => {
    for (const [role, cookie] of cookies) {
      const s = settingsOf(await get(cookie))
      expect(s.name, role).toBe('Sanjeevani Multispeciality Hospital, Pune')
      expect(s).toMatchObject({
        timeZone: 'Asia/Kolkata',
        stateCode: '27',
        upiId: 'sanjeevanihospital@icici',
        workingHours: defaultWorkingHours,
        reminderOffsets: [1440, 120],
      })
      expect(s.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(s.invoicePrefix).toMatch(/^[A-Z0-9]{1,10}$/)
    }
  })

  it('answers 401 signed out and 403 to an account without a hospital', async () => {
    expectError(await get(undefined), 401, 'UNAUTHENTICATED')
    const res = await get(await loginSuperAdmin(t.app))
    expect(expectError(res, 403, 'FORBIDDEN').message).toBe('You are not a member of a hospital')
  })
})

describe('PATCH /api/hospital/settings', () => {
  it('saves the GST details and UPI id, normalised, with an audit row naming the fields', async () => {
    const audits = (await auditRows(hospitalA)).length
    const saved = settingsOf(
      await patch(admin, {
        gstin: GSTIN_27.toLowerCase(),
        stateCode: '27',
        upiId: ' Sanjeevani.Desk@OKAXIS ',
      }),
    )
    expect(saved).toMatchObject({
      gstin: GSTIN_27,
      stateCode: '27',
      upiId: 'sanjeevani.desk@okaxis',
    })
    expect(settingsOf(await get(cookies.get('viewer')!))).toEqual(saved)
    const [row] = await queryRows<{ gstin: string; upi_id: string }>(
      t.db,
      sql`select gstin, upi_id from hospitals where id = ${hospitalA}`,
    )
    expect(row).toEqual({ gstin: GSTIN_27, upi_id: 'sanjeevani.desk@okaxis' })
    const rows = await auditRows(hospitalA)
    expect(rows).toHaveLength(audits + 1)
    expect(rows.at(-1)?.summary).toBe('Hospital settings saved (gstin, upiId)')
    expect(rows.at(-1)?.actor_user_id).toBeTruthy()
  })

  it('saves name, time zone, slug, prefix, working hours and reminder offsets', async () => {
    const hours = { ...defaultWorkingHours, '0': ['10:00', '14:00'], '6': null }
    const saved = settingsOf(
      await patch(admin, {
        name: '  Sanjeevani Hospital, Pune  ',
        timeZone: 'Asia/Dubai',
        slug: 'Sanjeevani-Pune',
        invoicePrefix: 'sjh',
        workingHours: hours,
        reminderOffsets: [60, 2880, 1440],
      }),
    )
    expect(saved).toMatchObject({
      name: 'Sanjeevani Hospital, Pune',
      timeZone: 'Asia/Dubai',
      slug: 'sanjeevani-pune',
      invoicePrefix: 'SJH',
      workingHours: hours,
      reminderOffsets: [2880, 1440, 60],
    })
    expect(settingsOf(await get(admin))).toEqual(saved)
    expect((await auditRows(hospitalA)).at(-1)?.summary).toBe(
      'Hospital settings saved (name, timeZone, slug, invoicePrefix, workingHours, reminderOffsets)',
    )
    // Back to the demo's zone and name for the rest of the file.
    settingsOf(
      await patch(admin, {
        timeZone: 'Asia/Kolkata',
        name: 'Sanjeevani Multispeciality Hospital, Pune',
      }),
    )
  })

  it('clears the GSTIN and the UPI id with null or an empty string', async () => {
    const cleared = settingsOf(await patch(admin, { gstin: '', upiId: null }))
    expect(cleared).toMatchObject({ gstin: null, upiId: null, stateCode: '27' })
    settingsOf(await patch(admin, { gstin: GSTIN_27, upiId: 'sanjeevanihospital@icici' }))
  })

  it('refuses a GSTIN of the wrong shape, state or check character', async () => {
    await refused({ gstin: '27AAPFU0939F1Z' }, 'gstin', /15-character GSTIN/)
    await refused({ gstin: 'ABCDEFGHIJKLMNO' }, 'gstin', /15-character GSTIN/)
    const wrongCheck = `${GSTIN_27.slice(0, 14)}${GSTIN_27.endsWith('A') ? 'B' : 'A'}`
    await refused({ gstin: wrongCheck }, 'gstin', /does not check out/)
    // Both given, different states.
    await refused({ gstin: GSTIN_29, stateCode: '27' }, 'gstin', GSTIN_STATE_MESSAGE)
    // Only one given: checked against the stored other one.
    await refused({ gstin: GSTIN_29 }, 'gstin', GSTIN_STATE_MESSAGE)
    await refused({ stateCode: '29' }, 'stateCode', /must match the first 2 digits/)
    // 28 (undivided Andhra Pradesh) is no longer issued.
    const old = `28${GSTIN_27.slice(2, 14)}`
    await refused({ gstin: old + gstinCheckCharacter(old), stateCode: null }, 'gstin', /state code/)
  })

  it('moves state and GSTIN together', async () => {
    const moved = settingsOf(await patch(admin, { gstin: GSTIN_29, stateCode: '29' }))
    expect(moved).toMatchObject({ gstin: GSTIN_29, stateCode: '29' })
    settingsOf(await patch(admin, { gstin: GSTIN_27, stateCode: '27' }))
  })

  it('refuses each other bad field with a 400 on that field, changing nothing', async () => {
    await refused({ stateCode: '28' }, 'stateCode', 'Choose a state from the GST list')
    await refused({ stateCode: 27 }, 'stateCode')
    await refused({ upiId: 'not a vpa' }, 'upiId', /UPI ID like/)
    await refused({ upiId: 'clinic@' }, 'upiId', /UPI ID like/)
    await refused({ invoicePrefix: 'SMH/26' }, 'invoicePrefix', /1 to 10 capital letters/)
    await refused({ invoicePrefix: 'ABCDEFGHIJK' }, 'invoicePrefix')
    await refused({ invoicePrefix: '' }, 'invoicePrefix')
    await refused({ slug: 'Bad Slug!' }, 'slug', /lower-case letters/)
    await refused({ slug: 'ab' }, 'slug')
    await refused({ slug: 'a--b-c' }, 'slug')
    await refused(
      { timeZone: 'Mars/Olympus' },
      'timeZone',
      'Choose a valid time zone, e.g. Asia/Kolkata',
    )
    await refused({ timeZone: '+05:30' }, 'timeZone')
    await refused({ timeZone: 'IST' }, 'timeZone')
    await refused({ name: ' ' }, 'name')
    await refused({ name: 'x'.repeat(121) }, 'name')
    await refused({ reminderOffsets: [] }, 'reminderOffsets', 'Keep at least one reminder')
    await refused(
      { reminderOffsets: [60, 120, 180, 240, 300] },
      'reminderOffsets',
      'At most 4 reminders',
    )
    await refused(
      { reminderOffsets: [120, 120] },
      'reminderOffsets',
      'Each reminder time only once',
    )
    await refused({ reminderOffsets: [10] }, 'reminderOffsets.0', /at least 15 minutes/)
    await refused({ reminderOffsets: [10081] }, 'reminderOffsets.0', /at most 7 days/)
    await refused({ reminderOffsets: [90.5] }, 'reminderOffsets.0', /whole number/)
    await refused({ reminderOffsets: '1440' }, 'reminderOffsets')
  })

  it('refuses working hours that close before they open, or miss a day', async () => {
    const hours = (day: string, value: unknown) => ({ ...defaultWorkingHours, [day]: value })
    await refused(
      { workingHours: hours('1', ['20:00', '09:00']) },
      'workingHours.1',
      'Opening time must be before closing time',
    )
    await refused(
      { workingHours: hours('2', ['09:00', '09:00']) },
      'workingHours.2',
      'Opening time must be before closing time',
    )
    await refused({ workingHours: hours('3', ['9:00', '18:00']) }, 'workingHours.3.0', /HH:mm/)
    await refused({ workingHours: hours('4', ['09:00', '24:00']) }, 'workingHours.4.1', /HH:mm/)
    await refused({ workingHours: hours('5', ['09:00']) }, 'workingHours.5')
    const noSaturday = Object.fromEntries(
      Object.entries(defaultWorkingHours).filter(([day]) => day !== '6'),
    )
    await refused({ workingHours: noSaturday }, 'workingHours.6')
    await refused({ workingHours: hours('7', null) }, 'workingHours')
  })

  it('refuses unknown fields and bodies that are not objects', async () => {
    await refused({ hospitalId: hospitalB, gstin: GSTIN_27 }, '', /Unknown field/)
    await refused({ maxUsers: 500 }, '', /Unknown field/)
    for (const body of [[], 'gstin', 42]) expectError(await patch(admin, body), 400, 'VALIDATION')
  })

  it('answers 409 when another hospital has the booking link, changing nothing', async () => {
    const other = settingsOf(await get(adminB))
    const before = settingsOf(await get(admin))
    const res = await patch(admin, { slug: other.slug, upiId: 'changed@okaxis' })
    const error = expectError(res, 409, 'CONFLICT')
    expect(error.message).toBe(SLUG_TAKEN_MESSAGE)
    expect(error.issues).toEqual([{ path: 'slug', message: SLUG_TAKEN_MESSAGE }])
    expect(settingsOf(await get(admin))).toEqual(before)
    // Its own link again is no clash.
    expect(settingsOf(await patch(admin, { slug: before.slug })).slug).toBe(before.slug)
  })

  it('is for admins only: other roles get 403 and change nothing', async () => {
    const before = settingsOf(await get(admin))
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const res = await patch(cookies.get(role), { upiId: 'taken.over@okaxis' })
      expectError(res, 403, 'FORBIDDEN')
    }
    expectError(await patch(undefined, { upiId: 'x@okaxis' }), 401, 'UNAUTHENTICATED')
    expect(settingsOf(await get(admin))).toEqual(before)
  })
})

describe('cross-tenant', () => {
  it('reads and changes only the caller’s own hospital', async () => {
    const a = settingsOf(await get(admin))
    const b = settingsOf(await get(adminB))
    expect(b.name).not.toBe(a.name)
    expect(b).toMatchObject({ stateCode: '29', upiId: 'smiledental@hdfcbank' })
    const auditsA = (await auditRows(hospitalA)).length
    const changed = settingsOf(await patch(adminB, { upiId: 'smile.front@okhdfcbank' }))
    expect(changed.upiId).toBe('smile.front@okhdfcbank')
    expect(settingsOf(await get(admin))).toEqual(a)
    expect((await auditRows(hospitalA)).length).toBe(auditsA)
    expect((await auditRows(hospitalB)).at(-1)?.summary).toBe('Hospital settings saved (upiId)')
  })
})

describe('the GST state list', () => {
  it('uses the official codes, and real GSTINs pass the check character', () => {
    const byCode = new Map<string, string>(gstStates.map((s) => [s.code, s.name]))
    expect(byCode.get('01')).toBe('Jammu and Kashmir')
    expect(byCode.get('27')).toBe('Maharashtra')
    expect(byCode.get('29')).toBe('Karnataka')
    expect(byCode.get('36')).toBe('Telangana')
    expect(byCode.get('37')).toBe('Andhra Pradesh')
    expect(byCode.get('38')).toBe('Ladakh')
    expect(byCode.get('97')).toBe('Other Territory')
    expect(byCode.has('25')).toBe(false)
    expect(byCode.has('28')).toBe(false)
    expect(gstStates).toHaveLength(37)
    for (const g of [GSTIN_27, GSTIN_29]) expect(isValidGstin(g), g).toBe(true)
    expect(isValidGstin('27AAPFU0939F1ZW')).toBe(false)
  })
})
