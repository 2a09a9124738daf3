import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Database } from '../../src/server/db/client'
import { Worker } from '../../src/server/jobs/worker'
import { SANDBOX_STEP_JOB, SETTLE_UNPLACED_JOB } from '../../src/server/modules/calls/call-jobs'
import type { VoiceOptions } from '../../src/server/modules/calls/voice-registry'
import { type Call, call as callSchema } from '../../src/shared/schemas/calls'
import { waitFor } from './jobs'
import { newLead } from './leads'
import { browserHeaders } from './login'
import { createPatient, manualPatientPayload } from './patients'
import { queryRows, type TestApp } from './test-app'

/** Voice calls' test support (tests/integration/calls-*.api.test.ts, issue 41). */

/** Sandbox calls that ring and talk for a moment only. */
export const FAST_VOICE: VoiceOptions = {
  twilioUrl: 'http://127.0.0.1:9',
  exotelUrl: 'http://127.0.0.1:9',
  sandboxRingMs: 40,
  sandboxTalkMs: 40,
}

let seq = 0
/**
 * A fresh Indian mobile ending in `last` (the sandbox's outcome: 0-6 answered, 7-8 no answer,
 * 9 busy): '9' + a per-run stamp + a counter + the digit, so files and runs never share one.
 */
export function mobileEnding(last: number, base = 41): string {
  seq += 1
  const stamp = String(Date.now() % 1000).padStart(3, '0')
  return `9${String(base).padStart(2, '0')}${stamp}${String(seq % 1000).padStart(3, '0')}${last}`
}

export function send(
  app: FastifyInstance,
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  if (method === 'GET') return app.inject({ method, url, headers: cookie ? { cookie } : {} })
  return app.inject({
    method,
    url,
    headers: browserHeaders(cookie),
    payload: JSON.stringify(payload ?? {}),
  })
}

/** PUT /api/calls/my-phone: the staff member's phone, verified by the sandbox's test call. */
export async function verifyMyPhone(t: TestApp, cookie: string, phone = mobileEnding(1, 42)) {
  const res = await send(t.app, cookie, 'PUT', '/api/calls/my-phone', { phone })
  expect(res.statusCode, res.body).toBe(200)
  return phone
}

/** Calls to leads are allowed all day (start equal to end) unless a test sets hours. */
export async function setCallingHours(t: TestApp, hospitalId: string, start: string, end: string) {
  await t.db.execute(sql`
    insert into voice_settings (hospital_id, calling_hours_start, calling_hours_end)
    values (${hospitalId}, ${start}, ${end})
    on conflict (hospital_id) do update set calling_hours_start = excluded.calling_hours_start,
      calling_hours_end = excluded.calling_hours_end`)
}

export async function leadWithPhone(t: TestApp, cookie: string, last: number) {
  return newLead(t.app, cookie, { phone: mobileEnding(last), name: `Caller Test ${seq}` })
}

export async function patientWithPhone(t: TestApp, cookie: string, last: number) {
  const res = await createPatient(
    t.app,
    cookie,
    manualPatientPayload({
      name: `Call Patient ${seq}`,
      phone: mobileEnding(last, 43),
      email: `call.patient.${Date.now()}.${seq}@example.in`,
    }),
  )
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string }>().id
}

export async function startCall(
  t: TestApp,
  cookie: string,
  subject: { leadId: string } | { patientId: string },
): Promise<Call> {
  const res = await send(t.app, cookie, 'POST', '/api/calls', subject)
  expect(res.statusCode, res.body).toBe(201)
  return callSchema.strict().parse(res.json())
}

export async function getCall(t: TestApp, cookie: string, id: string): Promise<Call> {
  const res = await send(t.app, cookie, 'GET', `/api/calls/${id}`)
  expect(res.statusCode, res.body).toBe(200)
  return callSchema.strict().parse(res.json())
}

/** Waits until the call has ended (the worker runs its sandbox steps). */
export async function ended(t: TestApp, cookie: string, id: string): Promise<Call> {
  return waitFor(
    async () => {
      const c = await getCall(t, cookie, id)
      return c.endedAt ? c : null
    },
    `call ${id} to end`,
    30_000,
  )
}

export function callsWorker(database: Pick<Database, 'db' | 'driver'>): Worker {
  return new Worker({
    database,
    names: [SANDBOX_STEP_JOB, SETTLE_UNPLACED_JOB],
    backoff: () => 50,
    pollMs: 20,
    leaseMs: 5_000,
  })
}

export interface StoredCallCommunication {
  id: string
  type: string
  direction: string
  lead_id: string | null
  patient_id: string | null
  metadata: Record<string, unknown>
}

export function callCommunications(t: TestApp, callId: string) {
  return queryRows<StoredCallCommunication>(
    t.db,
    sql`select id, type, direction, lead_id, patient_id, metadata from communications
        where metadata->>'callId' = ${callId}`,
  )
}

export function callActivities(t: TestApp, callId: string) {
  return queryRows<{ activity_type: string; data: Record<string, unknown> }>(
    t.db,
    sql`select activity_type, data from activities where data->>'callId' = ${callId}
        order by occurred_at`,
  )
}
