import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BOOKING_LIMITS } from '../../src/server/modules/booking/booking-limits'
import type { BookingHold, BookingPage } from '../../src/shared/schemas/booking'
import {
  type BookingFixture,
  bookingFixture,
  codeOf,
  freshIp,
  freshMobile,
  getPage,
  getSlots,
  laterOpenDay,
  postConfirm,
  postHold,
  resetHospitalCodes,
  serviceNamed,
} from '../support/booking'
import { expectError } from '../support/http'
import { createTestApp, queryRows, type TestApp } from '../support/test-app'

let t: TestApp
let f: BookingFixture
let page: BookingPage
let opd: { id: string }
beforeAll(async () => {
  t = await createTestApp()
  f = await bookingFixture(t)
  page = await getPage(t, f.slug)
  opd = serviceNamed(page, 'OPD consultation')
})
afterAll(async () => {
  await t?.close()
})
// The hospital's hourly cap on codes is tested on its own (booking-privacy.api.test.ts).
beforeEach(async () => {
  if (t) await resetHospitalCodes(t.db, f.hospitalId)
})

let pool: string[] = []
let dayIndex = 0
async function freeStart(): Promise<string> {
  while (pool.length === 0) {
    const date = laterOpenDay(page, dayIndex++)
    const day = await getSlots(t, f.slug, { serviceId: opd.id, doctorId: 'any', date })
    pool = day.slots.map((s) => s.startsAt)
  }
  return pool.shift() as string
}

describe('two visitors never get the same slot', () => {
  it("10 concurrent holds of one doctor's slot: exactly one wins, the rest get 409", async () => {
    const startsAt = await freeStart()
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        postHold(t, f.slug, { serviceId: opd.id, doctorId: f.doctors[0], startsAt }),
      ),
    )
    const codes = results.map((r) => r.statusCode).sort()
    expect(codes).toEqual([201, ...Array<number>(9).fill(409)])
    for (const r of results.filter((x) => x.statusCode === 409)) expectError(r, 409, 'CONFLICT')
    const holds = await queryRows(
      t.db,
      sql`select 1 from booking_holds where doctor_id = ${f.doctors[0]} and starts_at = ${startsAt}::timestamptz`,
    )
    expect(holds).toHaveLength(1)
  })

  it('10 concurrent holds for "any doctor": one per offered doctor (2), the rest 409', async () => {
    const startsAt = await freeStart()
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        postHold(t, f.slug, { serviceId: opd.id, doctorId: null, startsAt }),
      ),
    )
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2)
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(8)
    const doctors = await queryRows<{ doctor_id: string }>(
      t.db,
      sql`select doctor_id from booking_holds where starts_at = ${startsAt}::timestamptz order by doctor_id`,
    )
    expect(doctors.map((d) => d.doctor_id)).toEqual([...f.doctors].sort())
  })

  it('two concurrent confirms of one hold book once', async () => {
    const res = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: f.doctors[1],
      startsAt: await freeStart(),
    })
    const held = res.json<BookingHold>()
    const code = await codeOf(t.db, held.holdId)
    const both = await Promise.all([
      postConfirm(t, f.slug, held.holdId, code),
      postConfirm(t, f.slug, held.holdId, code),
    ])
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409])
    const booked = await queryRows(
      t.db,
      sql`select 1 from appointments a join booking_holds h on h.appointment_id = a.id where h.id = ${held.holdId}`,
    )
    expect(booked).toHaveLength(1)
  })
})

describe('abuse limits (PostgreSQL-backed, shared by every instance)', () => {
  it(`sends at most ${BOOKING_LIMITS.holdsPerMobile} codes per mobile per hour`, async () => {
    const phone = freshMobile()
    for (let i = 0; i < BOOKING_LIMITS.holdsPerMobile; i++) {
      const ok = await postHold(t, f.slug, {
        serviceId: opd.id,
        doctorId: null,
        startsAt: await freeStart(),
        phone,
      })
      expect(ok.statusCode, ok.body).toBe(201)
    }
    const refused = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: null,
      startsAt: await freeStart(),
      phone,
    })
    expect(expectError(refused, 429, 'RATE_LIMITED').message).toMatch(
      /^Too many codes were sent to this mobile number\. Please try again in \d+ minutes/,
    )
  })

  it("a hold refused for a taken slot uses up the mobile's codes too (refusals give nothing back)", async () => {
    const phone = freshMobile()
    const startsAt = await freeStart()
    const first = await postHold(t, f.slug, { serviceId: opd.id, doctorId: f.doctors[0], startsAt })
    expect(first.statusCode).toBe(201)
    for (let i = 0; i < BOOKING_LIMITS.holdsPerMobile; i++) {
      const lost = await postHold(t, f.slug, {
        serviceId: opd.id,
        doctorId: f.doctors[0],
        startsAt,
        phone,
      })
      expect(lost.statusCode).toBe(409)
    }
    const refused = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: null,
      startsAt: await freeStart(),
      phone,
    })
    expect(expectError(refused, 429, 'RATE_LIMITED').message).toMatch(
      /^Too many codes were sent to this mobile number/,
    )
  })

  it(`allows ${BOOKING_LIMITS.holdsPerIp} holds per IP per hour`, async () => {
    const ip = freshIp()
    for (let i = 0; i < BOOKING_LIMITS.holdsPerIp; i++) {
      const ok = await postHold(
        t,
        f.slug,
        { serviceId: opd.id, doctorId: null, startsAt: await freeStart() },
        ip,
      )
      expect(ok.statusCode, ok.body).toBe(201)
    }
    const refused = await postHold(
      t,
      f.slug,
      { serviceId: opd.id, doctorId: null, startsAt: await freeStart() },
      ip,
    )
    expect(expectError(refused, 429).message).toMatch(
      /^Too many booking attempts from your network/,
    )
  })

  it(`allows ${BOOKING_LIMITS.confirmsPerIp} code checks per IP and ${BOOKING_LIMITS.confirmsPerHold} per hold`, async () => {
    const ip = freshIp()
    for (let i = 0; i < BOOKING_LIMITS.confirmsPerIp; i++) {
      expectError(await postConfirm(t, f.slug, randomUUID(), '123456', ip), 404)
    }
    expectError(await postConfirm(t, f.slug, randomUUID(), '123456', ip), 429, 'RATE_LIMITED')

    const res = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: null,
      startsAt: await freeStart(),
    })
    const { holdId } = res.json<BookingHold>()
    const statuses: number[] = []
    for (let i = 0; i < BOOKING_LIMITS.confirmsPerHold + 1; i++) {
      statuses.push((await postConfirm(t, f.slug, holdId, '000000')).statusCode)
    }
    // Some code among 000000's tries might be right: only count the refusals' shape.
    expect(statuses.at(-1)).toBe(429)
  })
})
