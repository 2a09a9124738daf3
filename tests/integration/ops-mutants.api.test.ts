import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared/schemas/settings'
import { expectError } from '../support/http'
import { newLead } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  TEST_PASSWORD,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-ops mutation part (stryker/groups.mjs, docs/decisions/024): the exact answers,
// audit rows and stored state of calls, daily summaries, own sessions, settings and Delete All
// Data, where the module's own API tests check less. Backups: ops-mutants-backups.api.test.ts;
// support access: ops-mutants-support.api.test.ts.

let t: TestApp
let admin: string
let adminB: string
let doctor: string
let receptionist: string
let a: string
let b: string
let doctorId: string
let receptionistId: string

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
function req(cookie: string, method: Method, url: string, body?: unknown) {
  if (method === 'GET') return t.app.inject({ method, url, headers: { cookie } })
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}
const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(t.db, query))[0]
const hospitalName = async (id: string) =>
  (await one<{ name: string }>(sql`select name from hospitals where id = ${id}`))?.name ?? ''

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  doctor = await login(t.app, demoEmail('doctor'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
  doctorId = await userIdOf(t.db, demoEmail('doctor'))
  receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
}, 180_000)
afterAll(async () => {
  await t?.close()
})

describe('daily summary', () => {
  // 10 March 2025 in Asia/Kolkata is [2025-03-09T18:30Z, 2025-03-10T18:30Z).
  const DAY = '2025-03-10'
  // A call's start (issue 41: the summary counts the call rows, the leads from the activities).
  const add = async (userId: string, at: string, leadId: string | null) => {
    await t.db
      .execute(sql`insert into activities (hospital_id, user_id, activity_type, data, occurred_at)
      values (${a}, ${userId}, 'call_start', ${JSON.stringify(leadId ? { leadId } : {})}::jsonb, ${at})`)
    await t.db.execute(sql`insert into calls (hospital_id, user_id, provider, customer_phone,
        status, outcome, duration_seconds, started_at, created_at, ended_at)
      values (${a}, ${userId}, 'sandbox', '+919800054321', 'completed', 'answered', 60, ${at},
        ${at}, ${at})`)
  }

  it('counts the day from its first instant up to the next day, best score first, then by name', async () => {
    const lead = '11111111-1111-4111-8111-111111111111'
    await add(doctorId, '2025-03-09T18:29:59.999Z', lead)
    await add(doctorId, '2025-03-09T18:30:00.000Z', lead)
    await add(doctorId, '2025-03-09T18:40:00.000Z', null)
    await add(doctorId, '2025-03-10T18:30:00.000Z', lead)
    const nurseId = await userIdOf(t.db, demoEmail('nurse'))
    await t.db.execute(sql`update users set is_active = false where id = ${nurseId}`)
    try {
      const res = await req(admin, 'GET', `/api/live-monitoring/daily-summary?date=${DAY}`)
      expect(res.statusCode, res.body).toBe(200)
      const { summaries } = res.json<{
        summaries: { id: string; userId: string; userName: string; performanceScore: number }[]
      }>()
      expect(summaries[0]).toMatchObject({
        id: `${DAY}:${doctorId}`,
        userId: doctorId,
        role: 'doctor',
        callsMade: 2,
        leadsContacted: 1,
        workingHours: 10,
      })
      const rest = summaries.slice(1)
      expect(rest.length).toBeGreaterThan(2)
      expect(rest.every((s) => s.performanceScore === 0)).toBe(true)
      expect(summaries[0]!.performanceScore).toBeGreaterThan(0)
      const names = rest.map((s) => s.userName)
      expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)))
      // An inactive member is not listed, but may be asked for by id.
      expect(summaries.map((s) => s.userId)).not.toContain(nurseId)
      const asked = await req(
        admin,
        'GET',
        `/api/live-monitoring/daily-summary?date=${DAY}&userId=${nurseId}`,
      )
      expect(asked.json<{ summaries: { id: string }[] }>().summaries.map((s) => s.id)).toEqual([
        `${DAY}:${nurseId}`,
      ])
    } finally {
      await t.db.execute(sql`update users set is_active = true where id = ${nurseId}`)
    }
  })

  it('answers another hospital’s user and a colleague of a non-admin in exact words', async () => {
    const doctorB = await userIdOf(t.db, demoEmail('doctor', 'smiledental'))
    const foreign = await req(admin, 'GET', `/api/live-monitoring/daily-summary?userId=${doctorB}`)
    expect(expectError(foreign, 404, 'NOT_FOUND').message).toBe('User not found')
    const colleague = await req(
      doctor,
      'GET',
      `/api/live-monitoring/daily-summary?userId=${receptionistId}`,
    )
    expect(expectError(colleague, 403, 'FORBIDDEN').message).toBe(
      'You may see only your own performance',
    )
  })
})

describe('own sessions (revokeOwnSession)', () => {
  it('answers another user’s session with "Session not found" and keeps it', async () => {
    const [victim] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from sessions where user_id = ${doctorId} limit 1`,
    )
    const res = await req(receptionist, 'DELETE', `/api/me/sessions/${victim?.id}`)
    expect(expectError(res, 404, 'NOT_FOUND').message).toBe('Session not found')
    expect(
      await queryRows(t.db, sql`select 1 from sessions where id = ${victim?.id}`),
    ).toHaveLength(1)
  })
})

describe('settings', () => {
  const settingsOf = async (cookie: string) =>
    (await req(cookie, 'GET', '/api/settings')).json<Settings>()
  const profile = (id: string) =>
    one<Record<string, unknown>>(
      sql`select currency, address, phone, email from hospitals where id = ${id}`,
    )
  const lastAudit = (id: string) =>
    one<
      Record<string, unknown>
    >(sql`select action, entity_type, entity_id, summary from audit_events
      where hospital_id = ${id} and action = 'settings.saved' order by created_at desc, id desc limit 1`)

  it('reads and writes each hospital’s own profile only', async () => {
    const beforeB = await settingsOf(adminB)
    for (const [cookie, id] of [
      [admin, a],
      [adminB, b],
    ] as const) {
      const { currency, address, phone, email } = (await settingsOf(cookie)).general
      expect({ currency, address, phone, email }).toEqual(await profile(id))
    }
    const res = await req(admin, 'PUT', '/api/settings', {
      general: { address: '1 MG Road, Pune', phone: '020 2550 9999', email: 'desk@sanjeevani.in' },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(await profile(a)).toEqual({
      currency: 'INR',
      address: '1 MG Road, Pune',
      phone: '+912025509999',
      email: 'desk@sanjeevani.in',
    })
    expect(await settingsOf(adminB)).toEqual(beforeB)
  })

  it('audits every changed key of every section, in order, and nothing more', async () => {
    const before = await settingsOf(admin)
    const res = await req(admin, 'PUT', '/api/settings', {
      general: { name: 'Sanjeevani Care', phone: '020 2550 8888', region: 'Singapore' },
      security: { sessionHours: before.security.sessionHours - 1 },
      data: { autoBackups: !before.data.autoBackups },
      leadManagement: { followUpDays: before.leadManagement.followUpDays + 1 },
      notifications: { emailEnabled: !before.notifications.emailEnabled },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<Settings>()).toEqual(await settingsOf(admin))
    expect(await lastAudit(a)).toEqual({
      action: 'settings.saved',
      entity_type: 'hospital_settings',
      entity_id: a,
      summary:
        'Settings saved (general.name, general.phone, general.region, security.sessionHours, ' +
        'data.autoBackups, leadManagement.followUpDays, notifications.emailEnabled)',
    })
    const stamp = sql`select updated_at::text as at from hospital_settings where hospital_id = ${a}`
    const at = await one(stamp)
    expect(
      (await req(admin, 'PUT', '/api/settings', { leadManagement: { followUpDays: 2 } }))
        .statusCode,
    ).toBe(200)
    expect(await one(stamp)).toEqual(at)
    expect(
      (await req(admin, 'PUT', '/api/settings', { security: { sessionHours: 5 } })).statusCode,
    ).toBe(200)
    expect((await lastAudit(a))?.summary).toBe('Settings saved (security.sessionHours)')
  })

  it('re-marks leads over a new contact maximum', async () => {
    const lead = await newLead(t.app, admin)
    const flag = sql`select contact_limit_exceeded as f from leads where id = ${lead.id}`
    await t.db.execute(sql`update leads set contact_attempts = 4 where id = ${lead.id}`)
    await req(admin, 'PUT', '/api/settings', { leadManagement: { maxContactAttempts: 3 } })
    expect(await one(flag)).toEqual({ f: true })
    await req(admin, 'PUT', '/api/settings', { leadManagement: { maxContactAttempts: 5 } })
    expect(await one(flag)).toEqual({ f: false })
  })

  it('creates a missing settings row from the defaults plus the values sent', async () => {
    expect(
      await queryRows(t.db, sql`select 1 from hospital_settings where hospital_id = ${b}`),
    ).toEqual([])
    const res = await req(adminB, 'PUT', '/api/settings', { security: { sessionHours: 6 } })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<Settings>().security).toEqual({
      requireTwoFactor: false,
      sessionTimeout: true,
      sessionHours: 6,
    })
    expect(
      await one(sql`select session_hours, backup_retention_days from hospital_settings
      where hospital_id = ${b}`),
    ).toEqual({ session_hours: 6, backup_retention_days: 30 })
  })

  it('lets an admin with two-factor require it of everyone', async () => {
    const adminBId = await userIdOf(t.db, demoEmail('admin', 'smiledental'))
    await t.db.execute(sql`update users set two_factor_enabled = true where id = ${adminBId}`)
    try {
      const res = await req(adminB, 'PUT', '/api/settings', {
        security: { requireTwoFactor: true },
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json<Settings>().security.requireTwoFactor).toBe(true)
    } finally {
      await t.db.execute(
        sql`update hospital_settings set require_two_factor = false where hospital_id = ${b}`,
      )
      await t.db.execute(sql`update users set two_factor_enabled = false where id = ${adminBId}`)
    }
  })
})

describe('Delete All Data (last: it empties Smile Dental)', () => {
  const erase = (body: unknown) => req(adminB, 'POST', '/api/data/delete-all', body)
  const erased = () => sql`select action, entity_type, entity_id, summary from platform_audit_events
    where hospital_id = ${b} and action = 'hospital.data_erased' order by created_at, id`

  it('refuses a wrong name and password in exact words, then audits the counts exactly', async () => {
    const name = await hospitalName(b)
    const wrongName = await erase({ confirmName: `${name} Clinic`, password: TEST_PASSWORD })
    expect(expectError(wrongName, 400, 'VALIDATION').message).toBe(
      'Invalid input: confirmName: Type the hospital’s name exactly as shown to confirm',
    )
    const wrongPassword = expectError(
      await erase({ confirmName: name, password: 'nope-nope-nope' }),
      403,
    )
    expect(wrongPassword.issues).toEqual([
      { path: 'password', message: 'The password is not correct' },
    ])
    const res = await erase({ confirmName: name, password: TEST_PASSWORD })
    expect(res.statusCode, res.body).toBe(200)
    const { counts, total } = res.json<{ counts: Record<string, number>; total: number }>()
    const listed = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([table, n]) => `${table} ${n}`)
    expect(listed.length).toBeGreaterThan(3)
    expect(Object.values(counts)).toContain(0)
    expect(await queryRows(t.db, erased())).toEqual([
      {
        action: 'hospital.data_erased',
        entity_type: 'hospital',
        entity_id: b,
        summary: `Deleted all data of ${name}: ${total} rows (${listed.join(', ')}) and 0 stored files`,
      },
    ])
    const again = await erase({ confirmName: name, password: TEST_PASSWORD })
    expect(again.statusCode, again.body).toBe(200)
    expect((await queryRows<{ summary: string }>(t.db, erased())).at(-1)?.summary).toBe(
      `Deleted all data of ${name}: 0 rows (none) and 0 stored files`,
    )
  })
})
