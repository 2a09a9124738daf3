import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BookingSettings, bookingSettings } from '../../src/shared/schemas/hospital-settings'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 26, Settings → General's booking page card: GET /api/settings/booking (any member) and
// PUT (admins): on or off, the doctors offered, the services offered, and the public link.

let t: TestApp
let admin: string
let adminB: string
let hospitalA: string
let hospitalB: string
let doctorA: string
let doctorB: string
let nurseA: string
const cookies = new Map<DemoRole, string>()

const URL = '/api/settings/booking'

beforeAll(async () => {
  t = await createTestApp()
  for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const)
    cookies.set(role, await login(t.app, demoEmail(role)))
  admin = cookies.get('admin')!
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  doctorA = await userIdOf(t.db, demoEmail('doctor'))
  doctorB = await userIdOf(t.db, demoEmail('doctor', 'smiledental'))
  nurseA = await userIdOf(t.db, demoEmail('nurse'))
})
afterAll(async () => {
  await t?.close()
})

const get = (cookie: string | undefined) =>
  t.app.inject({ method: 'GET', url: URL, headers: cookie ? { cookie } : {} })
const put = (cookie: string | undefined, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: URL,
    headers: browserHeaders(cookie),
    payload: JSON.stringify(body),
  })

function bookingOf(res: LightMyRequestResponse): BookingSettings {
  expect(res.statusCode, res.body).toBe(200)
  return bookingSettings.strict().parse(res.json())
}

async function bookableIn(hospitalId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    t.db,
    sql`select id::text as id from services where hospital_id = ${hospitalId} and bookable and active order by id`,
  )
  return rows.map((r) => r.id)
}

async function auditCount(hospitalId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from audit_events where hospital_id = ${hospitalId} and action = 'booking.settings_saved'`,
  )
  return row?.n ?? -1
}

/** A 400 on this field; the settings, the services' flags and the audit trail unchanged. */
async function refused(body: unknown, path: string, message?: string | RegExp) {
  const before = bookingOf(await get(admin))
  const audits = await auditCount(hospitalA)
  const error = expectError(await put(admin, body), 400, 'VALIDATION')
  const issue = error.issues?.find((i) => i.path === path)
  expect(issue, JSON.stringify(error)).toBeDefined()
  if (message) expect(issue?.message).toMatch(message)
  expect(bookingOf(await get(admin))).toEqual(before)
  expect(await auditCount(hospitalA)).toBe(audits)
}

describe('GET /api/settings/booking', () => {
  it('shows every member the page’s state, doctors, services and link', async () => {
    const slug = (
      await queryRows<{ slug: string }>(
        t.db,
        sql`select slug from hospitals where id = ${hospitalA}`,
      )
    )[0]?.slug
    for (const [role, cookie] of cookies) {
      const b = bookingOf(await get(cookie))
      expect(b.url, role).toBe(`/book/${slug}`)
      // The demo's doctors, one per specialty: the demo doctor log-in among them.
      expect(b.doctors).toContainEqual({ id: doctorA, name: 'Dr. Rajesh Iyer' })
      expect(b.doctors.length).toBeGreaterThan(1)
      expect(b.services.length).toBeGreaterThan(3)
      expect(
        b.services
          .filter((s) => s.bookable)
          .map((s) => s.id)
          .sort(),
      ).toEqual(await bookableIn(hospitalA))
    }
    expectError(await get(undefined), 401, 'UNAUTHENTICATED')
  })
})

describe('PUT /api/settings/booking', () => {
  it('turns the page on with chosen doctors and services, audited', async () => {
    const { services } = bookingOf(await get(admin))
    const chosen = services.slice(0, 2).map((s) => s.id)
    const audits = await auditCount(hospitalA)
    const saved = bookingOf(
      await put(admin, { enabled: true, doctorIds: [doctorA], bookableServiceIds: chosen }),
    )
    expect(saved.enabled).toBe(true)
    expect(saved.doctorIds).toEqual([doctorA])
    expect(
      saved.services
        .filter((s) => s.bookable)
        .map((s) => s.id)
        .sort(),
    ).toEqual([...chosen].sort())
    expect(await bookableIn(hospitalA)).toEqual([...chosen].sort())
    expect(bookingOf(await get(cookies.get('viewer')))).toEqual(saved)
    expect(await auditCount(hospitalA)).toBe(audits + 1)
  })

  it('turns it off, offering every doctor when none is listed', async () => {
    const { services } = bookingOf(await get(admin))
    const saved = bookingOf(
      await put(admin, {
        enabled: false,
        doctorIds: [],
        bookableServiceIds: [services[0]!.id, services[0]!.id.toUpperCase()],
      }),
    )
    expect(saved).toMatchObject({ enabled: false, doctorIds: [] })
    expect(await bookableIn(hospitalA)).toEqual([services[0]!.id])
    const [row] = await queryRows<{ enabled: boolean; doctor_ids: string[] | string }>(
      t.db,
      sql`select enabled, doctor_ids from booking_settings where hospital_id = ${hospitalA}`,
    )
    expect(row?.enabled).toBe(false)
  })

  it('refuses doctors who are not this hospital’s doctors', async () => {
    const some = bookingOf(await get(admin))
      .services.map((s) => s.id)
      .slice(0, 1)
    const body = (doctorIds: string[]) => ({ enabled: true, doctorIds, bookableServiceIds: some })
    await refused(body([doctorB]), 'doctorIds', 'Choose doctors of this hospital')
    await refused(body([nurseA]), 'doctorIds', 'Choose doctors of this hospital')
    await refused(body([crypto.randomUUID()]), 'doctorIds')
    await refused(body([doctorA, 'not-an-id']), 'doctorIds.1', 'Each doctor must be a valid id')
  })

  it('refuses another hospital’s services, and an empty page', async () => {
    const [theirs] = await queryRows<{ id: string }>(
      t.db,
      sql`select id::text as id from services where hospital_id = ${hospitalB} limit 1`,
    )
    const ours = bookingOf(await get(admin)).services[0]!.id
    await refused(
      { enabled: true, doctorIds: [], bookableServiceIds: [ours, theirs!.id] },
      'bookableServiceIds',
      'Choose active services of this hospital',
    )
    await refused(
      { enabled: true, doctorIds: [], bookableServiceIds: [] },
      'bookableServiceIds',
      'Choose at least one service to offer on the booking page',
    )
  })

  it('refuses bodies of the wrong shape', async () => {
    await refused({ enabled: true, doctorIds: [] }, 'bookableServiceIds')
    await refused({ enabled: 'yes', doctorIds: [], bookableServiceIds: [] }, 'enabled')
    await refused({ enabled: true, doctorIds: 'all', bookableServiceIds: [] }, 'doctorIds')
    await refused(
      { enabled: false, doctorIds: [], bookableServiceIds: [], hospitalId: hospitalB },
      '',
      /Unknown field/,
    )
  })

  it('is for admins only', async () => {
    const before = bookingOf(await get(admin))
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const res = await put(cookies.get(role), {
        enabled: true,
        doctorIds: [],
        bookableServiceIds: before.services.map((s) => s.id),
      })
      expectError(res, 403, 'FORBIDDEN')
    }
    expect(bookingOf(await get(admin))).toEqual(before)
  })
})

describe('cross-tenant', () => {
  it('each hospital sees and changes only its own page, doctors and services', async () => {
    const a = bookingOf(await get(admin))
    const b = bookingOf(await get(adminB))
    expect(b.doctors.map((d) => d.id)).toContain(doctorB)
    const doctorsA = new Set(a.doctors.map((d) => d.id))
    expect(b.doctors.some((d) => doctorsA.has(d.id))).toBe(false)
    const idsA = new Set(a.services.map((s) => s.id))
    expect(b.services.some((s) => idsA.has(s.id))).toBe(false)
    expect(b.url).not.toBe(a.url)
    const bookableA = await bookableIn(hospitalA)
    const auditsA = await auditCount(hospitalA)
    const saved = bookingOf(
      await put(adminB, {
        enabled: true,
        doctorIds: [doctorB],
        bookableServiceIds: b.services.map((s) => s.id),
      }),
    )
    expect(saved.services.every((s) => s.bookable)).toBe(true)
    expect(await bookableIn(hospitalA)).toEqual(bookableA)
    expect(bookingOf(await get(admin))).toEqual(a)
    expect(await auditCount(hospitalA)).toBe(auditsA)
    // A's admin cannot offer B's doctor or B's services.
    await refused(
      { enabled: true, doctorIds: [], bookableServiceIds: [b.services[0]!.id] },
      'bookableServiceIds',
    )
  })
})
