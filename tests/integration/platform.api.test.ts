import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type {
  HospitalDetail,
  HospitalList,
  PlatformActivityList,
  PlatformStats,
} from '../../src/shared/schemas/platform'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import { adminCall, newHospital } from '../support/platform'
import type { SeenRoute } from '../support/route-recorder'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 27, the Super Admin Dashboard's API: every /api/admin/* route is the super admin's
// alone; platform stats against the seed; hospitals listed, added, viewed and edited.

const seen = vi.hoisted(() => [] as SeenRoute[])
vi.mock('fastify', async (importOriginal) => {
  const { recordingFastify } = await import('../support/route-recorder')
  return recordingFastify(await importOriginal(), seen)
})

let t: TestApp
let sa: string
const staff = new Map<string, string>()

beforeAll(async () => {
  t = await createTestApp()
  sa = await loginSuperAdmin(t.app)
  for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const)
    staff.set(role, await login(t.app, demoEmail(role)))
  staff.set('admin of another hospital', await login(t.app, demoEmail('admin', 'smiledental')))
})
afterAll(async () => {
  await t?.close()
})

const call = (
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
) => adminCall(t.app, cookie, method, url, body)

describe('every /api/admin/* route', () => {
  const adminRoutes = () =>
    [
      ...new Set(
        seen.filter((r) => r.url.startsWith('/api/admin/')).map((r) => `${r.method} ${r.url}`),
      ),
    ]
      .filter((r) => !r.startsWith('HEAD '))
      .sort()

  it('lists this issue’s routes among them, each guarded superAdmin', () => {
    expect(adminRoutes()).toEqual(
      expect.arrayContaining([
        'GET /api/admin/platform-stats',
        'GET /api/admin/hospitals',
        'POST /api/admin/hospitals',
        'GET /api/admin/hospitals/:id',
        'PATCH /api/admin/hospitals/:id',
        'GET /api/admin/users',
        'PATCH /api/admin/users/:id',
        'GET /api/admin/onboarding-tasks',
        'PATCH /api/admin/onboarding-tasks/:id/complete',
        'GET /api/admin/activities',
      ]),
    )
    for (const r of seen.filter((x) => x.url.startsWith('/api/admin/')))
      expect(r.access, `${r.method} ${r.url}`).toEqual({ kind: 'superAdmin' })
  })

  it('answers 401 signed out and 403 to a hospital admin and every staff role, changing nothing', async () => {
    const before = await queryRows(t.db, sql`select count(*)::int as n from platform_audit_events`)
    const id = '00000000-0000-4000-8000-000000000000'
    for (const route of adminRoutes()) {
      const [method, pattern] = route.split(' ') as ['GET' | 'POST' | 'PATCH' | 'DELETE', string]
      const url = pattern.replace(/:[A-Za-z]+/g, id)
      const body = method === 'GET' || method === 'DELETE' ? undefined : {}
      const send = (cookie?: string) =>
        t.app.inject({
          method,
          url,
          headers: {
            host: 'localhost',
            origin: 'http://localhost',
            ...(cookie ? { cookie } : {}),
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { payload: '{}' } : {}),
        })
      expectError(await send(), 401, 'UNAUTHENTICATED')
      for (const [role, cookie] of staff) {
        const res = await send(cookie)
        expect(res.statusCode, `${route} as ${role}`).toBe(403)
        expectError(res, 403, 'FORBIDDEN')
      }
    }
    expect(
      await queryRows(t.db, sql`select count(*)::int as n from platform_audit_events`),
    ).toEqual(before)
  })
})

describe('GET /api/admin/platform-stats', () => {
  it('counts hospitals, active members, revenue over active hospitals and pending tasks', async () => {
    const res = await call(sa, 'GET', '/api/admin/platform-stats')
    expect(res.statusCode).toBe(200)
    const stats = res.json<PlatformStats>()
    const [expected] = await queryRows<Record<string, number>>(
      t.db,
      sql`select (select count(*)::int from hospitals) as "totalHospitals",
        (select count(*)::int from users where hospital_id is not null and is_active and not banned) as "activeUsers",
        (select coalesce(sum(h.price_per_user::bigint * (select count(*) from users u
           where u.hospital_id = h.id and u.is_active and not u.banned)), 0)::bigint
         from hospitals h where h.subscription_status = 'active') as "monthlyRevenue",
        (select count(*)::int from onboarding_tasks where completed_at is null) as "pendingTasks"`,
    )
    expect(stats).toEqual({
      totalHospitals: Number(expected?.totalHospitals),
      activeUsers: Number(expected?.activeUsers),
      monthlyRevenue: Number(expected?.monthlyRevenue),
      pendingTasks: Number(expected?.pendingTasks),
    })
    // The two demo hospitals are active with 5 members each at the default ₹2,400 per user.
    const demo = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from hospitals where email in ('contact@sanjeevani.demo', 'hello@smiledental.demo') and subscription_status = 'active' and price_per_user = 240000`,
    )
    expect(demo[0]?.n).toBe(2)
    expect(stats.monthlyRevenue).toBeGreaterThanOrEqual(2 * 5 * 240000)
    expect(stats.totalHospitals).toBeGreaterThanOrEqual(2)
    expect(stats.pendingTasks).toBeGreaterThan(0)
  })
})

describe('hospitals', () => {
  let created: HospitalDetail

  it('adds a hospital with the spec’s defaults, on its plan’s trial, with six tasks, audited', async () => {
    const res = await call(
      sa,
      'POST',
      '/api/admin/hospitals',
      newHospital('a1', { bedCapacity: 20, maxUsers: undefined }),
    )
    expect(res.statusCode, res.body).toBe(201)
    created = res.json<HospitalDetail>()
    expect(created).toMatchObject({
      name: 'Dhanvantari Clinic a1',
      email: 'desk.a1@dhanvantari.test',
      phone: '+912025534411',
      hospitalType: 'general',
      maxUsers: 5,
      pricePerUser: 240000,
      currency: 'INR',
      plan: 'starter',
      subscriptionStatus: 'trial',
      currentUsers: 0,
      monthlyRevenue: 0,
      bedCapacity: 20,
      adminEmail: 'desk.a1@dhanvantari.test',
      tasksCompleted: 0,
      tasksTotal: 6,
    })
    const days = (Date.parse(created.trialEndsAt ?? '') - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(12)
    expect(days).toBeLessThan(15)
    const audit = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events where hospital_id = ${created.id} and action = 'platform.hospital.created'`,
    )
    expect(audit[0]?.n).toBe(1)
    // Its first admin is invited by email (the team module's invitation, via the outbox).
    const { invitation, ...detail } = res.json<HospitalDetail & { invitation: unknown }>()
    expect(invitation).toMatchObject({ email: 'desk.a1@dhanvantari.test', emailStatus: 'sandbox' })
    const [invite] = await queryRows<{ role: string; n: number }>(
      t.db,
      sql`select role, count(*) over ()::int as n from invitations where hospital_id = ${created.id}`,
    )
    expect(invite).toEqual({ role: 'admin', n: 1 })
    const [mail] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from email_outbox where to_address = 'desk.a1@dhanvantari.test'`,
    )
    expect(mail?.n).toBe(1)
    const view = await call(sa, 'GET', `/api/admin/hospitals/${created.id}`)
    expect(view.json()).toEqual(detail)
  })

  it('refuses bad input with the spec’s messages, and a second hospital with the same email', async () => {
    const messages = async (body: unknown) => {
      const res = await call(sa, 'POST', '/api/admin/hospitals', body)
      const err = expectError(res, 400, 'VALIDATION')
      return Object.fromEntries((err.issues ?? []).map((i) => [i.path, i.message]))
    }
    expect(await messages({ name: ' ', email: 'nope', maxUsers: 0, pricePerUser: -1 })).toEqual({
      name: 'Hospital name is required',
      email: 'Valid email required',
      maxUsers: 'At least 1 user required',
      pricePerUser: 'Price must be positive',
    })
    expect(await messages({ ...newHospital('b1'), hospitalType: 'spa' })).toHaveProperty(
      'hospitalType',
    )
    expect(await messages({ ...newHospital('b2'), phone: '12' })).toHaveProperty('phone')
    expect(await messages({ ...newHospital('b3'), maxUsers: 2.5 })).toHaveProperty('maxUsers')
    expect(await messages({ ...newHospital('b4'), currency: 'USD' })).toHaveProperty('currency')
    expect(
      issuePaths(
        await call(sa, 'POST', '/api/admin/hospitals', {
          ...newHospital('b5'),
          isSuperAdmin: true,
        }),
      ),
    ).toEqual([''])
    expectError(await call(sa, 'POST', '/api/admin/hospitals', newHospital('a1')), 409, 'CONFLICT')
    // A first admin whose email already has an account: refused before anything is made.
    const taken = expectError(
      await call(
        sa,
        'POST',
        '/api/admin/hospitals',
        newHospital('b6', { adminEmail: 'nurse@smiledental.demo' }),
      ),
      409,
      'CONFLICT',
    )
    expect(taken.issues?.[0]?.path).toBe('adminEmail')
    const [n] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from hospitals where email like 'desk.b%'`,
    )
    expect(n?.n).toBe(0)
  })

  it('lists by search on name or email and by status', async () => {
    const list = async (query: string) => {
      const res = await call(sa, 'GET', `/api/admin/hospitals${query}`)
      expect(res.statusCode, res.body).toBe(200)
      return res.json<HospitalList>()
    }
    expect((await list('?q=dhanvantari clinic a1')).items.map((h) => h.id)).toEqual([created.id])
    expect((await list('?q=DESK.A1@')).items.map((h) => h.id)).toEqual([created.id])
    expect((await list('?q=%25')).items).toEqual([])
    const trial = await list('?status=trial')
    expect(trial.items.every((h) => h.subscriptionStatus === 'trial')).toBe(true)
    expect(trial.items.map((h) => h.id)).toContain(created.id)
    const active = await list('?status=active')
    expect(active.items.map((h) => h.id)).toContain(await hospitalIdOf(t.db, 'sanjeevani'))
    const sanjeevani = active.items.find((h) => h.email === 'contact@sanjeevani.demo')
    expect(sanjeevani).toMatchObject({
      currentUsers: 10,
      monthlyRevenue: 10 * sanjeevani!.pricePerUser,
    })
    expect((await list('?status=all')).total).toBe((await list('')).total)
    expectError(await call(sa, 'GET', '/api/admin/hospitals?status=gone'), 400, 'VALIDATION')
    expectError(await call(sa, 'GET', '/api/admin/hospitals?sort=name'), 400, 'VALIDATION')
    expectError(await call(sa, 'GET', '/api/admin/hospitals/not-a-uuid'), 400, 'VALIDATION')
    expectError(
      await call(sa, 'GET', '/api/admin/hospitals/00000000-0000-4000-8000-000000000000'),
      404,
      'NOT_FOUND',
    )
  })

  it('moves trial → active → past_due → cancelled → active, and refuses other moves with 409', async () => {
    const move = (subscriptionStatus: string) =>
      call(sa, 'PATCH', `/api/admin/hospitals/${created.id}`, { subscriptionStatus })
    expectError(await move('past_due'), 409, 'INVALID_TRANSITION')
    expectError(await move('cancelled'), 409, 'INVALID_TRANSITION')
    expect((await move('active')).json()).toMatchObject({ subscriptionStatus: 'active' })
    expectError(await move('trial'), 409, 'INVALID_TRANSITION')
    expectError(await move('cancelled'), 409, 'INVALID_TRANSITION')
    expect((await move('past_due')).json()).toMatchObject({ subscriptionStatus: 'past_due' })
    expect((await move('active')).json()).toMatchObject({ subscriptionStatus: 'active' })
    expect((await move('past_due')).statusCode).toBe(200)
    expect((await move('cancelled')).json()).toMatchObject({ subscriptionStatus: 'cancelled' })
    expectError(await move('past_due'), 409, 'INVALID_TRANSITION')
    expect((await move('active')).json()).toMatchObject({ subscriptionStatus: 'active' })
    const acts = await call(
      sa,
      'GET',
      `/api/admin/activities?hospitalId=${created.id}&action=hospital.status_changed`,
    )
    const list = acts.json<PlatformActivityList>()
    expect(list.total).toBe(6)
    expect(list.items[0]?.description).toMatch(/Cancelled → Active/)
  })

  it('edits plan, max users, price per user and trial end; refuses nonsense', async () => {
    const url = `/api/admin/hospitals/${created.id}`
    const res = await call(sa, 'PATCH', url, {
      plan: 'professional',
      maxUsers: 20,
      pricePerUser: 199900,
      trialEndsAt: '2027-01-31',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      plan: 'professional',
      maxUsers: 20,
      pricePerUser: 199900,
      trialEndsAt: '2027-01-31',
    })
    expect((await call(sa, 'PATCH', url, { trialEndsAt: null })).json()).toMatchObject({
      trialEndsAt: null,
    })
    expect(issuePaths(await call(sa, 'PATCH', url, {}))).toEqual([''])
    expect(issuePaths(await call(sa, 'PATCH', url, { maxUsers: 0 }))).toEqual(['maxUsers'])
    expect(issuePaths(await call(sa, 'PATCH', url, { pricePerUser: -5 }))).toEqual(['pricePerUser'])
    expect(issuePaths(await call(sa, 'PATCH', url, { trialEndsAt: '2027-02-30' }))).toEqual([
      'trialEndsAt',
    ])
    expect(issuePaths(await call(sa, 'PATCH', url, { plan: 'gold' }))).toEqual(['plan'])
    expect(issuePaths(await call(sa, 'PATCH', url, { name: 'Renamed' }))).toEqual([''])
    const sanjeevani = await hospitalIdOf(t.db, 'sanjeevani')
    expectError(
      await call(sa, 'PATCH', `/api/admin/hospitals/${sanjeevani}`, { maxUsers: 4 }),
      409,
      'CONFLICT',
    )
    expectError(
      await call(sa, 'PATCH', '/api/admin/hospitals/00000000-0000-4000-8000-000000000000', {
        maxUsers: 4,
      }),
      404,
    )
  })
})
