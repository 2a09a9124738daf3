import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  dataShape,
  generalShape,
  leadManagementShape,
  notificationsShape,
  type Settings,
  securityShape,
} from '../../src/shared/schemas/settings'
import { hostileValue } from '../support/hostile'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 27, Settings' one save model: GET /api/settings (any member) and PUT /api/settings
// (admins), sectioned, strict, partial, audited, over the records that already exist.

let t: TestApp
let admin: string
let adminB: string
let hospitalA: string
let hospitalB: string
const cookies = new Map<DemoRole, string>()

const GSTIN_27 = '27AAPFU0939F1ZV'

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
  t.app.inject({ method: 'GET', url: '/api/settings', headers: cookie ? { cookie } : {} })
const put = (cookie: string | undefined, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: browserHeaders(cookie),
    payload: JSON.stringify(body),
  })

async function settingsOf(cookie: string): Promise<Settings> {
  const res = await get(cookie)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Settings>()
}

async function audits(hospitalId: string) {
  return queryRows<{ summary: string; actor_user_id: string | null }>(
    t.db,
    sql`select summary, actor_user_id from audit_events
        where hospital_id = ${hospitalId} and action = 'settings.saved' order by created_at, id`,
  )
}

/** A 400 naming this path, and nothing stored or audited. */
async function refused(body: unknown, path: string) {
  const before = await settingsOf(admin)
  const count = (await audits(hospitalA)).length
  const res = await put(admin, body)
  expect(issuePaths(res)).toContain(path)
  expect(await settingsOf(admin)).toEqual(before)
  expect((await audits(hospitalA)).length).toBe(count)
  return res.json<{ message: string }>()
}

describe('GET /api/settings', () => {
  it('answers every section with the spec defaults to every member', async () => {
    for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const s = await settingsOf(cookies.get(role)!)
      expect(s.general).toMatchObject({
        timeZone: 'Asia/Kolkata',
        currency: 'INR',
        region: 'India',
      })
      expect(s.leadManagement).toEqual({
        autoAssignLeads: false,
        priorityScoring: true,
        followUpDays: 3,
        maxContactAttempts: 5,
      })
      expect(s.notifications).toMatchObject({
        emailEnabled: true,
        smsEnabled: false,
        pushEnabled: true,
        appointmentReminders: true,
      })
      expect(s.security).toEqual({ requireTwoFactor: false, sessionTimeout: true, sessionHours: 8 })
      expect(s.data).toEqual({ autoBackups: true, backupRetentionDays: 30 })
    }
  })

  it('refuses a signed-out caller with 401', async () => {
    expectError(await get(undefined), 401)
    expectError(await put(undefined, { data: { autoBackups: false } }), 401)
  })
})

describe('PUT /api/settings', () => {
  it('refuses every staff role but admin with 403, changing nothing', async () => {
    const before = await settingsOf(admin)
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      expectError(await put(cookies.get(role), { general: { name: 'Taken Over' } }), 403)
    }
    expect(await settingsOf(admin)).toEqual(before)
  })

  it('saves a partial body: only the keys sent change, and each section persists', async () => {
    const before = await settingsOf(admin)
    const res = await put(admin, {
      general: {
        name: 'Sanjeevani Multispeciality',
        timeZone: 'America/Chicago',
        currency: 'USD',
        region: 'United States',
        address: '12 FC Road, Pune',
        phone: '020 2550 1234',
        email: 'Front.Desk@Sanjeevani.in',
        gstin: GSTIN_27,
        stateCode: '27',
        upiId: 'Sanjeevani@OKAXIS',
      },
      leadManagement: { autoAssignLeads: true, maxContactAttempts: 7 },
      notifications: { smsEnabled: true },
      security: { sessionHours: 6 },
      data: { backupRetentionDays: 90 },
    })
    expect(res.statusCode, res.body).toBe(200)
    const saved = res.json<Settings>()
    expect(saved).toEqual(await settingsOf(admin))
    expect(saved.general).toEqual({
      ...before.general,
      name: 'Sanjeevani Multispeciality',
      timeZone: 'America/Chicago',
      currency: 'USD',
      region: 'United States',
      address: '12 FC Road, Pune',
      phone: '+912025501234',
      email: 'front.desk@sanjeevani.in',
      gstin: GSTIN_27,
      stateCode: '27',
      upiId: 'sanjeevani@okaxis',
    })
    expect(saved.leadManagement).toEqual({
      ...before.leadManagement,
      autoAssignLeads: true,
      maxContactAttempts: 7,
    })
    expect(saved.notifications).toEqual({ ...before.notifications, smsEnabled: true })
    expect(saved.security).toEqual({ ...before.security, sessionHours: 6 })
    expect(saved.data).toEqual({ ...before.data, backupRetentionDays: 90 })

    // One record each: the hospital row, hospital_settings and lead_settings hold the values.
    const [h] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select h.name, h.currency, h.time_zone, s.region, s.session_hours, s.backup_retention_days,
                 l.auto_assign_leads, l.max_contact_attempts
          from hospitals h join hospital_settings s on s.hospital_id = h.id
          join lead_settings l on l.hospital_id = h.id where h.id = ${hospitalA}`,
    )
    expect(h).toEqual({
      name: 'Sanjeevani Multispeciality',
      currency: 'USD',
      time_zone: 'America/Chicago',
      region: 'United States',
      session_hours: 6,
      backup_retention_days: 90,
      auto_assign_leads: true,
      max_contact_attempts: 7,
    })
    // The older route reads the same record.
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/hospital/settings',
      headers: { cookie: admin },
    })
    expect(old.json()).toMatchObject({ name: 'Sanjeevani Multispeciality', gstin: GSTIN_27 })

    // A second partial save leaves everything else as it was.
    const again = await put(admin, { data: { autoBackups: false } })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json<Settings>()).toEqual({
      ...saved,
      data: { ...saved.data, autoBackups: false },
    })
  })

  it('audits each save with the keys that changed and who saved', async () => {
    const [adminId] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from users where email = ${demoEmail('admin')}`,
    )
    const res = await put(admin, {
      security: { sessionHours: 7 },
      data: { autoBackups: true },
    })
    expect(res.statusCode, res.body).toBe(200)
    const last = (await audits(hospitalA)).at(-1)
    expect(last?.actor_user_id).toBe(adminId?.id)
    expect(last?.summary).toContain('security.sessionHours')
    const empty = await put(admin, {})
    expect(empty.statusCode).toBe(200)
    expect((await audits(hospitalA)).at(-1)?.summary).toBe('Settings saved (no changes)')
  })

  it('refuses to require two-factor of every member while the admin has none, changing nothing', async () => {
    const before = (await get(admin)).json<Settings>()
    const res = await put(admin, {
      security: { requireTwoFactor: true },
      data: { backupRetentionDays: 60 },
    })
    expectError(res, 400, 'VALIDATION')
    expect(issuePaths(res)).toEqual(['security.requireTwoFactor'])
    expect((await get(admin)).json<Settings>()).toEqual(before)
  })

  it('refuses unknown keys, in a section and at the top', async () => {
    await refused({ general: { name: 'X Clinic', colour: 'red' } }, 'general')
    await refused({ billing: {} }, '')
    await refused({ security: { sessionHours: 8, requireMfa: true } }, 'security')
  })

  it('refuses a time zone that does not exist, and bad values field by field', async () => {
    await refused({ general: { timeZone: 'Mars/Olympus_Mons' } }, 'general.timeZone')
    await refused({ general: { timeZone: '+05:30' } }, 'general.timeZone')
    await refused({ general: { currency: 'XYZ' } }, 'general.currency')
    await refused({ general: { region: 'Atlantis' } }, 'general.region')
    await refused({ general: { email: 'not-an-email' } }, 'general.email')
    await refused({ general: { phone: '12' } }, 'general.phone')
    await refused({ leadManagement: { followUpDays: 0 } }, 'leadManagement.followUpDays')
    await refused(
      { leadManagement: { maxContactAttempts: 21 } },
      'leadManagement.maxContactAttempts',
    )
    await refused({ leadManagement: { autoAssignLeads: 'yes' } }, 'leadManagement.autoAssignLeads')
    await refused({ security: { sessionHours: 0 } }, 'security.sessionHours')
    // Issue 39: never above the operator's SESSION_HOURS (8 by default), even within 1-72.
    const long = await refused({ security: { sessionHours: 9 } }, 'security.sessionHours')
    expect(long.message).toBe(
      "Session duration can be at most 8 hours on this server (the operator's limit)",
    )
    await refused({ data: { backupRetentionDays: 366 } }, 'data.backupRetentionDays')
    await refused({ notifications: { quietHoursStart: '25:00' } }, 'notifications.quietHoursStart')
    await refused([], '')
  })

  it('refuses a malformed GSTIN or UPI ID', async () => {
    await refused({ general: { gstin: '27AAPFU0939F1ZX' } }, 'general.gstin')
    await refused({ general: { gstin: 'ABCDEFGHIJKLMNO' } }, 'general.gstin')
    await refused({ general: { upiId: 'not a upi id' } }, 'general.upiId')
    // The stored state (27) and a GSTIN of another state (29) do not agree.
    await refused({ general: { gstin: '29AAGCB7383J1Z4' } }, 'general.gstin')
  })

  it('refuses quiet hours that end before they start, checked against the stored ones', async () => {
    await refused({ notifications: { quietHoursEnd: '09:00' } }, 'notifications.quietHoursEnd')
  })

  it('answers a booking link taken by another hospital with 409', async () => {
    const other = await settingsOf(adminB)
    expectError(await put(admin, { general: { slug: other.general.slug } }), 409, 'CONFLICT')
  })

  it('keeps hospitals apart: a save changes only the caller’s hospital', async () => {
    const before = await settingsOf(adminB)
    const res = await put(admin, {
      general: { region: 'Singapore' },
      data: { backupRetentionDays: 45 },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(await settingsOf(adminB)).toEqual(before)
    const rows = await queryRows(
      t.db,
      sql`select 1 from hospital_settings where hospital_id = ${hospitalB}`,
    )
    expect(rows).toEqual([])
  })
})

describe('PUT /api/settings under hostile bodies', () => {
  const sections = {
    general: Object.keys(generalShape),
    leadManagement: Object.keys(leadManagementShape),
    notifications: Object.keys(notificationsShape),
    security: Object.keys(securityShape),
    data: Object.keys(dataShape),
  }
  /** A section with its real keys (and now and then an unknown one), each holding anything. */
  const sectioned = fc.dictionary(
    fc.constantFrom(...Object.keys(sections), '__proto__', 'general '),
    fc.oneof(
      fc.dictionary(
        fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...Object.values(sections).flat()) },
          fc.string({ maxLength: 12 }),
        ),
        hostileValue,
        { maxKeys: 4 },
      ),
      hostileValue,
    ),
    { maxKeys: 3 },
  )

  it('never answers 5xx, and a refused body changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(sectioned, async (body) => {
        const before = JSON.stringify(await settingsOf(admin))
        const res = await put(admin, body)
        expect(res.statusCode, res.body).toBeLessThan(500)
        if (res.statusCode !== 200) {
          expect(res.statusCode).toBe(400)
          expect(JSON.stringify(await settingsOf(admin))).toBe(before)
        }
      }),
      { numRuns: 40 },
    )
    // Whatever was accepted still reads back as valid settings.
    const after = await settingsOf(admin)
    expect(after.security.sessionHours).toBeGreaterThanOrEqual(1)
    expect(after.data.backupRetentionDays).toBeGreaterThanOrEqual(1)
  })
})
