import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import type {
  HospitalDetail,
  OnboardingTaskList,
  PlatformActivityList,
  PlatformUser,
  PlatformUserList,
} from '../../src/shared/schemas/platform'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, login, signIn } from '../support/login'
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

// Issue 27: onboarding tasks (generated per hospital, completed by the hospital's own writes
// under RLS, or by Mark Complete), users (role, active state, sessions ended) and the
// platform audit trail.

let t: TestApp
let sa: string
let fresh: HospitalDetail
let other: HospitalDetail

beforeAll(async () => {
  t = await createTestApp()
  sa = await loginSuperAdmin(t.app)
  fresh = (await adminCall(t.app, sa, 'POST', '/api/admin/hospitals', newHospital('o1'))).json()
  other = (await adminCall(t.app, sa, 'POST', '/api/admin/hospitals', newHospital('o2'))).json()
})
afterAll(async () => {
  await t?.close()
})

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  adminCall(t.app, sa, method, url, body)

async function tasksOf(hospitalId: string) {
  const res = await call('GET', `/api/admin/onboarding-tasks?hospitalId=${hospitalId}&status=all`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<OnboardingTaskList>().items
}

const done = async (hospitalId: string) =>
  (await tasksOf(hospitalId)).filter((x) => x.isCompleted).map((x) => `${x.kind}:${x.completedHow}`)

describe('onboarding tasks', () => {
  it('gives a new hospital the six tasks with priorities, all pending', async () => {
    const tasks = await tasksOf(fresh.id)
    expect(tasks.map((x) => [x.kind, x.priority, x.isCompleted])).toEqual([
      ['connect_meta', 'high', false],
      ['setup_messaging', 'high', false],
      ['import_patients', 'medium', false],
      ['add_team', 'medium', false],
      ['create_services', 'medium', false],
      ['first_appointment', 'low', false],
    ])
    expect(tasks[0]).toMatchObject({ taskName: 'Connect the Meta page', hospitalName: fresh.name })
  })

  it('completes a task when the hospital does the thing, in its own transaction under RLS, and no other hospital’s', async () => {
    await withTenant(t.db, { hospitalId: fresh.id, userId: null }, async (tx) => {
      await tx.execute(
        sql`insert into patients (hospital_id, name, phone) values (${fresh.id}, 'Kavita Deshmukh', '+919822012345')`,
      )
      await tx.execute(
        sql`insert into services (hospital_id, name, default_price) values (${fresh.id}, 'General consultation', 50000)`,
      )
      await tx.execute(sql`insert into messaging_connections (hospital_id) values (${fresh.id})`)
    })
    // The sandbox is not a real provider yet; switching SMS to Twilio is.
    expect(await done(fresh.id)).toEqual(['import_patients:auto', 'create_services:auto'])
    await withTenant(t.db, { hospitalId: fresh.id, userId: null }, (tx) =>
      tx.execute(
        sql`update messaging_connections set sms_provider = 'twilio' where hospital_id = ${fresh.id}`,
      ),
    )
    expect(await done(fresh.id)).toEqual([
      'setup_messaging:auto',
      'import_patients:auto',
      'create_services:auto',
    ])
    expect(await done(other.id)).toEqual([])
    // app_user cannot touch another hospital's tasks, nor insert any.
    const touched = await withTenant(t.db, { hospitalId: fresh.id, userId: null }, (tx) =>
      tx.execute(
        sql`update onboarding_tasks set completed_by = 'auto', completed_at = now() where hospital_id = ${other.id} returning id`,
      ),
    )
    expect((touched as unknown as { rows: unknown[] }).rows).toEqual([])
    await expect(
      withTenant(t.db, { hospitalId: fresh.id, userId: null }, (tx) =>
        tx.execute(
          sql`insert into onboarding_tasks (hospital_id, kind, task_name, description, priority, sort_order) values (${fresh.id}, 'connect_meta', 'x', 'x', 'low', 9)`,
        ),
      ),
    ).rejects.toThrow()
  })

  it('completes Add team members when a second active member joins', async () => {
    await t.db.execute(
      sql`insert into users (id, name, email, role, hospital_id) values ('o1-admin', 'Meera Joshi', 'meera@o1.test', 'admin', ${fresh.id})`,
    )
    expect(await done(fresh.id)).not.toContain('add_team:auto')
    await t.db.execute(
      sql`insert into users (id, name, email, role, hospital_id) values ('o1-doctor', 'Dr. Arjun Nair', 'arjun@o1.test', 'doctor', ${fresh.id})`,
    )
    expect(await done(fresh.id)).toContain('add_team:auto')
  })

  it('marks a task complete once (409 the second time), audited; 404 for an unknown id', async () => {
    const [meta] = (await tasksOf(other.id)).filter((x) => x.kind === 'connect_meta')
    const url = `/api/admin/onboarding-tasks/${meta?.id}/complete`
    const res = await call('PATCH', url)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ id: meta?.id, isCompleted: true, completedHow: 'manual' })
    expectError(await call('PATCH', url), 409, 'CONFLICT')
    expectError(await call('PATCH', url, { isCompleted: true }), 400, 'VALIDATION')
    expectError(
      await call(
        'PATCH',
        '/api/admin/onboarding-tasks/00000000-0000-4000-8000-000000000000/complete',
      ),
      404,
    )
    expectError(await call('PATCH', '/api/admin/onboarding-tasks/nope/complete'), 400)
    const acts = (
      await call('GET', `/api/admin/activities?hospitalId=${other.id}&action=onboarding.completed`)
    ).json<PlatformActivityList>()
    expect(acts.items.map((a) => a.description)).toEqual([
      `${other.name}: marked 'Connect the Meta page' as completed`,
    ])
    const pending = (
      await call('GET', '/api/admin/onboarding-tasks?status=pending&limit=100')
    ).json<OnboardingTaskList>()
    expect(pending.items.every((x) => !x.isCompleted)).toBe(true)
    expectError(await call('GET', '/api/admin/onboarding-tasks?status=later'), 400)
  })

  it('gave the seeded demo hospitals tasks done by their own data', async () => {
    const sanjeevani = await done(await hospitalIdOf(t.db, 'sanjeevani'))
    expect(sanjeevani).toEqual(
      expect.arrayContaining([
        'import_patients:auto',
        'add_team:auto',
        'create_services:auto',
        'first_appointment:auto',
      ]),
    )
  })
})

describe('users', () => {
  it('lists every account with its role, active state and hospital', async () => {
    const res = await call('GET', '/api/admin/users?limit=100')
    expect(res.statusCode).toBe(200)
    const list = res.json<PlatformUserList>()
    const nurse = list.items.find((u) => u.email === demoEmail('nurse'))
    expect(nurse).toMatchObject({
      role: 'nurse',
      isActive: true,
      status: 'active',
      hospitalName: expect.stringMatching(/Sanjeevani/),
    })
    expect(list.items.find((u) => u.email === SUPER_ADMIN_EMAIL)).toMatchObject({
      role: 'super_admin',
      hospitalId: null,
    })
    const byHospital = (
      await call('GET', `/api/admin/users?hospitalId=${await hospitalIdOf(t.db, 'smiledental')}`)
    ).json<PlatformUserList>()
    expect(byHospital.items.map((u) => u.email).sort()).toEqual(
      ['admin', 'doctor', 'meera.iyengar', 'nurse', 'receptionist', 'viewer']
        .map((r) => `${r}@smiledental.demo`)
        .sort(),
    )
    expect(
      (await call('GET', '/api/admin/users?q=pooja'))
        .json<PlatformUserList>()
        .items.every((u) => /pooja/i.test(u.name)),
    ).toBe(true)
  })

  it('changes a role and deactivates a user, ending their sessions at once; activates them again', async () => {
    const email = demoEmail('receptionist', 'smiledental')
    const id = await userIdOf(t.db, email)
    const cookie = await login(t.app, email)
    const res = await call('PATCH', `/api/admin/users/${id}`, { role: 'nurse' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<PlatformUser>()).toMatchObject({ role: 'nurse', isActive: true })
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: browserHeaders(cookie),
    })
    expect(me.json()).toMatchObject({ role: 'nurse' })

    expect(
      (await call('PATCH', `/api/admin/users/${id}`, { isActive: false })).json(),
    ).toMatchObject({ isActive: false })
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: browserHeaders(cookie),
    })
    expect(after.statusCode).toBe(401)
    const [sessions] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from sessions where user_id = ${id}`,
    )
    expect(sessions?.n).toBe(0)
    expect((await signIn(t.app, email)).statusCode).toBeGreaterThanOrEqual(400)

    expect(
      (
        await call('PATCH', `/api/admin/users/${id}`, { isActive: true, role: 'receptionist' })
      ).json(),
    ).toMatchObject({ isActive: true, role: 'receptionist' })
    expect((await signIn(t.app, email)).statusCode).toBe(200)
    const acts = (
      await call('GET', '/api/admin/activities?action=user.updated')
    ).json<PlatformActivityList>()
    expect(acts.items[0]?.description).toMatch(/activated; .*|role Nurse → Receptionist; activated/)
  })

  it('refuses what must not be: bad role, a hospital member made super admin, oneself, a seat beyond the limit', async () => {
    const viewer = await userIdOf(t.db, demoEmail('viewer', 'smiledental'))
    expect(
      issuePaths(await call('PATCH', `/api/admin/users/${viewer}`, { role: 'owner' })),
    ).toEqual(['role'])
    expect(
      issuePaths(await call('PATCH', `/api/admin/users/${viewer}`, { role: 'super_admin' })),
    ).toEqual(['role'])
    expect(
      issuePaths(await call('PATCH', `/api/admin/users/${viewer}`, { isActive: 'no' })),
    ).toEqual(['isActive'])
    expect(issuePaths(await call('PATCH', `/api/admin/users/${viewer}`, {}))).toEqual([''])
    expect(
      issuePaths(
        await call('PATCH', `/api/admin/users/${viewer}`, { role: 'viewer', email: 'x@y.z' }),
      ),
    ).toEqual([''])
    const self = await userIdOf(t.db, SUPER_ADMIN_EMAIL)
    expectError(
      await call('PATCH', `/api/admin/users/${self}`, { isActive: false }),
      409,
      'CONFLICT',
    )
    expectError(await call('PATCH', '/api/admin/users/no-such-user', { isActive: false }), 404)

    // Seats: Smile Dental (6 demo staff) at its limit of 6 cannot activate a seventh member.
    const smile = await hospitalIdOf(t.db, 'smiledental')
    expect((await call('PATCH', `/api/admin/hospitals/${smile}`, { maxUsers: 6 })).statusCode).toBe(
      200,
    )
    await call('PATCH', `/api/admin/users/${viewer}`, { isActive: false })
    await t.db.execute(
      sql`insert into users (id, name, email, role, hospital_id) values ('smile-extra', 'Rohan Kamath', 'rohan@smile.test', 'nurse', ${smile})`,
    )
    const seat = expectError(
      await call('PATCH', `/api/admin/users/${viewer}`, { isActive: true }),
      409,
      'CONFLICT',
    )
    expect(seat.message).toMatch(/6 active users/)
    const [row] = await queryRows<{ is_active: boolean }>(
      t.db,
      sql`select is_active from users where id = ${viewer}`,
    )
    expect(row?.is_active).toBe(false)
  })
})

describe('activities', () => {
  it('are newest first, paginated and filterable; bad filters are 400', async () => {
    const all = (await call('GET', '/api/admin/activities?limit=100')).json<PlatformActivityList>()
    expect(all.total).toBeGreaterThanOrEqual(5)
    const times = all.items.map((a) => a.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
    const page2 = (
      await call('GET', '/api/admin/activities?limit=2&offset=2')
    ).json<PlatformActivityList>()
    expect(page2.items.map((a) => a.id)).toEqual(all.items.slice(2, 4).map((a) => a.id))
    expect(page2.total).toBe(all.total)
    const created = (
      await call('GET', `/api/admin/activities?action=hospital.created&hospitalId=${fresh.id}`)
    ).json<PlatformActivityList>()
    expect(created.items).toHaveLength(1)
    expect(created.items[0]).toMatchObject({
      hospitalName: fresh.name,
      actorName: 'Platform Admin',
      action: 'hospital.created',
    })
    expectError(await call('GET', '/api/admin/activities?action=drop'), 400)
    expectError(await call('GET', '/api/admin/activities?hospitalId=1'), 400)
    expectError(await call('GET', '/api/admin/activities?limit=0'), 400)
  })
})
