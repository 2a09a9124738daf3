import { type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  getPreferences,
  savePreferences,
} from '../../src/server/modules/preferences/preferences.service'
import { getCurrentUser } from '../../src/server/modules/session/session.service'
import type {
  HospitalDetail,
  OnboardingTask,
  OnboardingTaskList,
} from '../../src/shared/schemas/platform'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { adminCall, newHospital } from '../support/platform'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 30, mutation testing: the services-platform group's tests for onboarding
// (platform/onboarding.service.ts), hospitals (the trial-end summary), preferences, the
// session (session/session.service.ts) and the trial sign-up (session/trial.service.ts).
//
// Equivalent mutants (no caller can observe them), not tested:
// - onboarding 86:46 `total?.n` => `total.n`: count() always answers one row.
// - onboarding 102:22 `{ of: onboardingTasks }` => `{}`: FOR UPDATE then locks the joined
//   hospital row too, inside one short transaction; no answer or row changes.
// - onboarding 125:7 `!row` => false and 125:28 'Onboarding task': the task was just read and
//   updated; nothing deletes onboarding tasks (or hospitals), so the re-read always finds it.
// - trial 87:39 `{ id: user.id }` => `{}` and 88:11 `taken` => false: the address is taken
//   either way; without the pre-check the users insert hits users_email_unique, the
//   transaction rolls back and the catch answers 'exists' all the same.
// - trial 101:11 `!hospital` => false and 101:38 its message: INSERT … RETURNING always
//   returns the inserted row.
// - trial 116:11 => true, 116:26 `.trim()` removed and 116:26 `` literal: they only add an
//   update that writes the name insertCredentialUser already stored (users has no
//   updated_at trigger, no trigger on users updates).
// - trial 127:12 'created' => '': startTrial only compares the result with 'exists'.

let t: TestApp
let sa: string
let saId: string

beforeAll(async () => {
  t = await createTestApp()
  sa = await loginSuperAdmin(t.app)
  saId = await userIdOf(t.db, SUPER_ADMIN_EMAIL)
})
afterAll(async () => {
  await t?.close()
})

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  adminCall(t.app, sa, method, url, body)

async function createHospital(tag: string): Promise<HospitalDetail> {
  const res = await call('POST', '/api/admin/hospitals', newHospital(tag))
  expect(res.statusCode, res.body).toBe(201)
  return res.json<HospitalDetail>()
}

/** The audit rows of an entity: platform_audit_events, or audit_events with an action. */
const audits = (table: 'platform_audit_events' | 'audit_events', entityId: string, action = '') =>
  queryRows(
    t.db,
    sql`select hospital_id, actor_user_id, action, entity_type, entity_id, summary
        from ${sql.raw(table)} where entity_id = ${entityId} and (${action} = '' or action = ${action})
        order by created_at, id`,
  )

/** The first column of every row a query answers. */
const values = async (query: SQL) =>
  (await queryRows<Record<string, unknown>>(t.db, query)).map((r) => Object.values(r)[0])

/** A test-only BEFORE INSERT trigger on a table running a plpgsql body (dropped by the test). */
async function beforeInsert(name: string, table: string, body: string): Promise<void> {
  await t.db.execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin ${body} return new; end $$`),
  )
  await t.db.execute(
    sql.raw(
      `create trigger ${name} before insert on ${table} for each row execute function ${name}()`,
    ),
  )
}

describe('onboarding tasks', () => {
  it('lists every hospital’s tasks with the exact total, filters completed ones, completes one audited', async () => {
    const h1 = await createHospital('mut-s1')
    const h2 = await createHospital('mut-s2')
    const list = async (query: string) => {
      const res = await call('GET', `/api/admin/onboarding-tasks?${query}`)
      expect(res.statusCode, res.body).toBe(200)
      return res.json<OnboardingTaskList>()
    }
    const pending = (await list(`hospitalId=${h1.id}&status=all`)).items
    const meta = pending.find((x) => x.kind === 'connect_meta') as OnboardingTask
    const res = await call('PATCH', `/api/admin/onboarding-tasks/${meta.id}/complete`)
    expect(res.statusCode, res.body).toBe(200)
    const completed = res.json<OnboardingTask>()
    expect(completed).toEqual({
      id: meta.id,
      hospitalId: h1.id,
      hospitalName: h1.name,
      kind: 'connect_meta',
      taskName: 'Connect the Meta page',
      description: meta.description,
      priority: 'high',
      isCompleted: true,
      completedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      completedHow: 'manual',
    })
    const row = (action: string) => ({
      hospital_id: h1.id,
      actor_user_id: saId,
      action,
      entity_type: 'onboarding_task',
      entity_id: meta.id,
      summary: `${h1.name}: marked 'Connect the Meta page' as completed`,
    })
    expect(await audits('platform_audit_events', meta.id)).toEqual([row('onboarding.completed')])
    expect(await audits('audit_events', meta.id)).toEqual([row('platform.onboarding.completed')])

    // Completed only: the one task, total 1 (not h1's six).
    expect(await list(`hospitalId=${h1.id}&status=completed`)).toEqual({
      items: [completed],
      total: 1,
    })
    expect(await list(`hospitalId=${h2.id}&status=completed`)).toEqual({ items: [], total: 0 })
    // No hospital filter: every hospital's tasks, and the exact total.
    const [counts] = await queryRows<{ all: number; done: number }>(
      t.db,
      sql`select count(*)::int as all, count(completed_at)::int as done from onboarding_tasks`,
    )
    const everyone = await list('status=all&limit=100')
    expect(everyone.total).toBe(counts?.all)
    expect(everyone.total).toBeGreaterThan(12)
    const ids = new Set(everyone.items.map((x) => x.hospitalId))
    expect(ids.has(h1.id) && ids.has(h2.id)).toBe(true)
    expect((await list('status=completed&limit=1')).total).toBe(counts?.done)

    const missing = expectError(
      await call(
        'PATCH',
        '/api/admin/onboarding-tasks/00000000-0000-4000-8000-000000000000/complete',
      ),
      404,
      'NOT_FOUND',
    )
    expect(missing).toEqual({ code: 'NOT_FOUND', message: 'Onboarding task not found' })
  })
})

describe('hospitals: the trial end in the audit summary', () => {
  it('says none for a hospital without a trial end, both ways', async () => {
    const h = await createHospital('mut-s3')
    const end = h.trialEndsAt?.slice(0, 10) ?? 'none'
    const unset = await call('PATCH', `/api/admin/hospitals/${h.id}`, { trialEndsAt: null })
    expect(unset.statusCode, unset.body).toBe(200)
    expect(unset.json<HospitalDetail>().trialEndsAt).toBeNull()
    const set = await call('PATCH', `/api/admin/hospitals/${h.id}`, { trialEndsAt: '2027-01-31' })
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json<HospitalDetail>().trialEndsAt).toMatch(/^2027-01-31/)
    const rows = await queryRows<{ action: string; summary: string }>(
      t.db,
      sql`select action, summary from platform_audit_events
          where hospital_id = ${h.id} and action = 'hospital.updated' order by created_at, id`,
    )
    expect(rows).toEqual([
      { action: 'hospital.updated', summary: `${h.name}: trial end ${end} → none` },
      { action: 'hospital.updated', summary: `${h.name}: trial end none → 2027-01-31` },
    ])
  })
})

describe('preferences', () => {
  const URL = '/api/me/preferences'

  it('answers 404 User not found for an account that no longer exists', async () => {
    const opts = { db: t.db, userId: 'no-such-user', hospitalId: null }
    await expect(getPreferences(opts)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'User not found',
    })
    await expect(
      savePreferences({ ...opts, values: { theme: 'dark', primaryColor: 'blue', compact: true } }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'User not found' })
  })

  it('audits every change in the user’s hospital, written as the tenant, and stores nothing when nothing changes', async () => {
    // The audit row must be written as app_user with the hospital set, like every tenant write.
    await beforeInsert(
      'test_audit_as_tenant',
      'audit_events',
      `if new.action = 'user.preferences_saved' and (current_user <> 'app_user' or
          current_setting('app.hospital_id', true) is distinct from new.hospital_id::text) then
        raise exception 'audit written outside its tenant';
      end if;`,
    )
    const email = demoEmail('doctor', 'smiledental')
    const id = await userIdOf(t.db, email)
    const hospitalId = await hospitalIdOf(t.db, 'smiledental')
    const cookie = await login(t.app, email)
    const put = (body: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: URL,
        headers: browserHeaders(cookie),
        payload: body as object,
      })
    const stored = async () =>
      (await values(sql`select preferences from users where id = ${id}`))[0]

    // Saving the defaults a user never chose changes nothing: the row stays as it was.
    const defaults = { theme: 'light', primaryColor: 'teal', compact: false }
    const same = await put(defaults)
    expect(same.statusCode, same.body).toBe(200)
    expect(same.json()).toEqual(defaults)
    expect(await stored()).toEqual({})

    const two = { theme: 'dark', primaryColor: 'blue', compact: false }
    const saved = await put(two)
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toEqual(two)
    expect(await stored()).toEqual(two)
    const read = await t.app.inject({ method: 'GET', url: URL, headers: { cookie } })
    expect(read.json()).toEqual(two)
    const row = (summary: string) => ({
      hospital_id: hospitalId,
      actor_user_id: id,
      action: 'user.preferences_saved',
      entity_type: 'user',
      entity_id: id,
      summary,
    })
    expect(await audits('audit_events', id, 'user.preferences_saved')).toEqual([
      row('Appearance saved (no changes)'),
      row('Appearance saved (theme: dark, primaryColor: blue)'),
    ])
    await t.db.execute(sql.raw('drop trigger test_audit_as_tenant on audit_events'))
  })
})

describe('the session: GET /api/auth/user and getCurrentUser', () => {
  it('answers the super admin, without a hospital, in Asia/Kolkata', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie: sa },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      id: saId,
      email: SUPER_ADMIN_EMAIL,
      role: 'super_admin',
      isSuperAdmin: true,
      status: 'active',
      hospitalId: null,
      hospitalName: null,
      plan: null,
      timeZone: 'Asia/Kolkata',
    })
  })

  it('is null for an unknown user', async () => {
    expect(await getCurrentUser(t.db, 'no-such-user')).toBeNull()
  })

  it('calls a super_admin role a super admin without the flag; a banned user suspended; the hospital’s own time zone', async () => {
    await t.db.execute(
      sql`insert into users (id, name, email, role, hospital_id, is_super_admin, first_name, last_name, username)
          values ('sa-by-role', 'Anita Rao', 'anita.rao@arogya.test', 'super_admin', null, false, 'Anita', 'Rao', 'anita.rao')`,
    )
    const byRole = await getCurrentUser(t.db, 'sa-by-role')
    expect(byRole).toEqual({
      id: 'sa-by-role',
      firstName: 'Anita',
      lastName: 'Rao',
      username: 'anita.rao',
      email: 'anita.rao@arogya.test',
      role: 'super_admin',
      isActive: true,
      status: 'active',
      plan: null,
      profileImageUrl: null,
      isSuperAdmin: true,
      twoFactorEnabled: false,
      createdAt: byRole?.createdAt,
      hospitalId: null,
      hospitalName: null,
      timeZone: 'Asia/Kolkata',
    })

    const email = demoEmail('nurse', 'smiledental')
    const id = await userIdOf(t.db, email)
    const hospitalId = await hospitalIdOf(t.db, 'smiledental')
    await t.db.execute(sql`update hospitals set time_zone = 'Asia/Dubai' where id = ${hospitalId}`)
    await t.db.execute(sql`update users set banned = true where id = ${id}`)
    expect(await getCurrentUser(t.db, id)).toMatchObject({
      id,
      email,
      role: 'nurse',
      status: 'suspended',
      isSuperAdmin: false,
      hospitalId,
      timeZone: 'Asia/Dubai',
    })
  })
})

describe('POST /api/auth/trial', () => {
  const trial = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/auth/trial', headers: browserHeaders(), payload })
  const base = { password: 'trial-password-2026', phone: '098765 43210' }
  const counts = () =>
    values(sql`select (select count(*) from hospitals) || '/' || (select count(*) from users)`)
  const requested = (email: string) =>
    values(sql`select details from security_events where event = 'trial.requested'
               and email = ${email} order by created_at, id`)
  const mails = (email: string) =>
    values(
      sql`select purpose from email_outbox where to_address = ${email} order by created_at, id`,
    )

  it('keeps a title in the full name, creates the starter hospital with its patient counter', async () => {
    const email = 'meera@kulkarni-clinic.example'
    const res = await trial({
      ...base,
      hospitalName: 'Kulkarni Eye Care, Pune',
      name: 'Dr. Meera Kulkarni',
      email,
    })
    expect(res.statusCode, res.body).toBe(202)
    const [u] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select name, first_name, last_name, role, email_verified, hospital_id
          from users where email = ${email}`,
    )
    expect(u).toEqual({
      name: 'Dr. Meera Kulkarni',
      first_name: 'Meera',
      last_name: 'Kulkarni',
      role: 'admin',
      email_verified: false,
      hospital_id: expect.any(String),
    })
    const [h] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select name, email, phone, subscription_status, plan, max_users, max_patients
          from hospitals where id = ${u?.hospital_id}`,
    )
    expect(h).toEqual({
      name: 'Kulkarni Eye Care, Pune',
      email,
      phone: '+919876543210',
      subscription_status: 'trial',
      plan: 'starter',
      max_users: 5,
      max_patients: 500,
    })
    const counters = await queryRows(
      t.db,
      sql`select prefix, next_value from patient_number_counters where hospital_id = ${u?.hospital_id}`,
    )
    expect(counters).toEqual([{ prefix: 'KEC', next_value: 1 }])
    expect(await requested(email)).toEqual([{ existingAccount: false }])
    expect(await mails(email)).toEqual(['verify-email'])
  })

  it('stores a plain or a one-word name as given (name|first|last)', async () => {
    for (const [name, email, stored] of [
      ['Kavya Menon', 'kavya@menon.example', 'Kavya Menon|Kavya|Menon'],
      ['Kavya', 'kavya.k@menon.example', 'Kavya|Kavya|'],
    ] as const) {
      const res = await trial({ ...base, hospitalName: 'Menon Clinic', name, email })
      expect(res.statusCode, res.body).toBe(202)
      const row = sql`select concat_ws('|', name, first_name, last_name) from users where email = ${email}`
      expect(await values(row)).toEqual([stored])
    }
  })

  it('answers a sign-up that loses the race for its address like an existing account', async () => {
    // The concurrent sign-up's row, simulated: the users insert meets a unique violation.
    await beforeInsert(
      'test_trial_clash',
      'users',
      `if new.email = 'race@clinic.example' then
        raise exception 'duplicate key' using errcode = 'unique_violation';
      end if;
      if new.email = 'broken@clinic.example' then raise exception 'disk on fire'; end if;`,
    )
    const before = await counts()
    const clinic = { ...base, hospitalName: 'Race Clinic', name: 'Ravi Shah' }
    const race = await trial({ ...clinic, email: 'race@clinic.example' })
    expect(race.statusCode, race.body).toBe(202)
    expect(await counts()).toEqual(before)
    expect(await requested('race@clinic.example')).toEqual([{ existingAccount: true }])
    expect(await mails('race@clinic.example')).toEqual(['trial-existing-account'])

    // Any other failure is not mistaken for a taken address.
    const broken = await trial({ ...clinic, email: 'broken@clinic.example' })
    expectError(broken, 500, 'INTERNAL')
    expect(await counts()).toEqual(before)
    expect(await mails('broken@clinic.example')).toEqual([])
    await t.db.execute(sql.raw('drop trigger test_trial_clash on users'))
  })
})
