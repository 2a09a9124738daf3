import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BookingConfirmation, BookingPage } from '../../src/shared/schemas/booking'
import {
  type BookingFixture,
  bookingFixture,
  codeOf,
  e164,
  freshMobile,
  getPage,
  getSlots,
  laterOpenDay,
  postConfirm,
  postHold,
  serviceNamed,
} from '../support/booking'
import { createTestApp, queryRows, type TestApp } from '../support/test-app'

// Issue 40, item 10: the booking confirmation names the clinic's phone, and a confirmation
// message goes to the patient through the messaging outbox after the booking.

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

let pool: string[] = []
let dayIndex = 0
async function freeStart(): Promise<string> {
  while (pool.length === 0) {
    const day = await getSlots(t, f.slug, {
      serviceId: opd.id,
      doctorId: f.doctors[0],
      date: laterOpenDay(page, dayIndex++),
    })
    pool = day.slots.map((s) => s.startsAt)
  }
  return pool.shift() as string
}

async function book(channel: 'sms' | 'whatsapp', name: string) {
  const mobile = freshMobile()
  const held = await postHold(t, f.slug, {
    serviceId: opd.id,
    doctorId: f.doctors[0],
    startsAt: await freeStart(),
    phone: mobile,
    name,
    channel,
  })
  expect(held.statusCode, held.body).toBe(201)
  const holdId = held.json<{ holdId: string }>().holdId
  const res = await postConfirm(t, f.slug, holdId, await codeOf(t.db, holdId))
  expect(res.statusCode, res.body).toBe(201)
  return { booked: res.json<BookingConfirmation>(), phone: e164(mobile), holdId }
}

interface Sent {
  type: string
  content: string
  status: string
  patient_id: string | null
  booking_hold_id: string | null
  contact_address: string
  purpose: string | null
}
const sentTo = (phone: string) =>
  queryRows<Sent>(
    t.db,
    sql`select type, content, status, patient_id, booking_hold_id, contact_address,
          metadata->>'purpose' as purpose
        from communications where contact_address = ${phone} and direction = 'outbound'
        order by created_at`,
  )

describe('online booking confirmation', () => {
  it("names the clinic's phone and queues a confirmation to the patient by SMS", async () => {
    const { booked, phone } = await book('sms', 'Anita Kale')
    expect(booked.clinicPhone).toBe('+912025501234')
    expect(booked.confirmationSent).toBe(true)
    const messages = await sentTo(phone)
    const confirmation = messages.find((m) => m.purpose === 'booking_confirmation')
    expect(confirmation).toMatchObject({ type: 'sms', status: 'queued' })
    const [appt] = await queryRows<{ patient_id: string }>(
      t.db,
      sql`select patient_id from appointments where id = ${booked.appointmentId}`,
    )
    // On the patient's record, so Communication History shows it.
    expect(confirmation?.patient_id).toBe(appt?.patient_id)
    expect(confirmation?.content).toBe(
      `Your appointment at Sanjeevani Multispeciality Hospital, Pune is booked: ${booked.dateLabel} at ${booked.timeLabel}, OPD consultation with ${booked.doctorName}. To change or cancel it, call +91 20 2550 1234.`,
    )
  })

  it('confirms on WhatsApp too, as the code went, and says so when the clinic has no phone', async () => {
    await t.db.execute(sql`update hospitals set phone = null where id = ${f.hospitalId}`)
    const { booked, phone, holdId } = await book('whatsapp', 'Rohit Sawant')
    expect(booked.clinicPhone).toBeNull()
    expect(booked.confirmationSent).toBe(true)
    const confirmation = (await sentTo(phone)).find((m) => m.purpose === 'booking_confirmation')
    expect(confirmation?.type).toBe('whatsapp')
    // Linked to the patient, or (outside the 24-hour window) to the hold the code was for.
    expect(confirmation?.patient_id ?? confirmation?.booking_hold_id).toBeTruthy()
    if (!confirmation?.patient_id) expect(confirmation?.booking_hold_id).toBe(holdId)
    expect(confirmation?.content).toMatch(/To change or cancel it, please call the clinic\.$/)
  })

  it('books anyway when the number has opted out, and sends nothing', async () => {
    const mobile = freshMobile()
    const held = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: f.doctors[0],
      startsAt: await freeStart(),
      phone: mobile,
      name: 'Opted Out',
      channel: 'sms',
    })
    expect(held.statusCode, held.body).toBe(201)
    const holdId = held.json<{ holdId: string }>().holdId
    const code = await codeOf(t.db, holdId)
    // The number opts out after the code was sent.
    await t.db.execute(
      sql`insert into consent_records (hospital_id, channel, contact_address, action, method)
          values (${f.hospitalId}, 'sms', ${e164(mobile)}, 'opt_out', 'keyword')`,
    )
    const res = await postConfirm(t, f.slug, holdId, code)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json<BookingConfirmation>().confirmationSent).toBe(false)
    const confirmations = (await sentTo(e164(mobile))).filter(
      (m) => m.purpose === 'booking_confirmation',
    )
    expect(confirmations).toEqual([])
  })
})
