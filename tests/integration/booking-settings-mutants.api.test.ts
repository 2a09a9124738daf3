import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/server/http/app-error'
import {
  getHospitalSettings,
  updateHospitalSettings,
} from '../../src/server/modules/hospital-settings/hospital-settings.service'
import type { BookingHold } from '../../src/shared/schemas/booking'
import type { BookingSettings } from '../../src/shared/schemas/hospital-settings'
import {
  bookingFixture,
  codeOf,
  getPage,
  getSlots,
  laterOpenDay,
  postConfirm,
  postHold,
  serviceNamed,
} from '../support/booking'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-booking-settings mutation part (stryker/groups.mjs, docs/decisions/024): what the
// audit trail says about a booking-page change, a hospital that is not there, and a save that
// changes nothing.

let t: TestApp
let admin: string
let hospitalA: string
let adminA: string
let doctorA: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  adminA = await userIdOf(t.db, demoEmail('admin'))
  doctorA = await userIdOf(t.db, demoEmail('doctor'))
})
afterAll(async () => {
  await t?.close()
})

const call = (method: 'GET' | 'PUT' | 'PATCH', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: browserHeaders(admin),
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })

async function lastAudit(action: string) {
  const rows = await queryRows<{ action: string; entity_type: string; summary: string }>(
    t.db,
    sql`select action, entity_type, summary from audit_events
        where hospital_id = ${hospitalA} and action = ${action}
        order by created_at desc, id desc limit 1`,
  )
  return rows[0]
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

// First: the later tests take the services off the booking page.
describe('confirming an online booking', () => {
  it('notes the appointment as booked online and audits the slot and the new patient', async () => {
    const f = await bookingFixture(t)
    const page = await getPage(t, f.slug)
    const opd = serviceNamed(page, 'OPD consultation')
    const day = await getSlots(t, f.slug, {
      serviceId: opd.id,
      doctorId: f.doctors[0],
      date: laterOpenDay(page),
    })
    const startsAt = day.slots[0]?.startsAt
    if (!startsAt) throw new Error('no free slot')
    const held = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: f.doctors[0],
      startsAt,
      name: 'Ira Kulkarni',
    })
    expect(held.statusCode, held.body).toBe(201)
    const { holdId } = held.json<BookingHold>()
    const res = await postConfirm(t, f.slug, holdId, await codeOf(t.db, holdId))
    expect(res.statusCode, res.body).toBe(201)
    const { appointmentId } = res.json<{ appointmentId: string }>()
    const [appointment] = await queryRows<{ notes: string }>(
      t.db,
      sql`select notes from appointments where id = ${appointmentId}`,
    )
    expect(appointment?.notes).toBe('Booked online')
    const [audit] = await queryRows<{ action: string; entity_type: string; summary: string }>(
      t.db,
      sql`select action, entity_type, summary from audit_events
          where entity_id = ${holdId} and action = 'booking.confirmed'`,
    )
    expect(audit?.entity_type).toBe('booking_hold')
    expect(audit?.summary).toMatch(
      /^Online booking confirmed: \S+ [AP]M–\S+ [AP]M on .+ for Ira Kulkarni \(new patient\)$/,
    )
  })
})

describe('booking page settings: the audit row', () => {
  it('names the page’s state, the doctors and the services, before and after', async () => {
    const res = await call('GET', '/api/settings/booking')
    expect(res.statusCode, res.body).toBe(200)
    const [s1, s2] = res.json<BookingSettings>().services.map((s) => s.id)
    if (!s1 || !s2) throw new Error('the seeded hospital has fewer than two services')

    const off = await call('PUT', '/api/settings/booking', {
      enabled: false,
      doctorIds: [],
      bookableServiceIds: [s1],
    })
    expect(off.statusCode, off.body).toBe(200)

    const on = await call('PUT', '/api/settings/booking', {
      enabled: true,
      doctorIds: [doctorA],
      bookableServiceIds: [s1, s2],
    })
    expect(on.statusCode, on.body).toBe(200)
    expect(await lastAudit('booking.settings_saved')).toEqual({
      action: 'booking.settings_saved',
      entity_type: 'booking_settings',
      summary: 'Booking page on (was off); doctors: 1; services: 2 (was 1)',
    })

    const offAgain = await call('PUT', '/api/settings/booking', {
      enabled: false,
      doctorIds: [],
      bookableServiceIds: [],
    })
    expect(offAgain.statusCode, offAgain.body).toBe(200)
    expect((await lastAudit('booking.settings_saved'))?.summary).toBe(
      'Booking page off (was on); doctors: all; services: 0 (was 2)',
    )
  })
})

describe('hospital settings', () => {
  it('are a 404 for a hospital that is not there, to read and to change', async () => {
    const opts = { db: t.db, hospitalId: randomUUID(), userId: adminA }
    const missing = await refusal(getHospitalSettings(opts))
    expect([missing.code, missing.message]).toEqual(['NOT_FOUND', 'Hospital not found'])
    expect(
      (await refusal(updateHospitalSettings({ ...opts, values: { upiId: 'x@okaxis' } }))).code,
    ).toBe('NOT_FOUND')
  })

  it('a save that changes nothing leaves the row untouched, and says so in the audit', async () => {
    const before = await queryRows<{ name: string; updated_at: string }>(
      t.db,
      sql`select name, updated_at::text from hospitals where id = ${hospitalA}`,
    )
    const name = before[0]?.name
    const res = await call('PATCH', '/api/hospital/settings', { name })
    expect(res.statusCode, res.body).toBe(200)
    const after = await queryRows<{ name: string; updated_at: string }>(
      t.db,
      sql`select name, updated_at::text from hospitals where id = ${hospitalA}`,
    )
    expect(after).toEqual(before)
    expect((await lastAudit('hospital.settings_saved'))?.summary).toBe(
      'Hospital settings saved (no changes)',
    )
  })
})
