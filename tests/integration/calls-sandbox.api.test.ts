import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callsResponse } from '../../src/shared/schemas/calls'
import { openDatabase } from '../../src/server/db/client'
import type { Worker } from '../../src/server/jobs/worker'
import { createMessagingHub, type HubEvent } from '../../src/server/modules/messaging-events/hub'
import {
  callActivities,
  callCommunications,
  callsWorker,
  ended,
  FAST_VOICE,
  leadWithPhone,
  patientWithPhone,
  send,
  setCallingHours,
  startCall,
  verifyMyPhone,
} from '../support/calls'
import { onPostgres, waitFor } from '../support/jobs'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 41: click-to-call in the sandbox, end to end: the call rings, is answered (or not, or
// busy) by the job queue's steps, ends, and leaves one Communication of type 'call' and its
// call_start/call_end activities on the lead or patient.

let t: TestApp
let worker: Worker
let doctor: string
let receptionist: string
let hospitalA: string
let doctorId: string

beforeAll(async () => {
  t = await createTestApp({ voice: FAST_VOICE })
  worker = callsWorker(t.database)
  await worker.start()
  doctor = await login(t.app, demoEmail('doctor'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  doctorId = await userIdOf(t.db, demoEmail('doctor'))
  await setCallingHours(t, hospitalA, '00:00', '00:00')
  await verifyMyPhone(t, doctor)
  await verifyMyPhone(t, receptionist)
})
afterAll(async () => {
  await worker?.stop()
  await t?.close()
})

describe('a sandbox call to a lead', () => {
  it('rings, is answered, completes, and is logged once on the lead', async () => {
    const lead = await leadWithPhone(t, doctor, 3)
    const started = await startCall(t, doctor, { leadId: lead.id })
    expect(started).toMatchObject({
      leadId: lead.id,
      patientId: null,
      userId: doctorId,
      direction: 'outbound',
      provider: 'sandbox',
      sandbox: true,
      status: 'queued',
      endedAt: null,
      disposition: null,
    })

    const done = await ended(t, doctor, started.id)
    expect(done.status).toBe('completed')
    expect(done.outcome).toBe('answered')
    expect(done.durationSeconds).toBeGreaterThanOrEqual(45)
    expect(done.answeredAt).not.toBeNull()
    expect(Date.parse(done.endedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(done.answeredAt ?? ''))

    const comms = await callCommunications(t, started.id)
    expect(comms).toHaveLength(1)
    expect(comms[0]).toMatchObject({
      type: 'call',
      direction: 'outbound',
      lead_id: lead.id,
      metadata: {
        callId: started.id,
        durationSeconds: done.durationSeconds,
        outcome: 'answered',
        sandbox: true,
      },
    })
    // The lead's history shows it, and the outbound call made the new lead contacted.
    const history = await send(t.app, doctor, 'GET', `/api/leads/${lead.id}/communications`)
    expect(history.statusCode).toBe(200)
    expect(JSON.stringify(history.json())).toContain(started.id)
    const [stored] = await queryRows<{ status: string; last_contact_at: unknown }>(
      t.db,
      sql`select status, last_contact_at from leads where id = ${lead.id}`,
    )
    expect(stored?.status).toBe('contacted')
    expect(stored?.last_contact_at).not.toBeNull()

    const activities = await callActivities(t, started.id)
    expect(activities.map((a) => a.activity_type)).toEqual(['call_start', 'call_end'])
    expect(activities[1]?.data).toMatchObject({
      leadId: lead.id,
      durationSeconds: done.durationSeconds,
      outcome: 'answered',
    })
    expect(JSON.stringify(activities)).not.toContain(lead.phone)
  })

  it('a number ending in 7 rings out (no-answer) and one ending in 9 is busy', async () => {
    for (const [last, status] of [
      [7, 'no-answer'],
      [9, 'busy'],
    ] as const) {
      const lead = await leadWithPhone(t, receptionist, last)
      const started = await startCall(t, receptionist, { leadId: lead.id })
      const done = await ended(t, receptionist, started.id)
      expect(done).toMatchObject({ status, outcome: status, durationSeconds: 0, answeredAt: null })
      const comms = await callCommunications(t, started.id)
      expect(comms).toHaveLength(1)
      expect(comms[0]?.metadata).toMatchObject({ outcome: status, durationSeconds: 0 })
    }
  })
})

describe('a sandbox call to a patient', () => {
  it('is logged on the patient, outside calling hours too (a patient’s own call is not held)', async () => {
    await setCallingHours(t, hospitalA, '03:00', '03:01')
    try {
      const patientId = await patientWithPhone(t, doctor, 2)
      const started = await startCall(t, doctor, { patientId })
      expect(started).toMatchObject({ patientId, leadId: null })
      const done = await ended(t, doctor, started.id)
      expect(done.status).toBe('completed')
      const comms = await callCommunications(t, started.id)
      expect(comms).toHaveLength(1)
      expect(comms[0]).toMatchObject({ patient_id: patientId, lead_id: null, type: 'call' })
    } finally {
      await setCallingHours(t, hospitalA, '00:00', '00:00')
    }
  })
})

describe('call history', () => {
  it('lists a lead’s calls newest first, and filters by day', async () => {
    const lead = await leadWithPhone(t, doctor, 8)
    const first = await startCall(t, doctor, { leadId: lead.id })
    await ended(t, doctor, first.id)
    const second = await startCall(t, doctor, { leadId: lead.id })
    await ended(t, doctor, second.id)
    const res = await send(t.app, doctor, 'GET', `/api/calls?leadId=${lead.id}`)
    expect(res.statusCode, res.body).toBe(200)
    const { calls } = callsResponse.strict().parse(res.json())
    expect(calls.map((c) => c.id)).toEqual([second.id, first.id])

    const viewer = await login(t.app, demoEmail('viewer'))
    const asViewer = await send(t.app, viewer, 'GET', `/api/calls?leadId=${lead.id}`)
    expect(asViewer.statusCode).toBe(200)

    const past = await send(t.app, doctor, 'GET', `/api/calls?leadId=${lead.id}&to=2020-01-01`)
    expect(callsResponse.parse(past.json()).calls).toEqual([])
    const today = new Date().toISOString().slice(0, 10)
    const from = await send(
      t.app,
      doctor,
      'GET',
      `/api/calls?leadId=${lead.id}&from=${new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10)}`,
    )
    expect(callsResponse.parse(from.json()).calls).toHaveLength(2)
  })
})

describe.skipIf(!onPostgres)('two instances', () => {
  it('a call started on one instance is moved on by another’s worker, and reaches the first’s screens', async () => {
    await worker.stop()
    const second = await openDatabase({ databaseUrl: t.directUrl ?? '' })
    const otherWorker = callsWorker(second)
    await otherWorker.start()
    const hub = await createMessagingHub({
      database: t.database,
      directUrl: t.directUrl,
      log: { warn: () => {}, info: () => {} },
    })
    const events: HubEvent[] = []
    hub.subscribe(hospitalA, (e) => events.push(e))
    try {
      const lead = await leadWithPhone(t, doctor, 6)
      const started = await startCall(t, doctor, { leadId: lead.id })
      expect((await ended(t, doctor, started.id)).status).toBe('completed')
      await waitFor(
        async () =>
          events.some(
            (e) => e.type === 'call' && e.data.id === started.id && e.data.status === 'completed',
          ),
        'the completed call event on the first instance',
      )
      const [job] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from jobs where name = 'calls.sandbox-step'
            and payload->>'callId' = ${started.id} and status = 'done'`,
      )
      expect(job?.n).toBe(3)
    } finally {
      await hub.close()
      await otherWorker.stop()
      await second.close()
      worker = callsWorker(t.database)
      await worker.start()
    }
  })
})
