import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Worker } from '../../src/server/jobs/worker'
import { createMessagingHub, type HubEvent } from '../../src/server/modules/messaging-events/hub'
import { incomingCallCard } from '../../src/shared/schemas/calls-incoming'
import { addDoctor, addPatient } from '../support/appointments'
import {
  callCommunications,
  callsWorker,
  ended,
  FAST_VOICE,
  getCall,
  mobileEnding,
  send,
  verifyMyPhone,
} from '../support/calls'
import { type FakeExotel, startFakeExotel } from '../support/fakes/exotel'
import { connectQuery, endIncoming, incomingExotelCall } from '../support/fakes/exotel-incoming'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { postTwilio, twilioSid } from '../support/messaging-webhooks'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'
import {
  callbackToken,
  useExotel,
  useTwilio,
  voiceJobsSettled,
  voiceWorker,
} from '../support/voice-webhooks'

// Issue 41, incoming and missed calls: the ExoPhone's Connect applet (token in the URL) and the
// Twilio number's webhook (signed) ring the hospital's ring group; each call is matched to its
// lead or patient by number, an unknown number becomes one lead (source 'phone', auto-assigned),
// the call is logged inbound and pops up on the ring group's screens; a missed call ends
// no-answer. The sandbox runs the same path.

const A = {
  accountSid: 'sanjeevani-in',
  apiKey: 'key-in-a',
  apiToken: 'tok-in-a',
  exophone: '+918047120001',
}
const B = {
  accountSid: 'ACincoming00000000000000000000b1',
  authToken: 'twilio-in-b',
  number: '+918047120002',
}

let t: TestApp
let fake: FakeExotel
let workers: Worker[] = []
let hospitalA: string
let hospitalB: string
let adminA: string
let receptionistA: string
let receptionistAId: string
let receptionistB: string
let receptionistBId: string
let phoneA: string
let phoneB: string
let tokenA: string
let tokenB: string
const events: { hospitalId: string; event: HubEvent }[] = []
let closeHub: (() => Promise<void>) | undefined

beforeAll(async () => {
  fake = await startFakeExotel({
    [A.accountSid]: { apiKey: A.apiKey, apiToken: A.apiToken, exophones: [A.exophone] },
  })
  t = await createTestApp({ voice: { ...FAST_VOICE, exotelUrl: fake.url } })
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  adminA = await login(t.app, demoEmail('admin'))
  receptionistA = await login(t.app, demoEmail('receptionist'))
  receptionistB = await login(t.app, demoEmail('receptionist', 'smiledental'))
  receptionistAId = await userIdOf(t.db, demoEmail('receptionist'))
  receptionistBId = await userIdOf(t.db, demoEmail('receptionist', 'smiledental'))
  // Verified in the sandbox (a placed test call), before the providers are set.
  phoneA = `+91${await verifyMyPhone(t, receptionistA, mobileEnding(1, 51))}`
  phoneB = `+91${await verifyMyPhone(t, receptionistB, mobileEnding(1, 52))}`
  await useExotel(t, hospitalA, A)
  await useTwilio(t, hospitalB, B)
  tokenA = await callbackToken(t, hospitalA)
  tokenB = await callbackToken(t, hospitalB)
  await t.db.execute(sql`
    insert into lead_settings (hospital_id, auto_assign_leads) values (${hospitalA}, true)
    on conflict (hospital_id) do update set auto_assign_leads = true`)
  const hub = await createMessagingHub({
    database: t.database,
    directUrl: t.directUrl,
    log: { warn: () => {}, info: () => {} },
  })
  for (const h of [hospitalA, hospitalB])
    hub.subscribe(h, (event) => events.push({ hospitalId: h, event }))
  closeHub = hub.close
  workers = [voiceWorker(t), callsWorker(t.database)]
  for (const w of workers) await w.start()
})
afterAll(async () => {
  for (const w of workers) await w.stop()
  await closeHub?.()
  await t?.close()
  await fake?.close()
})

const exotelUrl = (hospitalId: string, token: string, query: Record<string, string>) =>
  `/api/webhooks/exotel/${hospitalId}/incoming?${new URLSearchParams({ t: token, ...query }).toString()}`

const connect = (query: Record<string, string>, hospitalId = hospitalA, token = tokenA) =>
  t.app.inject({ method: 'GET', url: exotelUrl(hospitalId, token, query) })

interface CallRowOf {
  id: string
  lead_id: string | null
  patient_id: string | null
  direction: string
  status: string
  provider: string
}
const callsOfSid = (hospitalId: string, sid: string) =>
  queryRows<CallRowOf>(
    t.db,
    sql`select id, lead_id, patient_id, direction, status, provider from calls
        where hospital_id = ${hospitalId} and provider_call_id = ${sid}`,
  )
const leadsOfPhone = (hospitalId: string, phone: string) =>
  queryRows<{ id: string; source: string; assigned_to_user_id: string | null; name: string }>(
    t.db,
    sql`select id, source, assigned_to_user_id, name from leads
        where hospital_id = ${hospitalId} and phone = ${phone}`,
  )

async function card(cookie: string, id: string) {
  const res = await send(t.app, cookie, 'GET', `/api/calls/incoming/${id}`)
  expect(res.statusCode, res.body).toBe(200)
  return incomingCallCard.strict().parse(res.json())
}

describe('Exotel: the Connect applet asks whom to dial', () => {
  it('an unknown number: the ring group is dialled, one lead (phone, auto-assigned), logged, popped up', async () => {
    const caller = mobileEnding(1, 53)
    const call = incomingExotelCall(fake, {
      accountSid: A.accountSid,
      from: `+91${caller}`,
      exophone: A.exophone,
    })
    const res = await connect(connectQuery(call))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      destination: { numbers: [phoneA] },
      outgoing_phone_number: A.exophone,
      fetch_after_attempt: false,
    })
    const [row] = await callsOfSid(hospitalA, call.sid)
    expect(row).toMatchObject({ direction: 'inbound', status: 'ringing', provider: 'exotel' })
    const leads = await leadsOfPhone(hospitalA, `+91${caller}`)
    expect(leads).toHaveLength(1)
    expect(leads[0]).toMatchObject({ source: 'phone', assigned_to_user_id: receptionistAId })
    expect(row?.lead_id).toBe(leads[0]?.id)
    // The pop-up's event reached hospital A's screens (ids only, no number), not B's.
    const popped = events.filter((e) => e.event.type === 'incoming_call')
    expect(popped.map((e) => e.hospitalId)).toEqual([hospitalA])
    expect(popped[0]?.event).toMatchObject({
      data: { id: row?.id, ringUserIds: [receptionistAId] },
    })
    expect(JSON.stringify(popped[0]?.event)).not.toContain(caller.slice(-6))
    expect(await card(receptionistA, row?.id ?? '')).toMatchObject({
      newLead: true,
      patientNumber: null,
    })

    // The same request again (Exotel retries): nothing new. A second call: the same lead.
    expect((await connect(connectQuery(call))).statusCode).toBe(200)
    expect(await callsOfSid(hospitalA, call.sid)).toHaveLength(1)
    const again = incomingExotelCall(fake, {
      accountSid: A.accountSid,
      from: `+91${caller}`,
      exophone: A.exophone,
    })
    expect((await connect(connectQuery(again))).statusCode).toBe(200)
    expect(await leadsOfPhone(hospitalA, `+91${caller}`)).toHaveLength(1)
    const [second] = await callsOfSid(hospitalA, again.sid)
    expect(second?.lead_id).toBe(leads[0]?.id)
    expect(await card(receptionistA, second?.id ?? '')).toMatchObject({ newLead: false })
  })

  it('a known patient is matched by number, with the patient number and next appointment', async () => {
    const patient = await addPatient(t.db, hospitalA, {
      name: 'Sunita Kulkarni',
      phone: `+91${mobileEnding(2, 54)}`,
    })
    const doctorId = await addDoctor(t.db, hospitalA)
    const startsAt = new Date(Date.now() + 3 * 86_400_000)
    await t.db.execute(sql`
      insert into appointments (hospital_id, patient_id, doctor_id, service_type, starts_at, ends_at, duration_minutes)
      values (${hospitalA}, ${patient.id}, ${doctorId}, 'Consultation', ${startsAt.toISOString()},
        ${new Date(startsAt.getTime() + 1_800_000).toISOString()}, 30)`)
    const call = incomingExotelCall(fake, {
      accountSid: A.accountSid,
      from: patient.phone,
      exophone: A.exophone,
    })
    expect((await connect(connectQuery(call))).statusCode).toBe(200)
    const [row] = await callsOfSid(hospitalA, call.sid)
    expect(row).toMatchObject({ patient_id: patient.id, lead_id: null })
    expect(await leadsOfPhone(hospitalA, patient.phone)).toHaveLength(0)
    const shown = await card(receptionistA, row?.id ?? '')
    expect(shown).toMatchObject({ name: 'Sunita Kulkarni', patientId: patient.id, newLead: false })
    expect(shown.patientNumber).toMatch(/\d/)
    expect(shown.nextAppointmentAt).toBe(startsAt.toISOString())
  })

  it('a missed call ends no-answer, an answered one completed, each confirmed with the call details', async () => {
    const missed = incomingExotelCall(fake, {
      accountSid: A.accountSid,
      from: `+91${mobileEnding(1, 55)}`,
      exophone: A.exophone,
    })
    const answered = incomingExotelCall(fake, {
      accountSid: A.accountSid,
      from: `+91${mobileEnding(1, 56)}`,
      exophone: A.exophone,
    })
    for (const c of [missed, answered])
      expect((await connect(connectQuery(c))).statusCode).toBe(200)
    endIncoming(missed, 'missed')
    endIncoming(answered, { answered: 95 })
    expect((await connect(connectQuery(missed, { CallType: 'client-hangup' }))).statusCode).toBe(
      200,
    )
    expect((await connect(connectQuery(answered, { CallType: 'completed' }))).statusCode).toBe(200)
    await voiceJobsSettled(t)
    const [m] = await callsOfSid(hospitalA, missed.sid)
    const [a] = await callsOfSid(hospitalA, answered.sid)
    expect(await getCall(t, adminA, m?.id ?? '')).toMatchObject({
      status: 'no-answer',
      outcome: 'no-answer',
      direction: 'inbound',
    })
    expect(await getCall(t, adminA, a?.id ?? '')).toMatchObject({
      status: 'completed',
      durationSeconds: 95,
    })
    const comms = await callCommunications(t, m?.id ?? '')
    expect(comms).toHaveLength(1)
    expect(comms[0]).toMatchObject({ type: 'call', direction: 'inbound', lead_id: m?.lead_id })
    // The details were asked before anything moved.
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.includes(missed.sid))).toBe(true)
  })

  it('refuses a wrong token (404), another hospital’s token (404), an unknown hospital (404), a bad body (400)', async () => {
    const call = incomingExotelCall(fake, {
      accountSid: A.accountSid,
      from: `+91${mobileEnding(1, 57)}`,
      exophone: A.exophone,
    })
    const q = connectQuery(call)
    expect((await connect(q, hospitalA, 'x'.repeat(64))).statusCode).toBe(404)
    expect((await connect(q, hospitalA, tokenB)).statusCode).toBe(404)
    expect((await connect(q, '11111111-1111-4111-8111-111111111111', tokenA)).statusCode).toBe(404)
    expect((await connect(q, 'not-a-hospital', tokenA)).statusCode).toBe(404)
    // Hospital B is not on Exotel: its own token does not open an Exotel door either.
    expect((await connect(q, hospitalB, tokenB)).statusCode).toBe(404)
    expectError(await connect({ CallSid: call.sid }), 400, 'VALIDATION')
    expectError(await connect({ ...q, CallSid: 'bad sid!' }), 400, 'VALIDATION')
    expect(await callsOfSid(hospitalA, call.sid)).toHaveLength(0)
    expect(await callsOfSid(hospitalB, call.sid)).toHaveLength(0)
  })
})

describe('Twilio: the number’s incoming webhook, signed', () => {
  const path = () => `/api/webhooks/twilio/${hospitalB}/voice/incoming`
  const arrival = (sid: string, from: string) => ({
    CallSid: sid,
    AccountSid: B.accountSid,
    From: from,
    To: B.number,
    CallStatus: 'ringing',
    Direction: 'inbound',
  })

  it('answers TwiML that dials the ring group, then a phone answers and the dial completes', async () => {
    const sid = twilioSid('CA')
    const from = `+91${mobileEnding(1, 58)}`
    const res = await postTwilio(t.app, path(), arrival(sid, from), B.authToken)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/xml/)
    expect(res.body).toContain(`<Dial callerId="${B.number}"`)
    expect(res.body).toContain(`<Number statusCallbackEvent="answered"`)
    expect(res.body).toContain(`>${phoneB}</Number>`)
    expect(res.body).toContain('voice/incoming?step=dial')
    const [row] = await callsOfSid(hospitalB, sid)
    expect(row).toMatchObject({ direction: 'inbound', status: 'ringing', provider: 'twilio' })
    expect(await leadsOfPhone(hospitalB, from)).toMatchObject([{ source: 'phone' }])
    const leg = { CallSid: twilioSid('CA'), ParentCallSid: sid, CallStatus: 'in-progress' }
    expect((await postTwilio(t.app, `${path()}?step=leg`, leg, B.authToken)).statusCode).toBe(200)
    expect((await getCall(t, receptionistB, row?.id ?? '')).status).toBe('in-progress')
    const dial = { CallSid: sid, DialCallStatus: 'completed', DialCallDuration: '42' }
    expect((await postTwilio(t.app, `${path()}?step=dial`, dial, B.authToken)).statusCode).toBe(200)
    expect(await getCall(t, receptionistB, row?.id ?? '')).toMatchObject({
      status: 'completed',
      durationSeconds: 42,
    })
    const popped = events.filter(
      (e) => e.event.type === 'incoming_call' && e.hospitalId === hospitalB,
    )
    expect(popped.at(-1)?.event).toMatchObject({
      data: { id: row?.id, ringUserIds: [receptionistBId] },
    })
  })

  it('a missed call (nobody answered, or the caller hung up) ends no-answer', async () => {
    for (const status of ['no-answer', 'canceled']) {
      const sid = twilioSid('CA')
      await postTwilio(t.app, path(), arrival(sid, `+91${mobileEnding(1, 59)}`), B.authToken)
      const dial = { CallSid: sid, DialCallStatus: status, DialCallDuration: '0' }
      expect((await postTwilio(t.app, `${path()}?step=dial`, dial, B.authToken)).statusCode).toBe(
        200,
      )
      const [row] = await callsOfSid(hospitalB, sid)
      expect(await getCall(t, receptionistB, row?.id ?? '')).toMatchObject({
        status: 'no-answer',
        outcome: 'no-answer',
      })
    }
  })

  it('refuses a bad or missing signature (403), a bad step or body (400)', async () => {
    const sid = twilioSid('CA')
    const body = arrival(sid, `+91${mobileEnding(1, 60)}`)
    expect((await postTwilio(t.app, path(), body, 'not-the-token')).statusCode).toBe(403)
    expect((await postTwilio(t.app, path(), body, null)).statusCode).toBe(403)
    // Signed for hospital B, sent to hospital A: A's token does not verify it.
    const other = `/api/webhooks/twilio/${hospitalA}/voice/incoming`
    expect((await postTwilio(t.app, other, body, B.authToken)).statusCode).toBe(403)
    expect(await callsOfSid(hospitalB, sid)).toHaveLength(0)
    expectError(await postTwilio(t.app, `${path()}?step=x`, body, B.authToken), 400, 'VALIDATION')
    expectError(await postTwilio(t.app, path(), { CallSid: sid }, B.authToken), 400, 'VALIDATION')
  })
})

describe('the sandbox: Simulate an incoming call', () => {
  it('is refused while the hospital has a provider (409), and to roles other than admin and receptionist (403)', async () => {
    expectError(
      await send(t.app, receptionistA, 'POST', '/api/calls/sandbox/incoming', {}),
      409,
      'CONFLICT',
    )
    const doctor = await login(t.app, demoEmail('doctor'))
    expectError(
      await send(t.app, doctor, 'POST', '/api/calls/sandbox/incoming', {}),
      403,
      'FORBIDDEN',
    )
    const viewer = await login(t.app, demoEmail('viewer'))
    expectError(
      await send(t.app, viewer, 'POST', '/api/calls/sandbox/incoming', {}),
      403,
      'FORBIDDEN',
    )
    expectError(
      await send(t.app, receptionistA, 'POST', '/api/calls/sandbox/incoming', { phone: '12345' }),
      400,
      'VALIDATION',
    )
  })

  it('runs the incoming path, rings, then is missed or answered', async () => {
    await t.db.execute(
      sql`update voice_settings set provider = 'sandbox' where hospital_id = ${hospitalB}`,
    )
    const phone = `+91${mobileEnding(2, 61)}`
    const res = await send(t.app, receptionistB, 'POST', '/api/calls/sandbox/incoming', {
      phone,
      outcome: 'missed',
    })
    expect(res.statusCode, res.body).toBe(201)
    const shown = incomingCallCard.strict().parse(res.json())
    expect(shown).toMatchObject({
      newLead: true,
      sandbox: true,
      status: 'ringing',
      ringUserIds: [receptionistBId],
    })
    expect(await ended(t, receptionistB, shown.id)).toMatchObject({
      status: 'no-answer',
      direction: 'inbound',
    })
    const answered = await send(t.app, receptionistB, 'POST', '/api/calls/sandbox/incoming', {
      phone,
      outcome: 'answered',
    })
    expect(answered.statusCode, answered.body).toBe(201)
    const again = incomingCallCard.parse(answered.json())
    expect(again).toMatchObject({ newLead: false, leadId: shown.leadId })
    expect(await ended(t, receptionistB, again.id)).toMatchObject({
      status: 'completed',
      outcome: 'answered',
    })
    expect(await leadsOfPhone(hospitalB, phone)).toHaveLength(1)
    // Another hospital's call is not found from here.
    expectError(
      await send(t.app, receptionistA, 'GET', `/api/calls/incoming/${again.id}`),
      404,
      'NOT_FOUND',
    )
  })
})

describe('the ring group', () => {
  it('defaults to receptionists with a verified phone; admins may name others; others may not', async () => {
    const res = await send(t.app, adminA, 'GET', '/api/calls/ring-group')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      configured: [],
      members: [{ userId: receptionistAId, phoneVerified: true }],
    })
    const adminId = await userIdOf(t.db, demoEmail('admin'))
    const put = await send(t.app, adminA, 'PUT', '/api/calls/ring-group', {
      userIds: [adminId, receptionistAId],
    })
    expect(put.statusCode, put.body).toBe(200)
    expect(put.json<{ members: { userId: string }[] }>().members.map((m) => m.userId)).toEqual([
      adminId,
      receptionistAId,
    ])
    expectError(
      await send(t.app, receptionistA, 'PUT', '/api/calls/ring-group', { userIds: [] }),
      403,
      'FORBIDDEN',
    )
    expectError(
      await send(t.app, adminA, 'PUT', '/api/calls/ring-group', { userIds: [receptionistBId] }),
      400,
      'VALIDATION',
    )
    // Incoming calls now pop up for both and dial both verified phones (the admin's is seeded).
    const call = incomingExotelCall(fake, {
      accountSid: A.accountSid,
      from: `+91${mobileEnding(1, 62)}`,
      exophone: A.exophone,
    })
    const numbers = (await connect(connectQuery(call))).json<{
      destination: { numbers: string[] }
    }>().destination.numbers
    expect(numbers).toHaveLength(2)
    expect(numbers[1]).toBe(phoneA)
    const [row] = await callsOfSid(hospitalA, call.sid)
    expect((await card(adminA, row?.id ?? '')).ringUserIds).toEqual([adminId, receptionistAId])
    await send(t.app, adminA, 'PUT', '/api/calls/ring-group', { userIds: [] })
  })
})
