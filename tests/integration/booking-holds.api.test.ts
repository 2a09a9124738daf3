import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HOLD_CONFIRMED,
  HOLD_EXPIRED,
  HOLD_NOT_FOUND,
  HOLD_SPENT,
} from '../../src/server/modules/booking/booking-confirm.service'
import type {
  BookingConfirmation,
  BookingHold,
  BookingPage,
} from '../../src/shared/schemas/booking'
import {
  type BookingFixture,
  bookingFixture,
  codeOf,
  e164,
  freshMobile,
  getPage,
  getSlots,
  laterOpenDay,
  otherCode,
  postConfirm,
  postHold,
  serviceNamed,
} from '../support/booking'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { createTestApp, demoEmail, queryRows, type TestApp } from '../support/test-app'

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

/** Free starts of a later open day for the first doctor, taken one by one by the tests. */
let pool: string[] = []
let dayIndex = 0
async function freeStart(doctorId = f.doctors[0]): Promise<string> {
  while (pool.length === 0) {
    const day = await getSlots(t, f.slug, {
      serviceId: opd.id,
      doctorId,
      date: laterOpenDay(page, dayIndex++),
    })
    pool = day.slots.map((s) => s.startsAt)
  }
  return pool.shift() as string
}

async function hold(extra: { phone?: string; name?: string; startsAt?: string } = {}) {
  const res = await postHold(t, f.slug, {
    serviceId: opd.id,
    doctorId: f.doctors[0],
    startsAt: extra.startsAt ?? (await freeStart()),
    ...extra,
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<BookingHold>()
}

async function row(holdId: string) {
  const [h] = await queryRows<{
    attempts: number
    code_hash: string
    confirmed_at: unknown
    appointment_id: string | null
  }>(
    t.db,
    sql`select attempts, code_hash, confirmed_at, appointment_id from booking_holds where id = ${holdId}`,
  )
  return h
}

describe('holding a slot and confirming the code', () => {
  it('sends the code through the outbox (masked in a production Sandbox Outbox, even for admins), stores only its hash, and books a new patient', async () => {
    const mobile = freshMobile()
    const startsAt = await freeStart()
    const held = await hold({ phone: mobile, name: 'Kavya Joshi', startsAt })
    expect(held.sentTo).toMatch(/^\+91 98\d{3} •••\d{2}$/)
    expect(new Date(held.expiresAt).getTime() - Date.now()).toBeGreaterThan(4 * 60_000)

    const admin = await login(t.app, demoEmail('admin'))
    const outbox = await t.app.inject({
      method: 'GET',
      url: '/api/sandbox-outbox',
      headers: browserHeaders(admin),
    })
    const message = outbox
      .json<{ messages: { to: string; text: string; channel: string }[] }>()
      .messages.find((m) => m.to === e164(mobile))
    expect(message?.channel).toBe('sms')
    expect(message?.text).toMatch(
      /^•••••• is your code to confirm your appointment at Sanjeevani Multispeciality Hospital, Pune\. It expires in 5 minutes\./,
    )
    const code = await codeOf(t.db, held.holdId)
    expect(outbox.body).not.toContain(code)
    const stored = await row(held.holdId)
    expect(stored?.code_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(stored?.code_hash).not.toContain(code)

    const res = await postConfirm(t, f.slug, held.holdId, code)
    expect(res.statusCode, res.body).toBe(201)
    const booked = res.json<BookingConfirmation>()
    expect(booked).toMatchObject({
      hospitalName: 'Sanjeevani Multispeciality Hospital, Pune',
      serviceName: 'OPD consultation',
      doctorName: 'Dr. Meera Kulkarni',
      patientName: 'Kavya Joshi',
      startsAt,
      timeZone: 'Asia/Kolkata',
      status: 'scheduled',
    })
    expect(booked.timeLabel).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/)
    const [appt] = await queryRows<{
      status: string
      source: string
      patient_id: string
      doctor_id: string
    }>(
      t.db,
      sql`select status, source, patient_id, doctor_id from appointments where id = ${booked.appointmentId}`,
    )
    expect(appt).toMatchObject({ status: 'scheduled', source: 'online', doctor_id: f.doctors[0] })
    const [patient] = await queryRows<{ id: string; name: string }>(
      t.db,
      sql`select id, name from patients where phone = ${e164(mobile)}`,
    )
    expect(patient).toMatchObject({ id: appt!.patient_id, name: 'Kavya Joshi' })
    expect((await row(held.holdId))?.appointment_id).toBe(booked.appointmentId)
    // The slot is gone for everyone; a second confirm is refused.
    expect(expectError(await postConfirm(t, f.slug, held.holdId, code), 409).message).toBe(
      HOLD_CONFIRMED,
    )
    const audit = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where entity_id in (${held.holdId}, ${booked.appointmentId})`,
    )
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'booking.held',
        'message.queued',
        'appointment.created',
        'booking.confirmed',
      ]),
    )
  })

  it('matches an existing patient by mobile instead of creating one', async () => {
    const mobile = freshMobile()
    const admin = await login(t.app, demoEmail('admin'))
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/patients/manual',
      headers: browserHeaders(admin),
      payload: { name: 'Suresh Patil', phone: mobile },
    })
    expect(created.statusCode, created.body).toBe(201)
    const held = await hold({ phone: `+91 ${mobile}`, name: 'Suresh Patil' })
    const res = await postConfirm(t, f.slug, held.holdId, await codeOf(t.db, held.holdId))
    expect(res.statusCode, res.body).toBe(201)
    const rows = await queryRows<{ id: string }>(
      t.db,
      sql`select id from patients where phone = ${e164(mobile)}`,
    )
    expect(rows).toHaveLength(1)
    const [appt] = await queryRows<{ patient_id: string }>(
      t.db,
      sql`select patient_id from appointments where id = ${res.json<BookingConfirmation>().appointmentId}`,
    )
    expect(appt?.patient_id).toBe(created.json<{ id: string }>().id)
  })

  it('counts wrong codes: 5 tries, then the hold is spent (even for the right code)', async () => {
    const held = await hold()
    const code = await codeOf(t.db, held.holdId)
    const wrong = otherCode(code)
    for (const left of [4, 3, 2, 1]) {
      const res = await postConfirm(t, f.slug, held.holdId, wrong)
      expect(issuePaths(res)).toEqual(['code'])
      expect(res.json<{ message: string }>().message).toBe(
        `Wrong code. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
      )
    }
    const last = expectError(await postConfirm(t, f.slug, held.holdId, wrong), 400)
    expect(last.message).toMatch(/No tries left/)
    expect((await row(held.holdId))?.attempts).toBe(5)
    expect(expectError(await postConfirm(t, f.slug, held.holdId, code), 409).message).toBe(
      HOLD_SPENT,
    )
    expect((await row(held.holdId))?.confirmed_at).toBeNull()
  })

  it("refuses an expired hold, a forged hold id and another hospital's hold", async () => {
    const held = await hold()
    const code = await codeOf(t.db, held.holdId)
    await t.db.execute(
      sql`update booking_holds set expires_at = now() - interval '1 second' where id = ${held.holdId}`,
    )
    expect(expectError(await postConfirm(t, f.slug, held.holdId, code), 409).message).toBe(
      HOLD_EXPIRED,
    )

    const forged = '3f2b8c1e-9d4a-4e6b-8a7c-2b1d0e9f8a7b'
    expect(expectError(await postConfirm(t, f.slug, forged, '123456'), 404).message).toBe(
      HOLD_NOT_FOUND,
    )
    expectError(await postConfirm(t, f.slug, 'not-a-hold', '123456'), 404)
    expect(issuePaths(await postConfirm(t, f.slug, held.holdId, '12ab'))).toEqual(['code'])

    // Hospital B's page cannot confirm hospital A's hold, and A's hold is untouched.
    const other = await hold()
    const smile = await bookingFixture(t, 'smiledental', ['Dr. Kiran Rao', 'Dr. Farah Khan'])
    const otherCodeValue = await codeOf(t.db, other.holdId)
    expectError(await postConfirm(t, smile.slug, other.holdId, otherCodeValue), 404)
    expect((await row(other.holdId))?.attempts).toBe(0)
    expect((await row(other.holdId))?.confirmed_at).toBeNull()
  })

  it("refuses a taken slot (409 naming it), bad times, other hospitals' ids and unknown fields", async () => {
    const first = await hold()
    const startsAt = (
      await queryRows<{ s: Date }>(
        t.db,
        sql`select starts_at as s from booking_holds where id = ${first.holdId}`,
      )
    )[0]!.s
    const taken = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: f.doctors[0],
      startsAt: new Date(startsAt).toISOString(),
    })
    const body = expectError(taken, 409, 'CONFLICT')
    expect(body.message).toMatch(
      /^\d{1,2}:\d{2} (AM|PM)–\d{1,2}:\d{2} (AM|PM) on [A-Z][a-z]{2} \d{2}, \d{4} is no longer free/,
    )

    const base = { serviceId: opd.id, doctorId: f.doctors[0] }
    const past = new Date(Date.now() - 3_600_000).toISOString()
    expect(issuePaths(await postHold(t, f.slug, { ...base, startsAt: past }))).toEqual(['startsAt'])
    const offGrid = new Date(new Date(await freeStart()).getTime() + 7 * 60_000).toISOString()
    expect(issuePaths(await postHold(t, f.slug, { ...base, startsAt: offGrid }))).toEqual([
      'startsAt',
    ])
    const sunday = page.days.find((d) => !d.open)
    if (sunday) {
      expect(
        issuePaths(await postHold(t, f.slug, { ...base, startsAt: `${sunday.date}T05:30:00Z` })),
      ).toEqual(['startsAt'])
    }
    expect(
      issuePaths(
        await postHold(t, f.slug, { ...base, startsAt: await freeStart(), phone: '12345' }),
      ),
    ).toEqual(['phone'])
    expect(
      issuePaths(
        await postHold(t, f.slug, { ...base, startsAt: await freeStart(), role: 'admin' } as never),
      ),
    ).toEqual([''])

    const [theirService] = await queryRows<{ id: string }>(
      t.db,
      sql`select s.id from services s join hospitals h on h.id = s.hospital_id where h.email = 'hello@smiledental.demo' and s.bookable limit 1`,
    )
    expectError(
      await postHold(t, f.slug, {
        ...base,
        serviceId: theirService!.id,
        startsAt: await freeStart(),
      }),
      404,
    )
    const [theirDoctor] = await queryRows<{ id: string }>(
      t.db,
      sql`select u.id from users u join hospitals h on h.id = u.hospital_id where h.email = 'hello@smiledental.demo' and u.role = 'doctor' limit 1`,
    )
    expectError(
      await postHold(t, f.slug, {
        ...base,
        doctorId: theirDoctor!.id,
        startsAt: await freeStart(),
      }),
      404,
    )
  })

  it('holds for an opted-out mobile as for any other, but sends nothing and keeps no name or number', async () => {
    const mobile = freshMobile()
    await t.db.execute(sql`
      insert into consent_records (hospital_id, channel, contact_address, action, method)
      values (${f.hospitalId}, 'sms', ${e164(mobile)}, 'opt_out', 'keyword')`)
    const res = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: f.doctors[0],
      startsAt: await freeStart(),
      phone: mobile,
      name: 'Opted Out Visitor',
    })
    expect(res.statusCode, res.body).toBe(201)
    const held = res.json<BookingHold>()
    expect(held.sentTo).toMatch(/^\+91 98\d{3} •••\d{2}$/)
    const [stored] = await queryRows<{ name: string; phone: string }>(
      t.db,
      sql`select name, phone from booking_holds where id = ${held.holdId}`,
    )
    expect(stored).toEqual({ name: '', phone: '' })
    const messages = await queryRows(
      t.db,
      sql`select 1 from communications where booking_hold_id = ${held.holdId} or contact_address = ${e164(mobile)}`,
    )
    expect(messages).toHaveLength(0)
    const audit = await queryRows<{ summary: string }>(
      t.db,
      sql`select summary from audit_events where entity_id = ${held.holdId}`,
    )
    expect(audit.map((a) => a.summary).join(' ')).not.toMatch(/Opted Out Visitor|98\d{8}/)
  })
})
