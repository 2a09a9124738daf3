import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import {
  applyCallChange,
  NOT_PLACED,
  settleUnplaced,
} from '../../src/server/modules/calls/call-progress'
import { CALL_BACK_IN_PAST } from '../../src/server/modules/calls/disposition.service'
import { createMessagingHub, type HubEvent } from '../../src/server/modules/messaging-events/hub'
import {
  callActivities,
  callCommunications,
  FAST_VOICE,
  getCall,
  leadWithPhone,
  patientWithPhone,
  send,
  setCallingHours,
  startCall,
  verifyMyPhone,
} from '../support/calls'
import { expectError } from '../support/http'
import { waitFor } from '../support/jobs'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 41: a call's status only moves forward, its ending is recorded once however often (and
// however concurrently) it is applied, each change reaches the hospital's screens as a `call`
// event, and the disposition (call back at…) is kept. No worker runs here: the test applies
// the changes a provider's events (or the sandbox's steps) would.

let t: TestApp
let doctor: string
let receptionist: string
let hospitalA: string
let doctorId: string
let receptionistId: string
const events: HubEvent[] = []
let closeHub: (() => Promise<void>) | undefined

const apply = (callId: string, change: Parameters<typeof applyCallChange>[2], userId = doctorId) =>
  withTenant(t.db, { hospitalId: hospitalA, userId }, (tx) => applyCallChange(tx, callId, change))

beforeAll(async () => {
  t = await createTestApp({ voice: FAST_VOICE })
  doctor = await login(t.app, demoEmail('doctor'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  doctorId = await userIdOf(t.db, demoEmail('doctor'))
  receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
  await setCallingHours(t, hospitalA, '00:00', '00:00')
  await verifyMyPhone(t, doctor)
  await verifyMyPhone(t, receptionist)
  const hub = await createMessagingHub({
    database: t.database,
    directUrl: t.directUrl,
    log: { warn: () => {}, info: () => {} },
  })
  hub.subscribe(hospitalA, (e) => events.push(e))
  closeHub = hub.close
})
afterAll(async () => {
  await closeHub?.()
  await t?.close()
})

describe('status moves forward only', () => {
  it('ignores a late or repeated change, and writes the ending once', async () => {
    const lead = await leadWithPhone(t, doctor, 1)
    const started = await startCall(t, doctor, { leadId: lead.id })
    const at = new Date()
    expect((await apply(started.id, { status: 'ringing', at }))?.status).toBe('ringing')
    expect(await apply(started.id, { status: 'ringing', at })).toBeNull()
    expect((await apply(started.id, { status: 'in-progress', at }))?.status).toBe('in-progress')
    expect(await apply(started.id, { status: 'ringing', at })).toBeNull()
    const ended = await apply(started.id, { status: 'completed', at, durationSeconds: 75 })
    expect(ended).toMatchObject({ status: 'completed', outcome: 'answered', durationSeconds: 75 })
    // Applied again (a duplicate callback), or a stale state after it: nothing changes.
    expect(await apply(started.id, { status: 'completed', at, durationSeconds: 99 })).toBeNull()
    expect(await apply(started.id, { status: 'failed', at })).toBeNull()
    expect(await apply(started.id, { status: 'in-progress', at })).toBeNull()

    const call = await getCall(t, doctor, started.id)
    expect(call).toMatchObject({ status: 'completed', durationSeconds: 75, outcome: 'answered' })
    expect(await callCommunications(t, started.id)).toHaveLength(1)
    const kinds = (await callActivities(t, started.id)).map((a) => a.activity_type)
    expect(kinds).toEqual(['call_start', 'call_end'])
  })

  it('two endings applied at the same moment write one Communication and one call_end', async () => {
    const lead = await leadWithPhone(t, receptionist, 2)
    const started = await startCall(t, receptionist, { leadId: lead.id })
    const at = new Date()
    const results = await Promise.all([
      apply(started.id, { status: 'completed', at, durationSeconds: 30 }, receptionistId),
      apply(started.id, { status: 'no-answer', at }, receptionistId),
      apply(started.id, { status: 'completed', at, durationSeconds: 30 }, receptionistId),
    ])
    expect(results.filter((r) => r !== null)).toHaveLength(1)
    expect(await callCommunications(t, started.id)).toHaveLength(1)
    const ends = (await callActivities(t, started.id)).filter((a) => a.activity_type === 'call_end')
    expect(ends).toHaveLength(1)
    // The staff member is free for the next call.
    const next = await leadWithPhone(t, receptionist, 3)
    await startCall(t, receptionist, { leadId: next.id })
  })

  it('announces each change to the hospital’s screens as a `call` event, without numbers', async () => {
    const lead = await leadWithPhone(t, doctor, 4)
    const started = await startCall(t, doctor, { leadId: lead.id })
    await apply(started.id, { status: 'in-progress', at: new Date() })
    await apply(started.id, { status: 'completed', at: new Date(), durationSeconds: 12 })
    const mine = () =>
      events.filter((e) => e.type === 'call' && e.data.id === started.id) as Extract<
        HubEvent,
        { type: 'call' }
      >[]
    await waitFor(async () => mine().some((e) => e.data.status === 'completed'), 'call events')
    const statuses = mine().map((e) => e.data.status)
    expect(statuses).toContain('in-progress')
    expect(statuses.at(-1)).toBe('completed')
    expect(mine().at(-1)?.data).toMatchObject({
      leadId: lead.id,
      userId: doctorId,
      durationSeconds: 12,
    })
    expect(JSON.stringify(mine())).not.toContain(lead.phone.slice(3))
  })

  it('a call never placed is failed after a while, freeing its staff member', async () => {
    const lead = await leadWithPhone(t, doctor, 5)
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into calls (hospital_id, lead_id, user_id, provider, customer_phone)
          values (${hospitalA}, ${lead.id}, ${doctorId}, 'sandbox', ${lead.phone}) returning id`,
    )
    const id = row?.id ?? ''
    const settled = await withTenant(t.db, { hospitalId: hospitalA, userId: null }, (tx) =>
      settleUnplaced(tx, id),
    )
    expect(settled).toMatchObject({ status: 'failed', failureReason: NOT_PLACED })
    expect(await callCommunications(t, id)).toHaveLength(0)
  })
})

describe('disposition', () => {
  it('call back at…: needs a future time, is kept on the call and on its Communication', async () => {
    const lead = await leadWithPhone(t, doctor, 6)
    const started = await startCall(t, doctor, { leadId: lead.id })
    await apply(started.id, { status: 'completed', at: new Date(), durationSeconds: 40 })
    const url = `/api/calls/${started.id}/disposition`
    const missing = expectError(
      await send(t.app, doctor, 'POST', url, { disposition: 'call_back' }),
      400,
      'VALIDATION',
    )
    expect(missing.issues?.[0]?.path).toBe('callBackAt')
    const past = expectError(
      await send(t.app, doctor, 'POST', url, {
        disposition: 'call_back',
        callBackAt: '2020-01-01T11:00:00+05:30',
      }),
      400,
    )
    expect(past.message).toBe(CALL_BACK_IN_PAST)
    expectError(
      await send(t.app, doctor, 'POST', url, {
        disposition: 'interested',
        callBackAt: '2030-01-01T11:00:00+05:30',
      }),
      400,
    )
    expectError(await send(t.app, doctor, 'POST', url, { disposition: 'maybe' }), 400)
    const viewer = await login(t.app, demoEmail('viewer'))
    expectError(await send(t.app, viewer, 'POST', url, { disposition: 'interested' }), 403)
    expect((await getCall(t, doctor, started.id)).disposition).toBeNull()

    const tomorrow = new Date(Date.now() + 86_400_000)
    tomorrow.setUTCHours(5, 30, 0, 0) // 11:00 in Kolkata
    const res = await send(t.app, doctor, 'POST', url, {
      disposition: 'call_back',
      note: '  Wants an evening slot  ',
      callBackAt: tomorrow.toISOString(),
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      disposition: 'call_back',
      dispositionNote: 'Wants an evening slot',
      callBackAt: tomorrow.toISOString(),
    })
    const [comm] = await callCommunications(t, started.id)
    expect(comm?.metadata).toMatchObject({
      disposition: 'call_back',
      callBackAt: tomorrow.toISOString(),
    })
    // Changed later to another outcome: the call-back time goes with it.
    const changed = await send(t.app, doctor, 'POST', url, { disposition: 'booked' })
    expect(changed.json()).toMatchObject({
      disposition: 'booked',
      callBackAt: null,
      dispositionNote: null,
    })
    const audit = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where entity_id = ${started.id} order by created_at`,
    )
    expect(audit.map((a) => a.action)).toEqual(['call.disposition', 'call.disposition'])
  })
})

describe('erasure', () => {
  it('an erased patient’s calls keep their times, not the number or the note', async () => {
    const admin = await login(t.app, demoEmail('admin'))
    const patientId = await patientWithPhone(t, doctor, 7)
    const started = await startCall(t, doctor, { patientId })
    await apply(started.id, { status: 'completed', at: new Date(), durationSeconds: 75 })
    const noted = await send(t.app, doctor, 'POST', `/api/calls/${started.id}/disposition`, {
      disposition: 'interested',
      note: 'Asked about the knee replacement package',
    })
    expect(noted.statusCode, noted.body).toBe(200)
    const [patient] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from patients where id = ${patientId}`,
    )
    const erased = await send(t.app, admin, 'POST', `/api/patients/${patientId}/erase`, {
      confirmName: patient?.name,
    })
    expect(erased.statusCode, erased.body).toBe(200)
    const [row] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select customer_phone, disposition_note, disposition, duration_seconds
          from calls where id = ${started.id}`,
    )
    expect(row).toEqual({
      customer_phone: '',
      disposition_note: null,
      disposition: 'interested',
      duration_seconds: 75,
    })
    expect((await getCall(t, doctor, started.id)).durationSeconds).toBe(75)
  })
})
