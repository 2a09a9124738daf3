import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import {
  type CreateAppointmentInTx,
  createAppointmentInTx,
} from '../../src/server/modules/appointments/appointments.service'
import {
  defaultHospitalContext,
  type HospitalContext,
} from '../../src/server/modules/appointments/context'
import { formatDate, formatTime } from '../../src/shared/dates'
import type { CatalogueService } from '../../src/shared/schemas/billing'
import {
  addDoctor,
  addPatient,
  booking,
  call,
  dayFromToday,
  istInstant,
} from '../support/appointments'
import { billingCall } from '../support/billing'
import { expectError } from '../support/http'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-appointments-billing mutation part (stryker/groups.mjs, docs/decisions/024):
// createAppointmentInTx's own look-ups and defaults, called as the staff POST and the public
// booking page call it, and the audit wording of a booking and of a catalogue change.

let t: TestApp
let receptionist: string
let admin: string
let smileAdmin: string
let hospitalA: string
let hospitalB: string
let userA: string
let doctor: string
let patient: string
let patientName: string

beforeAll(async () => {
  t = await createTestApp()
  receptionist = await login(t.app, demoEmail('receptionist'))
  admin = await login(t.app, demoEmail('admin'))
  smileAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  userA = await userIdOf(t.db, demoEmail('receptionist'))
  doctor = await addDoctor(t.db, hospitalA, 'Dr. Kavitha Nair')
  patientName = 'Farhan Qureshi'
  patient = (await addPatient(t.db, hospitalA, { name: patientName })).id
})
afterAll(async () => {
  await t?.close()
})

const appointmentCount = async () =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from appointments where hospital_id = ${hospitalA}`,
    )
  )[0]?.n

const auditOf = async (entityId: string) =>
  queryRows<{ action: string; summary: string }>(
    t.db,
    sql`select action, summary from audit_events where entity_id = ${entityId} order by created_at`,
  )

let hour = 8
/** createAppointmentInTx in hospital A's tenant transaction, a fresh slot each call. */
function bookInTx(overrides: Partial<CreateAppointmentInTx> = {}) {
  hour += 1
  const startsAt = istInstant(dayFromToday(20), `${String(hour).padStart(2, '0')}:00`)
  return withTenant(t.db, { hospitalId: hospitalA, userId: userA }, (tx) =>
    createAppointmentInTx(tx, {
      hospitalId: hospitalA,
      userId: userA,
      patientId: patient,
      doctorId: doctor,
      serviceId: null,
      serviceType: 'Dental check-up',
      startsAt,
      durationMinutes: 30,
      notes: null,
      source: 'staff',
      leadId: null,
      doctorName: 'Dr. Kavitha Nair',
      ...overrides,
    }),
  )
}

async function leadOf(cookie: string, name: string, phone: string): Promise<string> {
  const res = await call(t, cookie, 'POST', '/api/leads', { name, phone })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { lead: { id: string } }).lead.id
}

describe('createAppointmentInTx: its look-ups', () => {
  it("answers 404 for another hospital's lead beside a patient, and books nothing", async () => {
    const theirLead = await leadOf(smileAdmin, 'Zoya Siddiqui', '+919812340077')
    const before = await appointmentCount()
    await expect(bookInTx({ leadId: theirLead })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Lead not found',
    })
    expect(await appointmentCount()).toBe(before)
    // This hospital's lead books, and is kept on the appointment.
    const ours = await leadOf(receptionist, 'Imran Shaikh', '+919812340078')
    expect((await bookInTx({ leadId: ours })).leadId).toBe(ours)
  })

  it("answers 404 for another hospital's service, by id alone or beside a service type", async () => {
    const [theirs] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from services where hospital_id = ${hospitalB} and active limit 1`,
    )
    if (!theirs) throw new Error('no service of the other hospital')
    const before = await appointmentCount()
    for (const serviceType of [null, 'Dental check-up']) {
      await expect(bookInTx({ serviceId: theirs.id, serviceType })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'Service not found',
      })
    }
    expect(await appointmentCount()).toBe(before)
  })

  it('refuses a booking with neither a service type nor a service (400 on serviceType)', async () => {
    const before = await appointmentCount()
    for (const serviceType of [null, undefined, '   ']) {
      await expect(bookInTx({ serviceType })).rejects.toMatchObject({
        code: 'VALIDATION',
        message: 'Invalid input: serviceType: Service type is required',
        issues: [{ path: 'serviceType', message: 'Service type is required' }],
      })
    }
    expect(await appointmentCount()).toBe(before)
  })

  it('trims the service type, and names an own service beside a type by the type', async () => {
    const [ours] = await queryRows<{ id: string; name: string }>(
      t.db,
      sql`select id, name from services where hospital_id = ${hospitalA} and active limit 1`,
    )
    if (!ours) throw new Error('no service')
    const a = await bookInTx({ serviceType: '  Root canal  ' })
    expect(a.serviceType).toBe('Root canal')
    const b = await bookInTx({ serviceId: ours.id, serviceType: 'Follow-up visit' })
    expect(b).toMatchObject({ serviceId: ours.id, serviceType: 'Follow-up visit' })
    const c = await bookInTx({ serviceId: ours.id, serviceType: null })
    expect(c.serviceType).toBe(ours.name)
  })
})

describe('createAppointmentInTx: its defaults and audit row', () => {
  it("writes the audit summary in the hospital's zone, '(online)' for the booking page", async () => {
    const london: HospitalContext = { ...defaultHospitalContext, timeZone: 'Europe/London' }
    const staff = await bookInTx({ hospital: london })
    const when = (zone: string) =>
      `${formatDate(staff.appointmentDate, zone)} ${formatTime(staff.appointmentDate, zone)}`
    expect(formatTime(staff.appointmentDate, 'Europe/London')).not.toBe(
      formatTime(staff.appointmentDate, 'Asia/Kolkata'),
    )
    expect(await auditOf(staff.id)).toEqual([
      {
        action: 'appointment.created',
        summary: `Booked Dental check-up for ${patientName} with Dr. Kavitha Nair on ${when('Europe/London')}`,
      },
    ])
    // No context: India's zone; the booking page's own source is named; no doctor name.
    const online = await bookInTx({ source: 'online', doctorName: undefined })
    expect(online.doctorName).toBeNull()
    const onlineWhen = `${formatDate(online.appointmentDate, 'Asia/Kolkata')} ${formatTime(online.appointmentDate, 'Asia/Kolkata')}`
    expect(await auditOf(online.id)).toEqual([
      {
        action: 'appointment.created',
        summary: `Booked Dental check-up for ${patientName} with The doctor on ${onlineWhen} (online)`,
      },
    ])
  })

  it("reckons the reminders from the caller's now, and names the doctor in them", async () => {
    const remindersOf = async (id: string) =>
      queryRows<{ message: string }>(
        t.db,
        sql`select message from reminders where appointment_id = ${id}`,
      )
    // A now after every reminder's due time: none is scheduled.
    const late = await bookInTx({ now: istInstant(dayFromToday(20), '23:30') })
    expect(await remindersOf(late.id)).toEqual([])
    // The real now (none given): the 24-hour and 2-hour reminders are ahead.
    const due = await bookInTx()
    const reminders = await remindersOf(due.id)
    expect(reminders.length).toBeGreaterThan(0)
    expect(reminders.some((r) => r.message.includes('Kavitha Nair'))).toBe(true)
  })
})

describe('POST /api/appointments: the audit row', () => {
  it('names the service, patient, doctor and IST time of a staff booking', async () => {
    const date = dayFromToday(21)
    const res = await call(
      t,
      receptionist,
      'POST',
      '/api/appointments',
      booking(doctor, patient, date, '16:30', { serviceType: 'Scaling' }),
    )
    expect(res.statusCode, res.body).toBe(201)
    const { id } = res.json() as { id: string }
    const at = istInstant(date, '16:30')
    expect(await auditOf(id)).toEqual([
      {
        action: 'appointment.created',
        summary: `Booked Scaling for ${patientName} with Dr. Kavitha Nair on ${formatDate(at)} ${formatTime(at)}`,
      },
    ])
  })
})

describe('the service catalogue: audit rows and another hospital', () => {
  it('audits an added and a changed service by name and changed fields', async () => {
    const created = await billingCall(t.app, admin, 'POST', '/api/services', {
      name: 'Dental X-ray (IOPA)',
      defaultPrice: 25_000,
      gstRate: 0,
    })
    expect(created.statusCode, created.body).toBe(201)
    const service = created.json<CatalogueService>()
    const patched = await billingCall(t.app, admin, 'PATCH', `/api/services/${service.id}`, {
      name: 'Dental X-ray',
      defaultPrice: 30_000,
    })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json<CatalogueService>()).toMatchObject({
      id: service.id,
      name: 'Dental X-ray',
      defaultPrice: 30_000,
      gstRate: 0,
      active: true,
    })
    expect(await auditOf(service.id)).toEqual([
      { action: 'service.created', summary: 'Added service Dental X-ray (IOPA)' },
      { action: 'service.updated', summary: 'Changed service Dental X-ray: name, defaultPrice' },
    ])
    // Another hospital: 404, the row unchanged and no audit row.
    expectError(
      await billingCall(t.app, smileAdmin, 'PATCH', `/api/services/${service.id}`, {
        name: 'Hijacked',
      }),
      404,
      'NOT_FOUND',
    )
    const [row] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from services where id = ${service.id}`,
    )
    expect(row?.name).toBe('Dental X-ray')
    expect(await auditOf(service.id)).toHaveLength(2)
  })
})

describe('createAppointmentInTx: the patient, a clash and the activity', () => {
  it('names an unknown patient in its 404', async () => {
    await expect(
      bookInTx({ patientId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Patient not found' })
  })

  it("names the doctor and the clashing appointment's slot in the hospital's zone", async () => {
    const date = dayFromToday(26)
    const first = await bookInTx({ startsAt: istInstant(date, '10:00') })
    const london: HospitalContext = { ...defaultHospitalContext, timeZone: 'Europe/London' }
    const clash = bookInTx({ startsAt: istInstant(date, '10:15'), hospital: london })
    const message = `Dr. Kavitha Nair already has an appointment from ${formatTime(first.appointmentDate, 'Europe/London')} to ${formatTime(istInstant(date, '10:30'), 'Europe/London')} on ${formatDate(first.appointmentDate, 'Europe/London')}.`
    await expect(clash).rejects.toMatchObject({
      code: 'APPOINTMENT_CLASH',
      message,
      issues: [{ path: 'time', message }],
    })
  })

  it('audits on the appointment, and records the activity for the staff member, or the doctor of an online booking', async () => {
    const activityOf = async (id: string) =>
      queryRows<{ user_id: string; activity_type: string; data: Record<string, unknown> }>(
        t.db,
        sql`select user_id, activity_type, data from activities where data->>'appointmentId' = ${id}`,
      )
    const lead = await leadOf(receptionist, 'Nisha Agarwal', '+919812340079')
    const staff = await bookInTx({ leadId: lead, startsAt: istInstant(dayFromToday(27), '09:00') })
    const [entity] = await queryRows<{ entity_type: string }>(
      t.db,
      sql`select entity_type from audit_events where entity_id = ${staff.id}`,
    )
    expect(entity?.entity_type).toBe('appointment')
    expect(await activityOf(staff.id)).toEqual([
      {
        user_id: userA,
        activity_type: 'appointment_scheduled',
        data: {
          appointmentId: staff.id,
          patientId: patient,
          patientName,
          serviceType: 'Dental check-up',
          startsAt: new Date(staff.appointmentDate).toISOString(),
          source: 'staff',
          leadId: lead,
        },
      },
    ])
    const online = await bookInTx({
      userId: null,
      source: 'online',
      startsAt: istInstant(dayFromToday(27), '11:00'),
    })
    expect(await activityOf(online.id)).toMatchObject([
      { user_id: doctor, data: { source: 'online', leadId: null } },
    ])
  })
})

describe('the service catalogue: what a change names', () => {
  it('names an unknown service in its 404, and audits a change on the service', async () => {
    const missing = await billingCall(
      t.app,
      admin,
      'PATCH',
      '/api/services/00000000-0000-4000-8000-000000000000',
      { name: 'Nothing' },
    )
    expect(expectError(missing, 404, 'NOT_FOUND').message).toBe('Service not found')
    const created = await billingCall(t.app, admin, 'POST', '/api/services', {
      name: 'Root canal (molar)',
      defaultPrice: 650_000,
      gstRate: 0,
    })
    const service = created.json<CatalogueService>()
    await billingCall(t.app, admin, 'PATCH', `/api/services/${service.id}`, {
      defaultPrice: 700_000,
    })
    const rows = await queryRows<{ entity_type: string }>(
      t.db,
      sql`select entity_type from audit_events where entity_id = ${service.id}`,
    )
    expect(rows.map((r) => r.entity_type)).toEqual(['service', 'service'])
  })
})
