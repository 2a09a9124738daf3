import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { openDatabase } from '../../src/server/db/client'
import { createMessagingHub, type HubEvent } from '../../src/server/modules/messaging-events/hub'
import { twilioSignature } from '../../src/server/integrations/messaging/signatures'
import type { Worker } from '../../src/server/jobs/worker'
import {
  callCommunications,
  FAST_VOICE,
  getCall,
  leadWithPhone,
  mobileEnding,
  setCallingHours,
  startCall,
  verifyMyPhone,
} from '../support/calls'
import type { FakeVoiceOutcome } from '../support/fakes/exotel'
import { type FakeTwilioVoice, startFakeTwilioVoice } from '../support/fakes/twilio-voice'
import { onPostgres, waitFor } from '../support/jobs'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  TEST_AUTH_SECRET,
  type TestApp,
} from '../support/test-app'
import {
  endedCall,
  listenLocally,
  statusCallbackUrl,
  useTwilio,
  voiceJobsSettled,
  voiceWorker,
  wireTwilio,
} from '../support/voice-webhooks'

// Issue 41, webhooks: Twilio's voice status callbacks (the staff leg's, and the customer leg's
// with leg=customer) are verified with X-Twilio-Signature under the hospital's voice auth
// token, then confirmed and applied in a job: the call ends as the customer's leg went.

const A = {
  accountSid: `AC${'a'.repeat(32)}`,
  authToken: 'twilio-voice-token-a',
  number: '+14155550141',
}
const B = {
  accountSid: `AC${'b'.repeat(32)}`,
  authToken: 'twilio-voice-token-b',
  number: '+14155550142',
}

let t: TestApp
let fake: FakeTwilioVoice
let worker: Worker
let admin: string
let hospitalA: string
let hospitalB: string
let base: string
let urlA: string | undefined
let urlB: string | undefined

beforeAll(async () => {
  fake = await startFakeTwilioVoice({
    [A.accountSid]: { authToken: A.authToken, numbers: [A.number] },
    [B.accountSid]: { authToken: B.authToken, numbers: [B.number] },
  })
  t = await createTestApp({ voice: { ...FAST_VOICE, twilioUrl: fake.url } })
  base = await listenLocally(t)
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  await setCallingHours(t, hospitalA, '00:00', '00:00')
  await verifyMyPhone(t, admin, mobileEnding(1, 47))
  await useTwilio(t, hospitalA, A)
  await useTwilio(t, hospitalB, B)
  const url = (hospitalId: string) =>
    statusCallbackUrl({ kind: 'twilio', hospitalId, callbackToken: null, publicBase: base })
  urlA = url(hospitalA)
  urlB = url(hospitalB)
  worker = voiceWorker(t)
  await worker.start()
})
afterAll(async () => {
  await worker?.stop()
  await t?.close()
  await fake?.close()
})

async function placed(customer?: FakeVoiceOutcome) {
  const lead = await leadWithPhone(t, admin, 1)
  if (customer) fake.outcomes.set(lead.phone, customer)
  const call = await startCall(t, admin, { leadId: lead.id })
  const sent = fake.calls.at(-1)
  if (!sent || sent.dial?.number !== lead.phone) throw new Error('the fake has no such call')
  wireTwilio(sent, urlA)
  return { call, sent }
}

function post(url: string, params: Record<string, string>, token: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
  if (token) headers['x-twilio-signature'] = twilioSignature(url, params, token)
  return fetch(url, { method: 'POST', headers, body: new URLSearchParams(params).toString() })
}

describe('Twilio voice callbacks', () => {
  it('an answered call ends completed with the customer’s talk time and one Communication', async () => {
    const { call, sent } = await placed({ answer: 77 })
    fake.finish(sent.sid)
    const statuses = await fake.sendCallEvents(sent.sid)
    expect(statuses.length).toBeGreaterThan(4)
    expect(statuses.every((s) => s === 200)).toBe(true)
    const ended = await endedCall(t, admin, call.id)
    expect(ended).toMatchObject({ status: 'completed', outcome: 'answered', durationSeconds: 77 })
    const comms = await callCommunications(t, call.id)
    expect(comms).toHaveLength(1)
    expect(comms[0]?.metadata).toMatchObject({ durationSeconds: 77, outcome: 'answered' })
  })

  it.each([['no-answer'], ['busy']] as const)(
    'a customer who is %s ends the call so',
    async (o) => {
      const { call, sent } = await placed(o)
      fake.finish(sent.sid)
      await fake.sendCallEvents(sent.sid)
      expect(await endedCall(t, admin, call.id)).toMatchObject({ status: o, durationSeconds: 0 })
      expect(await callCommunications(t, call.id)).toHaveLength(1)
    },
  )

  it.each([['twice'], ['reversed']] as const)(
    'events sent %s end the call right, once',
    async (order) => {
      const { call, sent } = await placed({ answer: 31 })
      fake.finish(sent.sid)
      expect((await fake.sendCallEvents(sent.sid, { order })).every((s) => s === 200)).toBe(true)
      expect(await endedCall(t, admin, call.id)).toMatchObject({
        status: 'completed',
        durationSeconds: 31,
      })
      expect(await callCommunications(t, call.id)).toHaveLength(1)
    },
  )

  it('a signed callback the call details contradict is not applied as sent', async () => {
    const { call, sent } = await placed('busy')
    fake.finish(sent.sid)
    const params = { CallSid: sent.sid, CallStatus: 'completed', CallDuration: '900' }
    expect((await post(urlA ?? '', params, A.authToken)).status).toBe(200)
    expect(await endedCall(t, admin, call.id)).toMatchObject({ status: 'busy', durationSeconds: 0 })
  })

  it('a missing or wrong signature, or a hospital without Twilio voice, is 403 and changes nothing', async () => {
    const { call, sent } = await placed({ answer: 20 })
    fake.finish(sent.sid)
    const params = { CallSid: sent.sid, CallStatus: 'completed' }
    const url = urlA ?? ''
    for (const token of [null, 'not-the-token', B.authToken]) {
      const res = await post(url, params, token)
      expect(res.status).toBe(403)
      expect(await res.text()).not.toMatch(/stack|token/i)
    }
    // Signed with the right token but for another URL (the customer leg's): refused too.
    const signedElsewhere = twilioSignature(`${url}?leg=customer`, params, A.authToken)
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signedElsewhere,
      },
      body: new URLSearchParams(params).toString(),
    })
    expect(res.status).toBe(403)
    await voiceJobsSettled(t)
    expect((await getCall(t, admin, call.id)).endedAt).toBeNull()
    await fake.sendCallEvents(sent.sid)
    expect(await endedCall(t, admin, call.id)).toMatchObject({ status: 'completed' })
  })

  it('a callback naming another hospital’s call changes nothing', async () => {
    const { call, sent } = await placed({ answer: 25 })
    fake.finish(sent.sid)
    // Hospital B's URL, correctly signed with B's token, hospital A's CallSid.
    const params = { CallSid: sent.sid, CallStatus: 'completed' }
    expect((await post(urlB ?? '', params, B.authToken)).status).toBe(200)
    await voiceJobsSettled(t)
    expect((await getCall(t, admin, call.id)).endedAt).toBeNull()
    await fake.sendCallEvents(sent.sid)
    expect(await endedCall(t, admin, call.id)).toMatchObject({ status: 'completed' })
  })
})

describe.skipIf(!onPostgres)('two instances', () => {
  it('a callback landing on the instance that did not start the call reaches the screens of the one that did', async () => {
    // Instance B: the same database through its own pool, its own HTTP port.
    const second = await openDatabase({ databaseUrl: t.directUrl ?? '' })
    const { app: appB } = await buildApp({
      database: second,
      databaseDirectUrl: t.directUrl,
      authSecret: TEST_AUTH_SECRET,
      logLevel: 'silent',
      voice: { ...FAST_VOICE, twilioUrl: fake.url },
    })
    await appB.listen({ port: 0, host: '127.0.0.1' })
    const baseB = `http://127.0.0.1:${(appB.server.address() as AddressInfo).port}`
    // Instance A's screens: its hub, subscribed to the hospital.
    const hub = await createMessagingHub({
      database: t.database,
      directUrl: t.directUrl,
      log: { warn: () => {}, info: () => {} },
    })
    const events: HubEvent[] = []
    hub.subscribe(hospitalA, (e) => events.push(e))
    try {
      const { call, sent } = await placed({ answer: 42 })
      wireTwilio(
        sent,
        statusCallbackUrl({
          kind: 'twilio',
          hospitalId: hospitalA,
          callbackToken: null,
          publicBase: baseB,
        }),
      )
      fake.finish(sent.sid)
      expect((await fake.sendCallEvents(sent.sid)).every((s) => s === 200)).toBe(true)
      expect(await endedCall(t, admin, call.id)).toMatchObject({
        status: 'completed',
        durationSeconds: 42,
      })
      await waitFor(
        async () =>
          events.some(
            (e) => e.type === 'call' && e.data.id === call.id && e.data.status === 'completed',
          ),
        'the completed call event on instance A',
      )
    } finally {
      await hub.close()
      await appB.close()
      await second.close()
    }
  })
})
