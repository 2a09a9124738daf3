import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatDate } from '../../src/shared/dates'
import {
  addDoctor,
  addPatient,
  appointmentOf,
  booking,
  call,
  dayFromToday,
  istInstant,
  patch,
} from '../support/appointments'
import { expectError } from '../support/http'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 26: no double-booking. The exclusion constraint appointments_no_overlap decides, so it
// holds under concurrent requests (on PostgreSQL really concurrent, on PGlite serialised).

let t: TestApp
let receptionist: string
let nurse: string
let hospitalA: string
let patients: string[]

beforeAll(async () => {
  t = await createTestApp()
  receptionist = await login(t.app, demoEmail('receptionist'))
  nurse = await login(t.app, demoEmail('nurse'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  patients = []
  for (let i = 0; i < 20; i++) {
    patients.push((await addPatient(t.db, hospitalA, { name: `Patient ${i + 1}` })).id)
  }
})
afterAll(async () => {
  await t?.close()
})

const book = (body: unknown, cookie = receptionist) =>
  call(t, cookie, 'POST', '/api/appointments', body)

const activeOf = async (doctorId: string) =>
  queryRows<{ id: string }>(
    t.db,
    sql`select id from appointments where doctor_id = ${doctorId} and status in ('scheduled', 'confirmed')`,
  )

describe('no double-booking', () => {
  it('20 concurrent requests for one slot: exactly one 201, nineteen 409s naming the slot', async () => {
    const doctor = await addDoctor(t.db, hospitalA, 'Dr. Ananya Rao')
    const date = dayFromToday(2)
    const results = await Promise.all(
      patients.map((p, i) => book(booking(doctor, p, date, '10:00'), i % 2 ? nurse : receptionist)),
    )
    const created = results.filter((r) => r.statusCode === 201)
    const clashes = results.filter((r) => r.statusCode === 409)
    // Any other answer is shown with its body (a CI run once had one neither 201 nor 409).
    const other = results.filter((r) => r.statusCode !== 201 && r.statusCode !== 409)
    expect(other.map((r) => `${r.statusCode} ${r.body}`)).toEqual([])
    expect(created).toHaveLength(1)
    expect(clashes).toHaveLength(19)
    const message = `Dr. Ananya Rao already has an appointment from 10:00 AM to 10:30 AM on ${formatDate(istInstant(date, '10:00'))}.`
    for (const res of clashes)
      expect(expectError(res, 409, 'APPOINTMENT_CLASH').message).toBe(message)
    expect(await activeOf(doctor)).toHaveLength(1)
    // Only the winner left reminders and an audit row.
    const [counts] = await queryRows<{ reminders: number; audits: number }>(
      t.db,
      sql`select (select count(*)::int from reminders r join appointments a on a.hospital_id = r.hospital_id and a.id = r.appointment_id where a.doctor_id = ${doctor}) as reminders,
                 (select count(*)::int from audit_events where action = 'appointment.created' and entity_id in (select id::text from appointments where doctor_id = ${doctor})) as audits`,
    )
    expect(counts?.audits).toBe(1)
    expect(counts?.reminders).toBeGreaterThan(0)
  })

  it('refuses an overlapping slot but takes the adjacent one', async () => {
    const doctor = await addDoctor(t.db, hospitalA, 'Dr. Vikram Nair')
    const date = dayFromToday(3)
    appointmentOf(await book(booking(doctor, patients[0] ?? '', date, '10:00')), 201)
    const overlap = expectError(
      await book(booking(doctor, patients[1] ?? '', date, '10:15', { durationMinutes: 45 })),
      409,
      'APPOINTMENT_CLASH',
    )
    expect(overlap.message).toContain('from 10:00 AM to 10:30 AM')
    const before = expectError(
      await book(booking(doctor, patients[1] ?? '', date, '09:45')),
      409,
      'APPOINTMENT_CLASH',
    )
    expect(before.message).toContain('10:00 AM')
    appointmentOf(await book(booking(doctor, patients[1] ?? '', date, '10:30')), 201)
    appointmentOf(await book(booking(doctor, patients[2] ?? '', date, '09:30')), 201)
    expect(await activeOf(doctor)).toHaveLength(3)
  })

  it('lets two doctors take the same slot, concurrently', async () => {
    const one = await addDoctor(t.db, hospitalA, 'Dr. Sameer Joshi')
    const two = await addDoctor(t.db, hospitalA, 'Dr. Lakshmi Pillai')
    const date = dayFromToday(4)
    const [a, b] = await Promise.all([
      book(booking(one, patients[0] ?? '', date, '11:00')),
      book(booking(two, patients[1] ?? '', date, '11:00')),
    ])
    appointmentOf(a as NonNullable<typeof a>, 201)
    appointmentOf(b as NonNullable<typeof b>, 201)
  })

  it('frees the slot of a cancelled appointment (and of a completed one it is history)', async () => {
    const doctor = await addDoctor(t.db, hospitalA, 'Dr. Neha Gupta')
    const date = dayFromToday(5)
    const first = appointmentOf(await book(booking(doctor, patients[0] ?? '', date, '12:00')), 201)
    expectError(
      await book(booking(doctor, patients[1] ?? '', date, '12:00')),
      409,
      'APPOINTMENT_CLASH',
    )
    appointmentOf(
      await patch(t, receptionist, `/api/appointments/${first.id}`, { status: 'cancelled' }),
    )
    appointmentOf(await book(booking(doctor, patients[1] ?? '', date, '12:00')), 201)
  })

  it('refuses to reschedule into a taken slot and changes nothing', async () => {
    const doctor = await addDoctor(t.db, hospitalA, 'Dr. Imran Sheikh')
    const date = dayFromToday(6)
    appointmentOf(await book(booking(doctor, patients[0] ?? '', date, '15:00')), 201)
    const other = appointmentOf(await book(booking(doctor, patients[1] ?? '', date, '16:00')), 201)
    const res = await patch(t, receptionist, `/api/appointments/${other.id}`, { time: '15:15' })
    expect(expectError(res, 409, 'APPOINTMENT_CLASH').message).toContain('from 3:00 PM to 3:30 PM')
    const again = appointmentOf(await call(t, receptionist, 'GET', `/api/appointments/${other.id}`))
    expect(again.appointmentDate).toBe(other.appointmentDate)
    // Concurrent reschedules of two appointments into one free slot: one wins.
    const results = await Promise.all([
      patch(t, receptionist, `/api/appointments/${other.id}`, { time: '17:00' }),
      book(booking(doctor, patients[2] ?? '', date, '17:00')),
    ])
    const codes = results.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 409)).toHaveLength(1)
    expect(codes.filter((c) => c === 200 || c === 201)).toHaveLength(1)
    for (const r of results) if (r.statusCode === 409) expectError(r, 409, 'APPOINTMENT_CLASH')
    expect(await activeOf(doctor)).toHaveLength(results.some((r) => r.statusCode === 201) ? 3 : 2)
  })
})
