import { sql } from 'drizzle-orm'
import { parse as parseCsv } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ALREADY_ERASED_MESSAGE,
  ERASE_NAME_MESSAGE,
  ERASED_CONTENT,
  ERASED_NAME,
  EXPORT_CSV_HEADER,
  eraseResult,
  type PatientExport,
} from '../../src/shared/schemas/data-rights'
import { GRIEVANCE_EMAIL_MESSAGE } from '../../src/shared/schemas/hospital-settings'
import { patient as patientSchema } from '../../src/shared/schemas/patients'
import { getPage, setBookingPage, slugOf } from '../support/booking'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { type Fixture, fullPatient } from '../support/data-rights'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 27, patients' data rights (DPDP Act 2023): export one patient's record (JSON, CSV),
// erase a patient (admins), and the grievance contact in Settings and on the booking page.

let t: TestApp
let admin: string
let adminB: string
let hospitalA: string
const cookies = new Map<DemoRole, string>()

beforeAll(async () => {
  t = await createTestApp()
  for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const)
    cookies.set(role, await login(t.app, demoEmail(role)))
  admin = cookies.get('admin')!
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
})
afterAll(async () => {
  await t?.close()
})

const get = (cookie: string | undefined, url: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })
const post = (cookie: string | undefined, url: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: browserHeaders(cookie),
    payload: JSON.stringify(body),
  })

let f: Fixture
beforeAll(async () => {
  f = await fullPatient(t, admin, hospitalA)
})

describe('GET /api/patients/:id/export.json', () => {
  it('gives an admin everything held about the patient, and only theirs, audited', async () => {
    const res = await get(admin, `/api/patients/${f.id}/export.json`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="patient-.+\.json"/)
    expect(res.headers['cache-control']).toBe('no-store')
    const data = res.json<PatientExport>()
    expect(data.patient).toMatchObject({ id: f.id, name: f.name, allergies: 'Penicillin' })
    expect(data.patient).not.toHaveProperty('hospitalId')
    const [h] = await queryRows<{
      name: string
      grievance_name: string | null
      grievance_email: string | null
    }>(
      t.db,
      sql`select name, grievance_name, grievance_email from hospitals where id = ${hospitalA}`,
    )
    expect(h!.name).toBe('Sanjeevani Multispeciality Hospital, Pune')
    expect(data.hospital).toEqual({
      name: h!.name,
      grievanceName: h!.grievance_name,
      grievanceEmail: h!.grievance_email,
    })
    expect(data.appointments.map((a) => a.id)).toEqual([f.appointmentId])
    expect(data.appointments[0]).toMatchObject({ notes: 'Complains of migraine since March' })
    expect(data.invoices.map((i) => i.id)).toEqual([f.invoiceId])
    expect(data.invoiceLines).toEqual([
      expect.objectContaining({ invoiceId: f.invoiceId, name: 'OPD consultation' }),
    ])
    expect(data.payments).toEqual([
      expect.objectContaining({ invoiceId: f.invoiceId, method: 'upi', reference: 'UPI-4455' }),
    ])
    expect(data.communications.map((c) => c.content).sort()).toEqual([
      'Called about the knee',
      'Reminder for tomorrow 10 am',
      'Your MRI report is ready',
    ])
    expect(data.consents).toEqual([
      expect.objectContaining({ channel: 'whatsapp', action: 'opt_in', contactAddress: f.phone }),
    ])
    expect(data.leads).toEqual([
      expect.objectContaining({ id: f.leadId, notes: expect.any(String) }),
    ])
    expect(data.leads[0]).not.toHaveProperty('nameSearch')
    expect(data.audit.map((a) => a.entityId)).toContain(f.id)
    expect(data.audit.map((a) => a.entityId)).toContain(f.invoiceId)
    expect(JSON.stringify(data)).not.toContain(f.otherId)
    expect(JSON.stringify(data)).not.toContain('Someone else entirely')
    const [audit] = await queryRows<{ action: string; actor_user_id: string }>(
      t.db,
      sql`select action, actor_user_id from audit_events
          where entity_id = ${f.id} and action = 'patient.exported' order by created_at desc`,
    )
    expect(audit).toEqual({
      action: 'patient.exported',
      actor_user_id: await userIdOf(t.db, demoEmail('admin')),
    })
  })

  it('gives the same record as one CSV (Section, Record, Field, Value), formulas neutralised', async () => {
    await t.db.execute(
      sql`update patients set address = '=HYPERLINK("http://evil.test")' where id = ${f.id}`,
    )
    const res = await get(admin, `/api/patients/${f.id}/export.csv`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toMatch(/filename="patient-.+\.csv"/)
    const rows = parseCsv(res.body, { bom: true }) as string[][]
    expect(rows[0]).toEqual(EXPORT_CSV_HEADER)
    const value = (section: string, field: string) =>
      rows.filter((r) => r[0] === section && r[2] === field).map((r) => r[3])
    expect(value('patient', 'name')).toEqual([f.name])
    expect(value('patient', 'address')).toEqual([`'=HYPERLINK("http://evil.test")`])
    expect(value('invoices', 'id')).toEqual([f.invoiceId])
    expect(value('payments', 'reference')).toEqual(['UPI-4455'])
    expect(value('communications', 'content')).toHaveLength(3)
    expect(new Set(rows.slice(1).map((r) => r[0]))).toEqual(
      new Set([
        'hospital',
        'patient',
        'appointments',
        'invoices',
        'invoiceLines',
        'payments',
        'communications',
        'consents',
        'leads',
        'audit',
      ]),
    )
  })

  it('refuses every role but admin (403), signed out (401), another hospital (404), a bad id (400)', async () => {
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      for (const format of ['json', 'csv']) {
        const res = await get(cookies.get(role), `/api/patients/${f.id}/export.${format}`)
        expectError(res, 403, 'FORBIDDEN')
      }
    }
    expectError(await get(undefined, `/api/patients/${f.id}/export.json`), 401, 'UNAUTHENTICATED')
    expectError(await get(adminB, `/api/patients/${f.id}/export.json`), 404, 'NOT_FOUND')
    expectError(await get(adminB, `/api/patients/${f.id}/export.csv`), 404, 'NOT_FOUND')
    expectError(await get(admin, '/api/patients/not-a-uuid/export.json'), 400, 'VALIDATION')
    expectError(
      await get(await loginSuperAdmin(t.app), `/api/patients/${f.id}/export.json`),
      403,
      'FORBIDDEN',
    )
  })
})

describe('POST /api/patients/:id/erase', () => {
  it('refuses other roles (403), signed out (401), another hospital (404), bad bodies (400)', async () => {
    const url = `/api/patients/${f.id}/erase`
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const)
      expectError(await post(cookies.get(role), url, { confirmName: f.name }), 403, 'FORBIDDEN')
    expectError(await post(undefined, url, { confirmName: f.name }), 401, 'UNAUTHENTICATED')
    expectError(await post(adminB, url, { confirmName: f.name }), 404, 'NOT_FOUND')
    for (const body of [{}, { confirmName: '' }, { confirmName: 7 }, { confirmName: f.name, x: 1 }])
      expectError(await post(admin, url, body), 400, 'VALIDATION')
    const wrong = expectError(
      await post(admin, url, { confirmName: 'Someone Else' }),
      400,
      'VALIDATION',
    )
    expect(wrong.issues).toEqual([{ path: 'confirmName', message: ERASE_NAME_MESSAGE }])
    const [still] = await queryRows<{ name: string; erased_at: Date | null }>(
      t.db,
      sql`select name, erased_at from patients where id = ${f.id}`,
    )
    expect(still).toEqual({ name: f.name, erased_at: null })
  })

  it('anonymises the patient, keeps invoices with the name replaced, withdraws consents, audits counts', async () => {
    const res = await post(admin, `/api/patients/${f.id}/erase`, {
      confirmName: `  ${f.name.toUpperCase()} `,
    })
    expect(res.statusCode, res.body).toBe(200)
    const result = eraseResult.strict().parse(res.json())
    expect(result.counts).toEqual({
      appointments: 1,
      invoices: 1,
      communications: 3,
      consentsWithdrawn: 4,
      leads: 1,
      reminders: 0,
      bookingHolds: 0,
    })
    const [p] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select name, phone, email, gender, date_of_birth, address, emergency_contact,
            insurance_provider, insurance_number, medical_history, allergies, abha_number,
            erased_at is not null as erased, erased_by
          from patients where id = ${f.id}`,
    )
    expect(p).toEqual({
      name: ERASED_NAME,
      phone: '',
      email: null,
      gender: null,
      date_of_birth: null,
      address: null,
      emergency_contact: null,
      insurance_provider: null,
      insurance_number: null,
      medical_history: null,
      allergies: null,
      abha_number: null,
      erased: true,
      erased_by: await userIdOf(t.db, demoEmail('admin')),
    })
    const invoices = await queryRows<{ patient_name: string; amount_paid: string }>(
      t.db,
      sql`select patient_name, amount_paid::text from invoices where id = ${f.invoiceId}`,
    )
    expect(invoices).toEqual([{ patient_name: ERASED_NAME, amount_paid: '50000' }])
    const appts = await queryRows(
      t.db,
      sql`select notes, cancel_reason, status from appointments where id = ${f.appointmentId}`,
    )
    expect(appts).toEqual([{ notes: null, cancel_reason: null, status: 'cancelled' }])
    const messages = await queryRows<{
      content: string
      status: string
      contact_address: string | null
    }>(
      t.db,
      sql`select content, status, contact_address from communications
          where patient_id = ${f.id} or lead_id = ${f.leadId} order by content`,
    )
    expect(messages.map((m) => m.content)).toEqual([ERASED_CONTENT, ERASED_CONTENT, ERASED_CONTENT])
    expect(messages.map((m) => m.status).sort()).toEqual(['failed', 'logged', 'sent'])
    expect(messages.every((m) => m.contact_address === null)).toBe(true)
    const [others] = await queryRows<{ content: string }>(
      t.db,
      sql`select content from communications where patient_id = ${f.otherId}`,
    )
    expect(others?.content).toBe('Someone else entirely')
    const [lead] = await queryRows(
      t.db,
      sql`select name, phone, email, notes from leads where id = ${f.leadId}`,
    )
    // The phone: unique per lead (one lead per phone per hospital), with no digits of anyone's.
    expect(lead).toEqual({
      name: ERASED_NAME,
      phone: expect.stringMatching(/^erased-[a-p]{32}$/),
      email: null,
      notes: null,
    })
    // Consent records are kept; the newest on each channel is now a withdrawal.
    const consents = await queryRows<{ channel: string; action: string }>(
      t.db,
      sql`select distinct on (channel, contact_address) channel, action from consent_records
          where hospital_id = ${hospitalA}
            and contact_address in (${f.phone}, ${f.email}, ${f.leadEmail})
          order by channel, contact_address, created_at desc`,
    )
    expect(consents.map((c) => c.action)).toEqual(['opt_out', 'opt_out', 'opt_out', 'opt_out'])
    const [{ n }] = (await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from consent_records
          where contact_address = ${f.phone} and action = 'opt_in'`,
    )) as [{ n: number }]
    expect(n).toBe(1)
    // The audit row: who, what and the counts; no name, phone or email.
    const audits = await queryRows<{ summary: string; entity_type: string }>(
      t.db,
      sql`select summary, entity_type from audit_events
          where entity_id = ${f.id} and action = 'patient.erased'`,
    )
    expect(audits).toHaveLength(1)
    const summary = audits[0]!.summary
    const [{ number }] = (await queryRows<{ number: string }>(
      t.db,
      sql`select patient_number as number from patients where id = ${f.id}`,
    )) as [{ number: string }]
    expect(audits[0]!.entity_type).toBe('patient')
    expect(summary).toBe(
      `Erased patient ${number} at their request: 1 appointment kept ` +
        'without notes, 1 invoice kept with the name replaced, 3 messages redacted, ' +
        '4 consents withdrawn, 1 lead anonymised, 0 reminders cleared',
    )
    for (const personal of [f.name, f.phone, f.phone.slice(3), 'lakshmi', 'Penicillin'])
      expect(summary.toLowerCase()).not.toContain(personal.toLowerCase())
    // The API shows the erased patient.
    const after = patientSchema.strict().parse((await get(admin, `/api/patients/${f.id}`)).json())
    expect(after).toMatchObject({ name: ERASED_NAME, phone: '', email: null })
    expect(after.erasedAt).toEqual(result.erasedAt)
  })

  it('erases a second patient with a lead in the same hospital (two erased leads coexist)', async () => {
    const second = await fullPatient(t, admin, hospitalA)
    const res = await post(admin, `/api/patients/${second.id}/erase`, { confirmName: second.name })
    expect(res.statusCode, res.body).toBe(200)
    const rows = await queryRows<{ phone: string }>(
      t.db,
      sql`select phone from leads where id in (${f.leadId}, ${second.leadId})`,
    )
    expect(new Set(rows.map((r) => r.phone)).size).toBe(2)
    const listed = await queryRows<{ patient_id: string; lead_ids: string[] }>(
      t.db,
      sql`select patient_id, lead_ids from erased_patients where hospital_id = ${hospitalA}
          and patient_id in (${f.id}, ${second.id}) order by erased_at`,
    )
    expect(listed).toEqual([
      { patient_id: f.id, lead_ids: [f.leadId] },
      { patient_id: second.id, lead_ids: [second.leadId] },
    ])
  })

  it('answers a second erase with 409 and changes nothing', async () => {
    const audits = async () =>
      (
        await queryRows(
          t.db,
          sql`select 1 from audit_events where entity_id = ${f.id} and action = 'patient.erased'`,
        )
      ).length
    const before = await audits()
    const res = await post(admin, `/api/patients/${f.id}/erase`, { confirmName: ERASED_NAME })
    expect(expectError(res, 409, 'CONFLICT').message).toBe(ALREADY_ERASED_MESSAGE)
    expect(await audits()).toBe(before)
  })
})

describe('the grievance contact', () => {
  const URL = '/api/hospital/settings'
  const patch = (cookie: string | undefined, body: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: URL,
      headers: browserHeaders(cookie),
      payload: JSON.stringify(body),
    })

  it('refuses a bad email (400) and a non-admin (403), saves and clears it', async () => {
    const bad = expectError(
      await patch(admin, { grievanceName: 'Dr. Farah Khan', grievanceEmail: 'not-an-email' }),
      400,
      'VALIDATION',
    )
    expect(bad.issues).toEqual([{ path: 'grievanceEmail', message: GRIEVANCE_EMAIL_MESSAGE }])
    expectError(
      await patch(cookies.get('receptionist'), { grievanceEmail: 'dpo@sanjeevani.in' }),
      403,
      'FORBIDDEN',
    )
    const ok = await patch(admin, {
      grievanceName: ' Dr. Farah Khan ',
      grievanceEmail: 'DPO@Sanjeevani.in',
    })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json()).toMatchObject({
      grievanceName: 'Dr. Farah Khan',
      grievanceEmail: 'dpo@sanjeevani.in',
    })
    const read = await get(cookies.get('viewer'), URL)
    expect(read.json()).toMatchObject({ grievanceEmail: 'dpo@sanjeevani.in' })
  })

  it('appears in the public booking page’s data (inlined in /book/<slug> too)', async () => {
    await setBookingPage(t.db, hospitalA, { enabled: true })
    const slug = await slugOf(t.db, hospitalA)
    const page = await getPage(t, slug)
    expect(page.hospital.grievance).toEqual({
      name: 'Dr. Farah Khan',
      email: 'dpo@sanjeevani.in',
    })
    const cleared = await patch(admin, { grievanceName: '', grievanceEmail: null })
    expect(cleared.json()).toMatchObject({ grievanceName: null, grievanceEmail: null })
    expect((await getPage(t, slug)).hospital.grievance).toBeNull()
  })
})
