import { randomUUID } from 'node:crypto'
import { TZDate } from '@date-fns/tz'
import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { AppDb } from '../../src/server/db/client'
import { withTenant } from '../../src/server/db/tenant'
import { sendDueReminder } from '../../src/server/modules/appointments/reminder-job'
import { appointment, type Appointment } from '../../src/shared/schemas/appointments'
import { metaCall } from './meta'
import { queryRows, type TestApp } from './test-app'

/* Helpers of the appointments test files (tests/integration/appointments*.api.test.ts). */

export const call = (
  t: TestApp,
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> => metaCall(t.app, cookie, method, url, body)

export function patch(
  t: TestApp,
  cookie: string,
  url: string,
  body: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'PATCH',
    url,
    headers: {
      host: 'localhost',
      origin: 'http://localhost',
      'content-type': 'application/json',
      cookie,
    },
    payload: JSON.stringify(body),
  })
}

/** The response as an Appointment (strict: no extra fields), after checking the status. */
export function appointmentOf(res: LightMyRequestResponse, status = 200): Appointment {
  expect(res.statusCode, res.body).toBe(status)
  return appointment.strict().parse(res.json())
}

/** 'yyyy-MM-dd' of the day `days` from today in India. */
export function dayFromToday(days: number, now = new Date()): string {
  const z = new TZDate(now.getTime() + days * 86_400_000, 'Asia/Kolkata')
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${z.getFullYear()}-${pad(z.getMonth() + 1)}-${pad(z.getDate())}`
}

/** The instant of a wall-clock time in India. */
export function istInstant(date: string, time: string): Date {
  return new Date(`${date}T${time}:00+05:30`)
}

/** A doctor of the hospital added for a test (a users row, as the admin plugin would add). */
export async function addDoctor(
  db: AppDb,
  hospitalId: string,
  name = 'Dr. Ananya Rao',
  extra: { role?: string; active?: boolean } = {},
): Promise<string> {
  const id = randomUUID()
  await db.execute(sql`
    insert into users (id, name, email, email_verified, role, hospital_id, is_active)
    values (${id}, ${name}, ${`${id}@doctors.test`}, true, ${extra.role ?? 'doctor'},
      ${hospitalId}, ${extra.active ?? true})`)
  return id
}

/** A patient of the hospital made for a test, with a unique Indian mobile. */
let patientSeq = 0
export async function addPatient(
  db: AppDb,
  hospitalId: string,
  values: { name?: string; phone?: string; email?: string | null } = {},
): Promise<{ id: string; phone: string }> {
  patientSeq += 1
  const phone =
    values.phone ??
    `+9197${String(Date.now() % 1_000_000).padStart(6, '0')}${String(patientSeq % 100).padStart(2, '0')}`
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into patients (hospital_id, name, phone, email)
        values (${hospitalId}, ${values.name ?? 'Kavya Menon'}, ${phone}, ${values.email ?? null})
        returning id`,
  )
  if (!row) throw new Error('no patient')
  return { id: row.id, phone }
}

export interface ReminderRow {
  id: string
  status: string
  channel: string
  offset_minutes: number
  due_at: string | Date
  message: string
}

export async function remindersOf(db: AppDb, appointmentId: string): Promise<ReminderRow[]> {
  return queryRows<ReminderRow>(
    db,
    sql`select id, status, channel, offset_minutes, due_at, message from reminders
        where appointment_id = ${appointmentId} order by offset_minutes desc, channel`,
  )
}

export interface JobRow {
  id: string
  run_at: string | Date
  payload: { reminderId: string; dueAt: string }
  dedupe_key: string
}

export async function reminderJobsOf(db: AppDb, reminderIds: string[]): Promise<JobRow[]> {
  if (!reminderIds.length) return []
  const rows = await queryRows<JobRow>(
    db,
    sql`select id, run_at, payload, dedupe_key from jobs where name = 'appointments.reminder'
        order by run_at`,
  )
  return rows.filter((r) => reminderIds.includes(r.payload.reminderId))
}

/** Runs what the reminder job runs for this payload, now (as its handler does, in a tenant tx). */
export function runReminder(
  db: AppDb,
  hospitalId: string,
  payload: { reminderId: string; dueAt: string },
  now = new Date(),
) {
  return withTenant(db, { hospitalId, userId: null }, (tx) =>
    sendDueReminder(tx, {
      hospitalId,
      payload,
      hospital: { name: 'Sanjeevani Multispeciality Hospital, Pune', timeZone: 'Asia/Kolkata' },
      now,
    }),
  )
}

/** The booking body for a doctor and patient at a date and time (30 minutes, a consultation). */
export function booking(
  doctorId: string,
  patientId: string,
  date: string,
  time: string,
  extra: Record<string, unknown> = {},
) {
  return {
    patientId,
    doctorId,
    serviceType: 'General consultation',
    date,
    time,
    durationMinutes: 30,
    ...extra,
  }
}
