import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startHttpFake, type FakeHttp } from '../../../../tests/support/fakes/http-fake'
import {
  startFakeTwilioVoice,
  type FakeTwilioVoice,
} from '../../../../tests/support/fakes/twilio-voice'
import { APP_VERSION } from '../../../shared/version'
import { verifyTwilioSignature } from '../messaging/signatures'
import { dialTwiml, twilioVoice } from './twilio-voice'
import { VoiceProviderError, type StartCallInput } from './voice-provider'

const SID = `AC${'1'.repeat(32)}`
const TOKEN = 'twilio-auth-token'
const VOICE_NUMBER = '+918069990000'
const STAFF = '+919812345670'
const CUSTOMER = '+919876543210'
let fake: FakeTwilioVoice
let receiver: FakeHttp

const provider = (authToken = TOKEN, timeoutMs?: number) =>
  twilioVoice({ accountSid: SID, authToken }, { baseUrl: fake.url, timeoutMs })
const input = (over: Partial<StartCallInput> = {}): StartCallInput => ({
  staffPhone: STAFF,
  customerPhone: CUSTOMER,
  callerId: VOICE_NUMBER,
  statusCallbackUrl: `${receiver.url}/api/webhooks/twilio/h1/voice/status?call=c42`,
  record: false,
  ...over,
})

async function refusal(promise: Promise<unknown>): Promise<VoiceProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(VoiceProviderError)
  return error as VoiceProviderError
}

beforeAll(async () => {
  fake = await startFakeTwilioVoice({ [SID]: { authToken: TOKEN, numbers: [VOICE_NUMBER] } })
  receiver = await startHttpFake(() => ({ status: 204 }))
})
afterAll(async () => {
  await fake.close()
  await receiver.close()
})
beforeEach(() => {
  fake.requests.length = 0
  fake.calls.length = 0
  fake.outcomes.clear()
  receiver.requests.length = 0
})

describe('Twilio Voice CreateCall against its fake (checked against the OpenAPI file)', () => {
  it('calls the staff phone from the hospital’s number and dials the customer with that caller id', async () => {
    const started = await provider().startCall(
      input({ record: true, ringTimeoutSeconds: 25, timeLimitSeconds: 1800 }),
    )
    const req = fake.requests.at(-1)
    expect(req?.refused).toBeNull()
    expect(req?.path).toBe(`/2010-04-01/Accounts/${SID}/Calls.json`)
    expect(req?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`,
    )
    expect(req?.headers['user-agent']).toBe(`ArogyaCRM/${APP_VERSION}`)
    const form = new URLSearchParams(req?.raw)
    expect(form.get('To')).toBe(STAFF)
    expect(form.get('From')).toBe(VOICE_NUMBER)
    expect(form.getAll('StatusCallbackEvent')).toEqual([
      'initiated',
      'ringing',
      'answered',
      'completed',
    ])
    expect(form.get('StatusCallback')).toBe(input().statusCallbackUrl)
    expect(form.get('StatusCallbackMethod')).toBe('POST')
    expect(form.get('Record')).toBe('true')
    expect(form.get('Timeout')).toBe('25')
    expect(form.get('TimeLimit')).toBe('1800')
    expect(form.has('Url')).toBe(false)
    const call = fake.calls[0]
    expect(call?.dial).toEqual({
      number: CUSTOMER,
      callerId: VOICE_NUMBER,
      statusCallback: `${receiver.url}/api/webhooks/twilio/h1/voice/status?call=c42&leg=customer`,
    })
    expect(started).toEqual({ providerCallId: call?.sid, status: 'queued' })
  })

  it('leaves out Record and the callbacks when not asked', async () => {
    await provider().startCall(input({ statusCallbackUrl: undefined }))
    const form = new URLSearchParams(fake.requests.at(-1)?.raw)
    expect(fake.requests.at(-1)?.refused).toBeNull()
    expect([...form.keys()].sort()).toEqual(['From', 'To', 'Twiml'])
    expect(form.get('Twiml')).toBe(
      `<Response><Dial callerId="${VOICE_NUMBER}"><Number>${CUSTOMER}</Number></Dial></Response>`,
    )
  })

  it('escapes what goes into the TwiML', () => {
    const twiml = dialTwiml(input({ statusCallbackUrl: 'https://x.example/cb?a=1&b="2"' }))
    expect(twiml).toContain(
      'statusCallback="https://x.example/cb?a=1&amp;b=%222%22&amp;leg=customer"',
    )
    expect(dialTwiml(input({ customerPhone: '<Hangup/>' }))).toContain('&lt;Hangup/&gt;')
  })

  it('the fake refuses an off-contract CreateCall (the contract check works)', async () => {
    const bad = await fetch(`${fake.url}/2010-04-01/Accounts/${SID}/Calls.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: STAFF, Timeout: 'soon' }).toString(),
    })
    expect(bad.status).toBe(400)
    expect(fake.requests.at(-1)?.refused?.join('; ')).toMatch(/From|Timeout/)
  })
})

describe('Twilio Voice FetchCall: the customer leg decides the outcome', () => {
  it('an answered call: completed, the customer leg’s talk time', async () => {
    fake.outcomes.set(CUSTOMER, { answer: 42 })
    const { providerCallId } = await provider().startCall(input())
    expect((await provider().fetchCall(providerCallId)).status).toBe('queued')
    const parent = fake.finish(providerCallId)
    const done = await provider().fetchCall(providerCallId)
    expect(fake.requests.at(-1)?.query.get('ParentCallSid')).toBe(providerCallId)
    expect(fake.requests.every((r) => r.refused === null)).toBe(true)
    expect(done).toMatchObject({
      providerCallId,
      status: 'completed',
      durationSeconds: 42,
      direction: 'outbound',
      from: VOICE_NUMBER,
      to: CUSTOMER,
    })
    expect(done.endedAt?.getTime()).toBe(Math.floor((parent.endedAt?.getTime() ?? 0) / 1000) * 1000)
  })

  it.each([
    ['the customer rings out', CUSTOMER, 'no-answer'],
    ['the customer is busy', CUSTOMER, 'busy'],
    ['the staff phone rings out', STAFF, 'no-answer'],
    ['the staff phone is busy', STAFF, 'busy'],
  ] as const)('when %s (%s): %s, no talk time', async (_, number, outcome) => {
    fake.outcomes.set(number, outcome)
    const { providerCallId } = await provider().startCall(input())
    fake.finish(providerCallId)
    const done = await provider().fetchCall(providerCallId)
    expect(done.status).toBe(outcome)
    expect(done.durationSeconds).toBe(0)
  })

  it('signs both legs’ status callbacks, the customer’s with leg=customer', async () => {
    fake.outcomes.set(CUSTOMER, { answer: 10 })
    const { providerCallId } = await provider().startCall(input())
    fake.finish(providerCallId)
    const statuses = await fake.sendCallEvents(providerCallId)
    expect(statuses).toHaveLength(8)
    const posts = receiver.requests.map((r) => ({
      url: `${receiver.url}${r.path}?${r.query.toString()}`,
      params: Object.fromEntries(new URLSearchParams(r.raw)),
      signature: r.headers['x-twilio-signature'],
    }))
    for (const p of posts)
      expect(verifyTwilioSignature(p.url, p.params, p.signature, TOKEN)).toBe(true)
    const customer = posts.filter((p) => p.url.endsWith('leg=customer'))
    expect(customer.map((p) => p.params.CallStatus)).toEqual([
      'initiated',
      'ringing',
      'in-progress',
      'completed',
    ])
    expect(customer.at(-1)?.params).toMatchObject({
      ParentCallSid: providerCallId,
      CallDuration: '10',
    })
  })
})

describe('Twilio Voice refusals in plain words', () => {
  it('wrong auth token: auth', async () => {
    const e = await refusal(provider('wrong').startCall(input()))
    expect(e).toMatchObject({ kind: 'auth', code: '20003' })
    expect(e.reason).toContain('auth token')
  })

  it('an account out of funds: balance, even though Twilio answers 401', async () => {
    fake.outcomes.set(STAFF, 'balance')
    const e = await refusal(provider().startCall(input()))
    expect(e).toMatchObject({ kind: 'balance', code: '20005' })
  })

  it('a number told to fail auth: auth', async () => {
    fake.outcomes.set(CUSTOMER, 'auth')
    expect((await refusal(provider().startCall(input()))).kind).toBe('auth')
  })

  it('a caller id that is not the account’s number: other, naming the voice number', async () => {
    const e = await refusal(provider().startCall(input({ callerId: '+918000000001' })))
    expect(e).toMatchObject({ kind: 'other', code: '21210' })
    expect(e.reason).toContain('voice number')
  })

  it('an invalid staff phone: invalid-number, pointing at the profile', async () => {
    const e = await refusal(provider().startCall(input({ staffPhone: '+12' })))
    expect(e).toMatchObject({ kind: 'invalid-number', code: '21211' })
    expect(e.reason).toContain('your profile')
    expect(e.reason).not.toContain('+12')
  })

  it('429 and 5xx: unavailable', async () => {
    fake.behave({ status: 429, code: 20429, retryAfter: '3' })
    expect(await refusal(provider().startCall(input()))).toMatchObject({
      kind: 'unavailable',
      retryAfterMs: 3000,
    })
    fake.behave({ status: 500 })
    expect((await refusal(provider().startCall(input()))).kind).toBe('unavailable')
  })

  it('a hung Twilio: unavailable after the timeout, maybe placed', async () => {
    fake.behave({ hang: true })
    const e = await refusal(provider(TOKEN, 200).startCall(input()))
    expect(e).toMatchObject({ kind: 'unavailable', code: 'TIMEOUT', maybePlaced: true })
  })

  it('details of an unknown call: other', async () => {
    const e = await refusal(provider().fetchCall(`CA${'f'.repeat(32)}`))
    expect(e).toMatchObject({ kind: 'other', code: '20404' })
  })
})
