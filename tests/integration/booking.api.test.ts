import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAGE_NOT_FOUND } from '../../src/server/modules/booking/booking.queries'
import { BOOKING_DAYS_AHEAD } from '../../src/shared/scheduling'
import {
  type BookingFixture,
  bookingFixture,
  getPage,
  getSlots,
  laterOpenDay,
  postHold,
  publicGet,
  serviceNamed,
  setBookingPage,
} from '../support/booking'
import { expectError, issuePaths } from '../support/http'
import { createTestApp, hospitalIdOf, queryRows, type TestApp } from '../support/test-app'

let t: TestApp
let f: BookingFixture
beforeAll(async () => {
  t = await createTestApp()
  f = await bookingFixture(t)
})
afterAll(async () => {
  await t?.close()
})

async function patientOf(hospitalId: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select id from patients where hospital_id = ${hospitalId} order by created_at limit 1`,
  )
  if (!row) throw new Error('no patient')
  return row.id
}

async function addAppointment(
  doctorId: string,
  startsAt: string,
  minutes: number,
  status = 'scheduled',
) {
  const patientId = await patientOf(f.hospitalId)
  await t.db.execute(sql`
    insert into appointments (hospital_id, patient_id, doctor_id, service_type, starts_at, ends_at,
      duration_minutes, status)
    values (${f.hospitalId}, ${patientId}, ${doctorId}, 'OPD consultation', ${startsAt}::timestamptz,
      ${startsAt}::timestamptz + make_interval(mins => ${minutes}), ${minutes}, ${status})`)
}

describe('GET /api/public/booking/:slug', () => {
  it('shows the hospital, its bookable services, the offered doctors and the next 14 days', async () => {
    const page = await getPage(t, f.slug)
    expect(page.hospital.name).toBe('Sanjeevani Multispeciality Hospital, Pune')
    expect(page.hospital.timeZone).toBe('Asia/Kolkata')
    expect(page.doctors.map((d) => d.name)).toEqual(['Dr. Arjun Shetty', 'Dr. Meera Kulkarni'])
    const names = page.services.map((s) => s.name)
    expect(names).toContain('OPD consultation')
    // Not bookable online (services.bookable false) and inactive services are left out.
    expect(names).not.toContain('Lipid profile')
    expect(names).not.toContain('Knee brace')
    expect(page.days).toHaveLength(BOOKING_DAYS_AHEAD)
    // Sunday is closed by default.
    for (const d of page.days) {
      expect(d.open).toBe(new Date(`${d.date}T12:00:00Z`).getUTCDay() !== 0)
    }
    expect(page.holdMinutes).toBe(5)
  })

  it('offers every active doctor when the page lists none', async () => {
    await setBookingPage(t.db, f.hospitalId, { enabled: true, doctorIds: [] })
    try {
      const page = await getPage(t, f.slug)
      expect(page.doctors.map((d) => d.name)).toEqual(
        expect.arrayContaining(['Dr. Arjun Shetty', 'Dr. Meera Kulkarni', 'Dr. Rajesh Iyer']),
      )
    } finally {
      await setBookingPage(t.db, f.hospitalId, { enabled: true, doctorIds: f.doctors })
    }
  })

  it('answers the same 404 for a page that is off and a slug that does not exist', async () => {
    await setBookingPage(t.db, f.hospitalId, { enabled: false, doctorIds: f.doctors })
    try {
      const off = expectError(await publicGet(t, `/api/public/booking/${f.slug}`), 404, 'NOT_FOUND')
      const unknown = expectError(await publicGet(t, '/api/public/booking/no-such-clinic'), 404)
      const odd = expectError(await publicGet(t, '/api/public/booking/%27%3B--'), 404)
      expect(off.message).toBe(PAGE_NOT_FOUND)
      expect(unknown).toEqual(off)
      expect(odd).toEqual(off)
      // Slots and holds of a page that is off are refused too.
      const page404 = await postHold(t, f.slug, {
        serviceId: '00000000-0000-4000-8000-000000000000',
        doctorId: null,
        startsAt: new Date(Date.now() + 86_400_000).toISOString(),
      })
      expectError(page404, 404)
    } finally {
      await setBookingPage(t.db, f.hospitalId, { enabled: true, doctorIds: f.doctors })
    }
  })
})

describe('GET /api/public/booking/:slug/slots', () => {
  it('lists a 15-minute grid within working hours, in the hospital zone', async () => {
    const page = await getPage(t, f.slug)
    const opd = serviceNamed(page, 'OPD consultation')
    const date = laterOpenDay(page)
    const day = await getSlots(t, f.slug, { serviceId: opd.id, doctorId: f.doctors[0], date })
    expect(day.open).toBe(true)
    // 09:00-20:00 IST, 15 minutes: 44 starts, the first at 09:00 IST (03:30 UTC).
    expect(day.slots).toHaveLength(44)
    expect(day.slots[0]).toEqual({ startsAt: `${date}T03:30:00.000Z`, label: '9:00 AM' })
    expect(day.slots.at(-1)?.label).toBe('7:45 PM')
  })

  it('a longer service ends by closing time', async () => {
    const page = await getPage(t, f.slug)
    const long = page.services.find((s) => s.durationMinutes === 30)
    if (!long) throw new Error('no 30-minute service')
    const day = await getSlots(t, f.slug, {
      serviceId: long.id,
      doctorId: f.doctors[0],
      date: laterOpenDay(page),
    })
    expect(day.slots.at(-1)?.label).toBe('7:30 PM')
  })

  it('excludes booked, held and past times, and closed days', async () => {
    const page = await getPage(t, f.slug)
    const opd = serviceNamed(page, 'OPD consultation')
    const date = laterOpenDay(page, 1)
    const [a] = f.doctors
    await addAppointment(a, `${date}T04:30:00Z`, 30) // 10:00-10:30 IST
    await addAppointment(a, `${date}T06:30:00Z`, 15, 'cancelled') // frees its time
    const held = await postHold(t, f.slug, {
      serviceId: opd.id,
      doctorId: a,
      startsAt: `${date}T05:30:00Z`,
    })
    expect(held.statusCode, held.body).toBe(201)
    const day = await getSlots(t, f.slug, { serviceId: opd.id, doctorId: a, date })
    const labels = day.slots.map((s) => s.label)
    expect(labels).not.toContain('10:00 AM')
    expect(labels).not.toContain('10:15 AM')
    expect(labels).not.toContain('11:00 AM') // held
    expect(labels).toContain('9:45 AM')
    expect(labels).toContain('10:30 AM')
    expect(labels).toContain('12:00 PM') // the cancelled appointment's time
    // "Any doctor": the other doctor is free at 10:00.
    const any = await getSlots(t, f.slug, { serviceId: opd.id, doctorId: 'any', date })
    expect(any.slots.map((s) => s.label)).toContain('10:00 AM')

    const sunday = page.days.find((d) => !d.open)
    if (sunday) {
      const closed = await getSlots(t, f.slug, {
        serviceId: opd.id,
        doctorId: 'any',
        date: sunday.date,
      })
      expect(closed).toMatchObject({ open: false, slots: [] })
    }
    const today = await getSlots(t, f.slug, {
      serviceId: opd.id,
      doctorId: 'any',
      date: page.days[0]!.date,
    })
    for (const s of today.slots) expect(new Date(s.startsAt).getTime()).toBeGreaterThan(Date.now())
  })

  it("refuses bad queries, far days and other hospitals' services and doctors", async () => {
    const page = await getPage(t, f.slug)
    const opd = serviceNamed(page, 'OPD consultation')
    const base = `/api/public/booking/${f.slug}/slots`
    const date = laterOpenDay(page)
    expect(
      issuePaths(await publicGet(t, `${base}?serviceId=${opd.id}&doctorId=any&date=${date}&x=1`)),
    ).toEqual(['query'])
    expect(
      issuePaths(await publicGet(t, `${base}?serviceId=nope&doctorId=any&date=2026-02-30`)),
    ).toEqual(['date', 'serviceId'])
    const far = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)
    expect(
      issuePaths(await publicGet(t, `${base}?serviceId=${opd.id}&doctorId=any&date=${far}`)),
    ).toEqual(['date'])

    const smile = await hospitalIdOf(t.db, 'smiledental')
    const [theirs] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from services where hospital_id = ${smile} and bookable limit 1`,
    )
    const [theirDoctor] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from users where hospital_id = ${smile} and role = 'doctor' limit 1`,
    )
    expectError(
      await publicGet(t, `${base}?serviceId=${theirs!.id}&doctorId=any&date=${date}`),
      404,
    )
    expectError(
      await publicGet(t, `${base}?serviceId=${opd.id}&doctorId=${theirDoctor!.id}&date=${date}`),
      404,
    )
    // A doctor of this hospital the page does not offer.
    const [iyer] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from users where hospital_id = ${f.hospitalId} and name = 'Dr. Rajesh Iyer'`,
    )
    expectError(
      await publicGet(t, `${base}?serviceId=${opd.id}&doctorId=${iyer!.id}&date=${date}`),
      404,
    )
  })
})

describe('GET /book/:slug (the page itself)', () => {
  it('serves the page with its title and data (200), or its 404 state when off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'booking-client-'))
    writeFileSync(join(dir, 'index.html'), readFileSync('src/client/index.html', 'utf8'))
    const withClient = await createTestApp({ clientDir: dir })
    try {
      const g = await bookingFixture(withClient)
      const res = await withClient.app.inject({ method: 'GET', url: `/book/${g.slug}` })
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain(
        '<title>Book an appointment · Sanjeevani Multispeciality Hospital, Pune</title>',
      )
      expect(res.body).toContain('<meta name="arogya-session" content="none" />')
      // The header is painted before any script runs.
      expect(res.body).toMatch(
        /<div id="root"><div [^>]*><header [^>]*>.*<h1 [^>]*>Sanjeevani Multispeciality Hospital, Pune<\/h1>/,
      )
      const data = res.body.match(
        /<script id="booking-data" type="application\/json">(.*?)<\/script>/,
      )?.[1]
      expect(JSON.parse(data ?? '{}')).toMatchObject({ hospital: { slug: g.slug } })
      await setBookingPage(withClient.db, g.hospitalId, { enabled: false })
      const off = await withClient.app.inject({ method: 'GET', url: `/book/${g.slug}` })
      expect(off.statusCode).toBe(404)
      expect(off.body).toContain('<title>Booking page not available · Arogya CRM</title>')
      expect(off.body).not.toContain('booking-data')
      expect((await withClient.app.inject({ method: 'GET', url: '/book/nobody' })).statusCode).toBe(
        404,
      )
    } finally {
      await withClient.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
