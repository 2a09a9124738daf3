import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdminStats, PlatformUserList } from '../../src/shared/schemas/platform'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { adminCall } from '../support/platform'
import { teamApi } from '../support/team'
import { loginSuperAdmin } from '../support/two-factor'
import { createTestApp, demoEmail, queryRows, type TestApp, userIdOf } from '../support/test-app'

// Issue 27, the super admin's /admin: the cards (GET /api/admin/stats), the user table with
// Plan and Status, Suspend / Activate; 403 to everyone else. A hospital admin's Activate
// does not undo the platform's suspension or deactivation.

let t: TestApp
let sa: string
let admin: string

beforeAll(async () => {
  t = await createTestApp()
  sa = await loginSuperAdmin(t.app)
  admin = await login(t.app, demoEmail('admin'))
})
afterAll(async () => {
  await t?.close()
})

describe('GET /api/admin/stats', () => {
  it('counts users, active users, new today and the monthly revenue', async () => {
    // Today begins at midnight in India (UTC+05:30, no daylight saving), worked out here apart
    // from the server's SQL. One account made a minute after it, one a minute before: the
    // count holds whenever the run is (the template was seeded before 18:30 UTC some runs).
    const IST = 330 * 60_000
    const DAY = 86_400_000
    const todayStarts = new Date(Math.floor((Date.now() + IST) / DAY) * DAY - IST)
    const [doctor, viewer] = [
      await userIdOf(t.db, demoEmail('doctor')),
      await userIdOf(t.db, demoEmail('viewer')),
    ]
    const minute = 60_000
    await t.db.execute(
      sql`update users set created_at = ${new Date(todayStarts.getTime() + minute).toISOString()}::timestamptz where id = ${doctor}`,
    )
    await t.db.execute(
      sql`update users set created_at = ${new Date(todayStarts.getTime() - minute).toISOString()}::timestamptz where id = ${viewer}`,
    )
    const res = await adminCall(t.app, sa, 'GET', '/api/admin/stats')
    expect(res.statusCode, res.body).toBe(200)
    const stats = res.json<AdminStats>()
    const [expected] = await queryRows<Record<string, number>>(
      t.db,
      sql`select count(*)::int as "totalUsers",
            count(*) filter (where is_active and not banned)::int as "activeUsers",
            count(*) filter (where created_at >= ${todayStarts.toISOString()}::timestamptz)::int
              as "today"
          from users`,
    )
    expect(stats.totalUsers).toBe(expected?.totalUsers)
    expect(stats.activeUsers).toBe(expected?.activeUsers)
    expect(stats.newUsersToday).toBeGreaterThan(0)
    expect(stats.newUsersToday).toBe(expected?.today)
    const platform = (await adminCall(t.app, sa, 'GET', '/api/admin/platform-stats')).json<{
      monthlyRevenue: number
    }>()
    expect(stats.totalRevenue).toBe(platform.monthlyRevenue)
  })

  it('is the super admin’s alone: 401 signed out, 403 to the hospital admin and staff', async () => {
    expectError(await adminCall(t.app, undefined, 'GET', '/api/admin/stats'), 401)
    for (const role of ['admin', 'doctor', 'viewer'] as const) {
      const cookie = role === 'admin' ? admin : await login(t.app, demoEmail(role))
      expectError(await adminCall(t.app, cookie, 'GET', '/api/admin/stats'), 403, 'FORBIDDEN')
      expectError(await adminCall(t.app, cookie, 'GET', '/api/admin/users'), 403, 'FORBIDDEN')
    }
  })
})

describe('the user table and Suspend / Activate', () => {
  it('lists each user with the hospital’s plan (null for platform accounts) and a status', async () => {
    const list = (
      await adminCall(t.app, sa, 'GET', '/api/admin/users?limit=100')
    ).json<PlatformUserList>()
    const doctor = list.items.find((u) => u.email === demoEmail('doctor'))
    expect(doctor).toMatchObject({ status: 'active', plan: expect.any(String) })
    expect(list.items.find((u) => u.isSuperAdmin)?.plan).toBeNull()
  })

  it('suspends and activates; the hospital admin cannot undo a platform suspension', async () => {
    const nurse = await userIdOf(t.db, demoEmail('nurse'))
    const nurseCookie = await login(t.app, demoEmail('nurse'))
    const suspend = await adminCall(t.app, sa, 'PATCH', `/api/admin/users/${nurse}`, {
      status: 'suspended',
    })
    expect(suspend.statusCode, suspend.body).toBe(200)
    expect(suspend.json()).toMatchObject({ status: 'suspended' })
    expectError(await adminCall(t.app, nurseCookie, 'GET', '/api/auth/user'), 401)

    const team = teamApi(t.app)
    const undo = expectError(await team.update(admin, nurse, { status: 'active' }), 409, 'CONFLICT')
    expect(undo.message).toMatch(/suspended by Arogya support/)
    const [row] = await queryRows<{ banned: boolean }>(
      t.db,
      sql`select banned from users where id = ${nurse}`,
    )
    expect(row?.banned).toBe(true)

    const activate = await adminCall(t.app, sa, 'PATCH', `/api/admin/users/${nurse}`, {
      status: 'active',
    })
    expect(activate.json()).toMatchObject({ status: 'active' })
    expect((await login(t.app, demoEmail('nurse'))).length).toBeGreaterThan(0)
  })

  it('the hospital admin cannot reactivate a member the platform deactivated, but can one they suspended', async () => {
    const receptionist = await userIdOf(t.db, demoEmail('receptionist'))
    const team = teamApi(t.app)
    await adminCall(t.app, sa, 'PATCH', `/api/admin/users/${receptionist}`, { isActive: false })
    expectError(await team.update(admin, receptionist, { status: 'active' }), 409, 'CONFLICT')
    await adminCall(t.app, sa, 'PATCH', `/api/admin/users/${receptionist}`, { isActive: true })

    expect((await team.update(admin, receptionist, { status: 'suspended' })).statusCode).toBe(200)
    const back = await team.update(admin, receptionist, { status: 'active' })
    expect(back.statusCode, back.body).toBe(200)
    expect(back.json()).toMatchObject({ status: 'active' })
  })
})
