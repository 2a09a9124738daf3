import { sql } from 'drizzle-orm'
import { expect } from 'vitest'
import { patient as patientSchema } from '../../src/shared/schemas/patients'
import { addDoctor } from './appointments'
import { billingCall, createInvoice, invoicePayload } from './billing'
import { browserHeaders } from './login'
import { createPatient, manualPatientPayload } from './patients'
import { queryRows, type TestApp } from './test-app'

/* The patient of tests/integration/patients-data-rights.api.test.ts (issue 27, DPDP). */

export interface Fixture {
  id: string
  name: string
  phone: string
  email: string
  leadEmail: string
  leadId: string
  appointmentId: string
  invoiceId: string
  otherId: string
}

let seq = 0

/** A patient with everything: appointment, invoice paid by UPI, messages, consent, lead. */
export async function fullPatient(t: TestApp, admin: string, hospitalA: string): Promise<Fixture> {
  seq += 1
  const mobile = `99${String(Date.now() % 10_000_000).padStart(7, '0')}${seq % 10}`
  const name = `Lakshmi Iyer ${seq}`
  const created = await createPatient(
    t.app,
    admin,
    manualPatientPayload({ name, phone: mobile, email: `lakshmi.${seq}@example.in` }),
  )
  expect(created.statusCode, created.body).toBe(201)
  const p = patientSchema.parse(created.json())
  const other = await createPatient(
    t.app,
    admin,
    manualPatientPayload({ name: `Other Person ${seq}`, phone: `98${mobile.slice(2)}` }),
  )
  const otherId = patientSchema.parse(other.json()).id
  const doctor = await addDoctor(t.db, hospitalA, `Dr. Sunita Rao ${seq}`)
  const [appt] = await queryRows<{ id: string }>(
    t.db,
    sql`insert into appointments (hospital_id, patient_id, doctor_id, service_type, starts_at,
          ends_at, duration_minutes, notes, cancel_reason, status)
        values (${hospitalA}, ${p.id}, ${doctor}, 'General consultation',
          now() - interval '2 days', now() - interval '2 days' + interval '30 minutes', 30,
          'Complains of migraine since March', 'Travelling to Chennai', 'cancelled')
        returning id`,
  )
  const [lead] = await queryRows<{ id: string }>(
    t.db,
    sql`insert into leads (hospital_id, name, phone, email, source, status, patient_id, notes)
        values (${hospitalA}, ${name}, ${p.phone}, ${`lead.${seq}@example.in`}, 'google-ads',
          'converted', ${p.id}, 'Asked about knee replacement cost')
        returning id`,
  )
  await t.db.execute(sql`
    insert into communications (hospital_id, patient_id, type, direction, content, status,
      contact_address, metadata)
    values (${hospitalA}, ${p.id}, 'whatsapp', 'outbound', 'Your MRI report is ready', 'sent',
        ${p.phone}, '{"note":"x"}'::jsonb),
      (${hospitalA}, ${p.id}, 'sms', 'outbound', 'Reminder for tomorrow 10 am', 'queued',
        ${p.phone}, '{}'::jsonb),
      (${hospitalA}, ${otherId}, 'sms', 'outbound', 'Someone else entirely', 'sent', null, '{}')`)
  await t.db.execute(sql`
    insert into communications (hospital_id, lead_id, type, direction, content, status)
    values (${hospitalA}, ${lead!.id}, 'call', 'outbound', 'Called about the knee', 'logged')`)
  const consent = await t.app.inject({
    method: 'POST',
    url: '/api/consents',
    headers: browserHeaders(admin),
    payload: JSON.stringify({ patientId: p.id, channel: 'whatsapp', action: 'opt_in' }),
  })
  expect(consent.statusCode, consent.body).toBe(201)
  const invoice = await createInvoice(t.app, admin, invoicePayload(p.id))
  const paid = await billingCall(t.app, admin, 'PATCH', `/api/invoices/${invoice.id}/status`, {
    status: 'paid',
    method: 'upi',
    reference: 'UPI-4455',
  })
  expect(paid.statusCode, paid.body).toBe(200)
  return {
    id: p.id,
    name,
    phone: p.phone,
    email: `lakshmi.${seq}@example.in`,
    leadEmail: `lead.${seq}@example.in`,
    leadId: lead!.id,
    appointmentId: appt!.id,
    invoiceId: invoice.id,
    otherId,
  }
}
