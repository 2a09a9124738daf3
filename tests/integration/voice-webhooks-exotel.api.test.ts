import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
import { type FakeExotel, startFakeExotel } from '../support/fakes/exotel'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'
import {
  callbackToken,
  endedCall,
  listenLocally,
  statusCallbackUrl,
  useExotel,
  voiceJobsSettled,
  voiceWorker,
  wireExotel,
} from '../support/voice-webhooks'

// Issue 41, webhooks: Exotel's StatusCallback carries no signature. The URL holds the
// hospital's unguessable token; each callback is confirmed with Exotel's call details before
// it changes anything, in a job; duplicates and out-of-order callbacks end the call right.

const A = {
  accountSid: 'sanjeevani-wh',
  apiKey: 'key-wh-a',
  apiToken: 'token-wh-a',
  exophone: '+918047110001',
}
const B = {
  accountSid: 'smile-wh',
  apiKey: 'key-wh-b',
  apiToken: 'token-wh-b',
  exophone: '+918047110002',
}

let t: TestApp
let fake: FakeExotel
let worker: Worker
let admin: string
let hospitalA: string
let hospitalB: string
let base: string
let urlA: string | undefined
let urlB: string | undefined

beforeAll(async () => {
  fake = await startFakeExotel({
    [A.accountSid]: { apiKey: A.apiKey, apiToken: A.apiToken, exophones: [A.exophone] },
    [B.accountSid]: { apiKey: B.apiKey, apiToken: B.apiToken, exophones: [B.exophone] },
  })
  t = await createTestApp({ voice: { ...FAST_VOICE, exotelUrl: fake.url } })
  base = await listenLocally(t)
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  await setCallingHours(t, hospitalA, '00:00', '00:00')
  await verifyMyPhone(t, admin, mobileEnding(1, 46))
  await useExotel(t, hospitalA, A)
  await useExotel(t, hospitalB, B)
  const url = async (hospitalId: string) =>
    statusCallbackUrl({
      kind: 'exotel',
      hospitalId,
      callbackToken: await callbackToken(t, hospitalId),
      publicBase: base,
    })
  urlA = await url(hospitalA)
  urlB = await url(hospitalB)
  worker = voiceWorker(t)
  await worker.start()
})
afterAll(async () => {
  await worker?.stop()
  await t?.close()
  await fake?.close()
})

/** A call to a new lead through Exotel, its callbacks pointed at this app. */
async function placed(outcome?: Parameters<FakeExotel['outcomes']['set']>[1]) {
  const lead = await leadWithPhone(t, admin, 1)
  if (outcome) fake.outcomes.set(lead.phone, outcome)
  const call = await startCall(t, admin, { leadId: lead.id })
  const sent = fake.calls.at(-1)
  if (!sent || sent.params.CustomField !== call.id) throw new Error('the fake has no such call')
  wireExotel(sent, urlA)
  return { call, sent }
}

const post = (url: string | undefined, body: unknown) =>
  fetch(url ?? '', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

describe('Exotel status callbacks', () => {
  it('an answered call ends completed with the conversation’s length and one Communication', async () => {
    const { call, sent } = await placed({ answer: 125 })
    fake.finish(sent.sid)
    expect(await fake.sendStatusCallback(sent.sid)).toEqual([200, 200])
    const ended = await endedCall(t, admin, call.id)
    expect(ended).toMatchObject({ status: 'completed', outcome: 'answered', durationSeconds: 125 })
    const comms = await callCommunications(t, call.id)
    expect(comms).toHaveLength(1)
    expect(comms[0]?.metadata).toMatchObject({ durationSeconds: 125, outcome: 'answered' })
    // The details were asked for before anything changed.
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.includes(sent.sid))).toBe(true)
  })

  it.each([['no-answer'], ['busy']] as const)('a %s call ends so, with no talk time', async (o) => {
    const { call, sent } = await placed(o)
    fake.finish(sent.sid)
    await fake.sendStatusCallback(sent.sid)
    const ended = await endedCall(t, admin, call.id)
    expect(ended).toMatchObject({ status: o, outcome: o, durationSeconds: 0 })
    expect(await callCommunications(t, call.id)).toHaveLength(1)
  })

  it.each([['twice'], ['reversed']] as const)(
    'callbacks sent %s end the call right, once',
    async (order) => {
      const { call, sent } = await placed({ answer: 42 })
      fake.finish(sent.sid)
      expect((await fake.sendStatusCallback(sent.sid, { order })).every((s) => s === 200)).toBe(
        true,
      )
      const ended = await endedCall(t, admin, call.id)
      expect(ended).toMatchObject({ status: 'completed', durationSeconds: 42 })
      expect(await callCommunications(t, call.id)).toHaveLength(1)
      // Once it has ended, a late callback (here an out-of-order 'ringing') is answered and
      // makes no job at all.
      const jobs = () =>
        queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from jobs where name = 'voice.callback'
              and payload->>'callId' = ${call.id}`,
        )
      const before = await jobs()
      const late = { CallSid: sent.sid, Status: 'ringing', CustomField: call.id }
      expect((await post(urlA, late)).status).toBe(200)
      expect(await jobs()).toEqual(before)
    },
  )

  it('a callback the call details contradict is not applied as sent', async () => {
    const { call, sent } = await placed('busy')
    fake.finish(sent.sid)
    const forged = {
      CallSid: sent.sid,
      Status: 'completed',
      ConversationDuration: 600,
      CustomField: call.id,
    }
    expect((await post(urlA, forged)).status).toBe(200)
    const ended = await endedCall(t, admin, call.id)
    expect(ended).toMatchObject({ status: 'busy', durationSeconds: 0 })

    // A live call that a callback calls completed stays live until Exotel says it ended.
    const live = await placed({ answer: 30 })
    const early = { CallSid: live.sent.sid, Status: 'completed', ConversationDuration: 600 }
    expect((await post(urlA, early)).status).toBe(200)
    await voiceJobsSettled(t)
    expect((await getCall(t, admin, live.call.id)).endedAt).toBeNull()
    fake.finish(live.sent.sid)
    await fake.sendStatusCallback(live.sent.sid)
    expect(await endedCall(t, admin, live.call.id)).toMatchObject({ durationSeconds: 30 })
  })

  it('an unknown token or hospital is 404 with no detail, and a bad body 400', async () => {
    const token = await callbackToken(t, hospitalA)
    const wrong = `${base}/api/webhooks/exotel/${hospitalA}/status?t=${'f'.repeat(64)}`
    const otherHospital = `${base}/api/webhooks/exotel/${hospitalB}/status?t=${token}`
    const notId = `${base}/api/webhooks/exotel/not-a-hospital/status?t=${token}`
    const noToken = `${base}/api/webhooks/exotel/${hospitalA}/status`
    for (const url of [wrong, otherHospital, notId, noToken]) {
      const res = await post(url, { CallSid: 'abcdef123456', Status: 'completed' })
      expect(res.status).toBe(404)
      expect(await res.text()).not.toMatch(/token|hospital|stack/i)
    }
    const bad = await post(urlA, { Status: 'completed' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION' })
  })

  it('a callback naming another hospital’s call, or no call, changes nothing', async () => {
    const { call, sent } = await placed({ answer: 50 })
    fake.finish(sent.sid)
    // Hospital B's own URL and token, hospital A's CallSid: not B's call.
    expect((await post(urlB, { CallSid: sent.sid, Status: 'completed' })).status).toBe(200)
    expect((await post(urlA, { CallSid: 'nosuchcall123', Status: 'completed' })).status).toBe(200)
    await voiceJobsSettled(t)
    expect((await getCall(t, admin, call.id)).endedAt).toBeNull()
    await fake.sendStatusCallback(sent.sid)
    expect(await endedCall(t, admin, call.id)).toMatchObject({ status: 'completed' })
  })
})
