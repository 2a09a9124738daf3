import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appointmentAvailability } from '../../src/shared/schemas/appointments'
import { TOTAL_COUNT_HEADER } from '../../src/shared/total-count'
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
import {
  getPage,
  getSlots,
  laterOpenDay,
  postHold,
  serviceNamed,
  setBookingPage,
  slugOf,
} from '../support/booking'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 40, items 4, 6 and 12 (server side): Completed and No-show only once an appointment has
// started; a completed (or no-show) appointment keeps its slot for the clash check, the staff
// time list and the public booking page; the list's upcoming/past pages; the availability read.

let t: TestApp
let receptionist: string
let receptionistB: string
let hospitalA: string
let doctor: string
let patient: string

beforeAll(async () => {
  t = await createTestApp()
  receptionist = await login(t.app, demoEmail('receptionist'))
  receptionistB = await login(t.app, demoEmail('receptionist', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  doctor = await addDoctor(t.db, hospitalA, 'Dr. Kiran Joshi')
  patient = (await addPatient(t.db, hospitalA, { name: 'Sunita Pawar' })).id
})
afterAll(async () => {
  await t?.close()
})

const book = (body: unknown, cookie = receptionist) =>
  call(t, cookie, 'POST', '/api/appointments', body)

/** An appointment written as it stands (the state earlier releases could leave behind). */
async function insertAppointment(o: {
  doctorId?: string
  startsAt: Date
  minutes?: number
  status: string
}): Promise<string> {
  const minutes = o.minutes ?? 30
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`insert into appointments (hospital_id, patient_id, doctor_id, service_type, starts_at,
          ends_at, duration_minutes, status)
        values (${hospitalA}, ${patient}, ${o.doctorId ?? doctor}, 'OPD consultation',
          ${o.startsAt.toISOString()}::timestamptz,
          ${o.startsAt.toISOString()}::timestamptz + make_interval(mins => ${minutes}),
          ${minutes}, ${o.status})
        returning id`,
  )
  if (!row) throw new Error('no appointment')
  return row.id
}

describe('Completed and No-show only once the appointment has started', () => {
  it('refuses both before the start with a 409 that says why, and allows them after', async () => {
    const a = appointmentOf(await book(booking(doctor, patient, dayFromToday(6), '10:00')), 201)
    const url = `/api/appointments/${a.id}`
    appointmentOf(await patch(t, receptionist, url, { status: 'confirmed' }))
    const early = expectError(
      await patch(t, receptionist, url, { status: 'completed' }),
      409,
      'INVALID_TRANSITION',
    )
    expect(early.message).toBe(
      'Cannot change an appointment from confirmed to completed before its start time.',
    )
    const noShow = expectError(
      await patch(t, receptionist, url, { status: 'no-show' }),
      409,
      'INVALID_TRANSITION',
    )
    expect(noShow.message).toContain('before its start time')
    expect(appointmentOf(await call(t, receptionist, 'GET', url)).status).toBe('confirmed')

    // Started 20 minutes ago: Complete works.
    const running = await insertAppointment({
      startsAt: new Date(Date.now() - 20 * 60_000),
      minutes: 60,
      status: 'confirmed',
    })
    const done = appointmentOf(
      await patch(t, receptionist, `/api/appointments/${running}`, { status: 'completed' }),
    )
    expect(done.status).toBe('completed')
    // It keeps the rest of its hour: the doctor cannot be booked into it.
    const later = new Date(Date.now() + 30 * 60_000)
    const availability = appointmentAvailability.parse(
      (
        await call(
          t,
          receptionist,
          'GET',
          `/api/appointments/availability?doctorId=${doctor}&date=${dayFromToday(0)}`,
        )
      ).json(),
    )
    expect(
      availability.busy.some(
        (b) => Date.parse(b.startsAt) <= later.getTime() && Date.parse(b.endsAt) > later.getTime(),
      ),
    ).toBe(true)
  })
})

describe('a completed appointment keeps its slot', () => {
  it('for the clash check, the staff time list and the public booking page', async () => {
    const slug = await slugOf(t.db, hospitalA)
    await setBookingPage(t.db, hospitalA, { enabled: true, doctorIds: [doctor] })
    const page = await getPage(t, slug)
    const opd = serviceNamed(page, 'OPD consultation')
    const date = laterOpenDay(page, 2)
    await insertAppointment({ startsAt: istInstant(date, '10:00'), status: 'completed' })
    await insertAppointment({ startsAt: istInstant(date, '11:00'), status: 'no-show' })
    await insertAppointment({ startsAt: istInstant(date, '12:00'), status: 'cancelled' })

    // Staff: a booking into it is a clash naming the completed appointment's slot.
    const clash = expectError(
      await book(booking(doctor, patient, date, '10:15', { durationMinutes: 15 })),
      409,
      'APPOINTMENT_CLASH',
    )
    expect(clash.message).toContain('from 10:00 AM to 10:30 AM')
    expectError(await book(booking(doctor, patient, date, '11:00')), 409, 'APPOINTMENT_CLASH')
    appointmentOf(await book(booking(doctor, patient, date, '12:00')), 201)

    // A reschedule into it is refused too.
    const other = appointmentOf(await book(booking(doctor, patient, date, '15:00')), 201)
    expectError(
      await patch(t, receptionist, `/api/appointments/${other.id}`, { date, time: '10:00' }),
      409,
      'APPOINTMENT_CLASH',
    )

    // The staff time list: the day's taken times, completed and no-show included.
    const res = await call(
      t,
      receptionist,
      'GET',
      `/api/appointments/availability?doctorId=${doctor}&date=${date}`,
    )
    expect(res.statusCode, res.body).toBe(200)
    const busy = appointmentAvailability.strict().parse(res.json()).busy
    const starts = busy.map((b) => b.startsAt)
    expect(starts).toContain(istInstant(date, '10:00').toISOString())
    expect(starts).toContain(istInstant(date, '11:00').toISOString())
    expect(starts).toContain(istInstant(date, '12:00').toISOString()) // booked after the cancel
    expect(busy.filter((b) => b.startsAt === istInstant(date, '12:00').toISOString())).toHaveLength(
      1,
    )
    // Editing: the appointment's own time is not counted against it.
    const except = await call(
      t,
      receptionist,
      'GET',
      `/api/appointments/availability?doctorId=${doctor}&date=${date}&exceptId=${other.id}`,
    )
    expect(appointmentAvailability.parse(except.json()).busy.map((b) => b.startsAt)).not.toContain(
      istInstant(date, '15:00').toISOString(),
    )

    // The public booking page never offers it, and a hold on it is refused.
    const day = await getSlots(t, slug, { serviceId: opd.id, doctorId: doctor, date })
    const labels = day.slots.map((s) => s.label)
    expect(labels).not.toContain('10:00 AM')
    expect(labels).not.toContain('11:00 AM')
    expect(labels).toContain('9:30 AM')
    const hold = await postHold(t, slug, {
      serviceId: opd.id,
      doctorId: doctor,
      startsAt: istInstant(date, '10:00').toISOString(),
    })
    expect(hold.statusCode, hold.body).toBe(409)
  })

  it('refuses bad availability queries (400) and shows nothing of another hospital', async () => {
    expect(
      issuePaths(await call(t, receptionist, 'GET', '/api/appointments/availability?date=x')),
    ).toEqual(['date', 'doctorId'])
    const date = dayFromToday(4)
    await insertAppointment({ startsAt: istInstant(date, '10:00'), status: 'scheduled' })
    const res = await call(
      t,
      receptionistB,
      'GET',
      `/api/appointments/availability?doctorId=${doctor}&date=${date}`,
    )
    expect(res.statusCode).toBe(200)
    expect(appointmentAvailability.parse(res.json()).busy).toEqual([])
  })
})

describe('GET /api/appointments: upcoming and past pages', () => {
  it('pages today and later soonest first, and the past latest first, with the total', async () => {
    const d = await addDoctor(t.db, hospitalA, 'Dr. Paging Test')
    const today = dayFromToday(0)
    const ids = {
      lastWeek: await insertAppointment({
        doctorId: d,
        startsAt: istInstant(dayFromToday(-7), '10:00'),
        status: 'completed',
      }),
      yesterday: await insertAppointment({
        doctorId: d,
        startsAt: istInstant(dayFromToday(-1), '10:00'),
        status: 'no-show',
      }),
      earlyToday: await insertAppointment({
        doctorId: d,
        startsAt: istInstant(today, '00:05'),
        status: 'scheduled',
      }),
      tomorrow: await insertAppointment({
        doctorId: d,
        startsAt: istInstant(dayFromToday(1), '09:00'),
        status: 'scheduled',
      }),
      nextWeek: await insertAppointment({
        doctorId: d,
        startsAt: istInstant(dayFromToday(7), '09:00'),
        status: 'confirmed',
      }),
    }
    const list = async (query: string) => {
      const res = await call(t, receptionist, 'GET', `/api/appointments?doctorId=${d}&${query}`)
      expect(res.statusCode, res.body).toBe(200)
      const body = res.json<{ id: string }[]>()
      expect(Array.isArray(body)).toBe(true)
      return { ids: body.map((a) => a.id), total: res.headers[TOTAL_COUNT_HEADER] }
    }
    expect(await list('when=upcoming&limit=2')).toEqual({
      ids: [ids.earlyToday, ids.tomorrow],
      total: '3',
    })
    expect(await list('when=upcoming&limit=2&page=2')).toEqual({ ids: [ids.nextWeek], total: '3' })
    expect(await list('when=past&limit=1')).toEqual({ ids: [ids.yesterday], total: '2' })
    expect(await list('when=past&limit=1&page=2')).toEqual({ ids: [ids.lastWeek], total: '2' })
    expect(await list('when=upcoming&status=confirmed')).toEqual({
      ids: [ids.nextWeek],
      total: '1',
    })
    // No new parameter: the spec's array by start, no total.
    expect(await list('limit=500')).toEqual({
      ids: [ids.lastWeek, ids.yesterday, ids.earlyToday, ids.tomorrow, ids.nextWeek],
      total: undefined,
    })
    expect(issuePaths(await call(t, receptionist, 'GET', '/api/appointments?when=soon'))).toEqual([
      'when',
    ])
    expect(issuePaths(await call(t, receptionist, 'GET', '/api/appointments?page=0'))).toEqual([
      'page',
    ])
  })
})
