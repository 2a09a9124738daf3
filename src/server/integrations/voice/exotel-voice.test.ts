import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeExotel, type FakeExotel } from '../../../../tests/support/fakes/exotel'
import { startHttpFake, type FakeHttp } from '../../../../tests/support/fakes/http-fake'
import { APP_VERSION } from '../../../shared/version'
import { exotelAccountUrl, exotelVoice, istTime, type ExotelCredentials } from './exotel-voice'
import { VoiceProviderError, type StartCallInput } from './voice-provider'

const SID = 'sanjeevani1'
const KEY = 'exo-key-123'
const TOKEN = 'exo-token-456'
const EXOPHONE = '+918047112233'
const STAFF = '+919812345670'
const CUSTOMER = '+919876543210'
let fake: FakeExotel
let receiver: FakeHttp

const credentials = (over: Partial<ExotelCredentials> = {}): ExotelCredentials => ({
  accountSid: SID,
  apiKey: KEY,
  apiToken: TOKEN,
  region: 'mumbai',
  ...over,
})
const provider = (over: Partial<ExotelCredentials> = {}, timeoutMs?: number) =>
  exotelVoice(credentials(over), { baseUrl: fake.url, timeoutMs })
const input = (over: Partial<StartCallInput> = {}): StartCallInput => ({
  staffPhone: STAFF,
  customerPhone: CUSTOMER,
  callerId: EXOPHONE,
  statusCallbackUrl: `${receiver.url}/api/webhooks/exotel/tok_abc/status`,
  record: false,
  reference: 'call-42',
  ...over,
})

/** The VoiceProviderError a promise rejects with (fails the test when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<VoiceProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(VoiceProviderError)
  return error as VoiceProviderError
}

beforeAll(async () => {
  fake = await startFakeExotel({
    [SID]: { apiKey: KEY, apiToken: TOKEN, exophones: [EXOPHONE] },
  })
  receiver = await startHttpFake(() => ({ status: 200 }))
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

describe('Exotel click-to-call against its fake', () => {
  it('rings the staff phone first, then the customer, as the ExoPhone, per the documented shape', async () => {
    const started = await provider().startCall(input({ record: true, ringTimeoutSeconds: 30 }))
    const req = fake.requests.at(-1)
    expect(req?.refused).toBeNull()
    expect(req?.method).toBe('POST')
    expect(req?.path).toBe(`/v1/Accounts/${SID}/Calls/connect.json`)
    expect(req?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${KEY}:${TOKEN}`).toString('base64')}`,
    )
    expect(req?.headers['user-agent']).toBe(`ArogyaCRM/${APP_VERSION}`)
    expect(req?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/)
    const form = Object.fromEntries(new URLSearchParams(req?.raw))
    expect(form).toEqual({
      From: STAFF,
      To: CUSTOMER,
      CallerId: EXOPHONE,
      CallType: 'trans',
      TimeOut: '30',
      Record: 'true',
      RecordingChannels: 'dual',
      RecordingFormat: 'mp3',
      CustomField: 'call-42',
      StatusCallback: `${receiver.url}/api/webhooks/exotel/tok_abc/status`,
      'StatusCallbackEvents[0]': 'terminal',
      'StatusCallbackEvents[1]': 'answered',
      StatusCallbackContentType: 'application/json',
    })
    expect(started.providerCallId).toBe(fake.calls[0]?.sid)
    expect(started.status).toBe('in-progress')
  })

  it('sends no recording or callback parameters when not asked', async () => {
    await provider().startCall(input({ record: false, statusCallbackUrl: undefined }))
    const form = new URLSearchParams(fake.requests.at(-1)?.raw)
    expect(fake.requests.at(-1)?.refused).toBeNull()
    expect([...form.keys()].sort()).toEqual(['CallType', 'CallerId', 'CustomField', 'From', 'To'])
  })

  it('caps TimeLimit at Exotel’s 4 hours', async () => {
    await provider().startCall(input({ timeLimitSeconds: 20_000 }))
    expect(new URLSearchParams(fake.requests.at(-1)?.raw).get('TimeLimit')).toBe('14400')
    expect(fake.requests.at(-1)?.refused).toBeNull()
  })

  it('reads an answered call: talk time, IST times as instants, the recording', async () => {
    fake.outcomes.set(CUSTOMER, { answer: 95 })
    const { providerCallId } = await provider().startCall(input({ record: true }))
    const live = await provider().fetchCall(providerCallId)
    expect(live).toMatchObject({ status: 'in-progress', durationSeconds: 0, endedAt: null })
    const call = fake.finish(providerCallId)
    const done = await provider().fetchCall(providerCallId)
    expect(fake.requests.at(-1)?.path).toBe(`/v1/Accounts/${SID}/Calls/${providerCallId}.json`)
    expect(fake.requests.at(-1)?.query.get('details')).toBe('true')
    expect(done).toMatchObject({
      providerCallId,
      status: 'completed',
      durationSeconds: 95,
      direction: 'outbound',
      from: STAFF,
      to: CUSTOMER,
      recordingUrl: call.recordingUrl,
    })
    expect(done.recordingUrl).toMatch(/^https:\/\//)
    const second = (d: Date) => Math.floor(d.getTime() / 1000)
    expect(second(done.startedAt ?? new Date(0))).toBe(second(call.createdAt))
    expect(second(done.endedAt ?? new Date(0))).toBe(second(call.endedAt ?? new Date(0)))
  })

  it.each([
    ['the customer rings out', CUSTOMER, 'no-answer'],
    ['the customer is busy', CUSTOMER, 'busy'],
    ['the staff phone rings out', STAFF, 'no-answer'],
    ['the call fails', CUSTOMER, 'failed'],
  ] as const)('maps the outcome when %s', async (_, number, outcome) => {
    fake.outcomes.set(number, outcome)
    const { providerCallId } = await provider().startCall(input())
    fake.finish(providerCallId)
    const done = await provider().fetchCall(providerCallId)
    expect(done.status).toBe(outcome)
    expect(done.durationSeconds).toBe(0)
    expect(done.recordingUrl).toBeUndefined()
  })

  it('posts the StatusCallback the fake promises, as JSON, answered then terminal', async () => {
    fake.outcomes.set(CUSTOMER, { answer: 30 })
    const { providerCallId } = await provider().startCall(input())
    fake.finish(providerCallId)
    expect(await fake.sendStatusCallback(providerCallId, { order: 'twice' })).toEqual([
      200, 200, 200, 200,
    ])
    const bodies = receiver.requests.map((r) => JSON.parse(r.raw) as Record<string, unknown>)
    expect(bodies.map((b) => b.EventType)).toEqual(['answered', 'answered', 'terminal', 'terminal'])
    expect(bodies[2]).toMatchObject({
      CallSid: providerCallId,
      Status: 'completed',
      ConversationDuration: 30,
      CustomField: 'call-42',
    })
  })
})

describe('Exotel refusals in plain words', () => {
  it('wrong API token: auth', async () => {
    const e = await refusal(provider({ apiToken: 'wrong' }).startCall(input()))
    expect(e).toMatchObject({ kind: 'auth', code: 'HTTP 401' })
    expect(e.reason).toContain('API key or token')
  })

  it('an account SID that is not the key’s: auth', async () => {
    const e = await refusal(provider({ accountSid: 'someone-else' }).startCall(input()))
    expect(e.kind).toBe('auth')
  })

  it('a number told to fail auth: auth', async () => {
    fake.outcomes.set(CUSTOMER, 'auth')
    expect((await refusal(provider().startCall(input()))).kind).toBe('auth')
  })

  it('no balance: balance, with what to do', async () => {
    fake.outcomes.set(CUSTOMER, 'balance')
    const e = await refusal(provider().startCall(input()))
    expect(e).toMatchObject({ kind: 'balance', code: 'HTTP 402' })
    expect(e.reason).toContain('top it up')
    expect(fake.calls).toHaveLength(0)
  })

  it('a caller id that is not the account’s ExoPhone: other, naming the ExoPhone', async () => {
    const e = await refusal(provider().startCall(input({ callerId: '+918000000000' })))
    expect(e.kind).toBe('other')
    expect(e.reason).toContain('ExoPhone')
  })

  it('an invalid customer number and an invalid staff number: invalid-number, told apart', async () => {
    const customer = await refusal(provider().startCall(input({ customerPhone: '12ab' })))
    expect(customer.kind).toBe('invalid-number')
    expect(customer.reason).toContain('contact’s number')
    const staff = await refusal(provider().startCall(input({ staffPhone: '12ab' })))
    expect(staff.kind).toBe('invalid-number')
    expect(staff.reason).toContain('your profile')
  })

  it('never repeats the number or Exotel’s own message in the reason', async () => {
    const e = await refusal(provider().startCall(input({ customerPhone: '99999' })))
    expect(e.reason).not.toContain('99999')
    expect(e.reason).not.toContain('Invalid request')
  })

  it('429 and 5xx: unavailable, with Retry-After', async () => {
    fake.behave({ status: 429, retryAfter: '7' })
    const slow = await refusal(provider().startCall(input()))
    expect(slow).toMatchObject({
      kind: 'unavailable',
      code: 'HTTP 429',
      maybePlaced: false,
      retryAfterMs: 7000,
    })
    fake.behave({ status: 503 })
    expect((await refusal(provider().startCall(input()))).kind).toBe('unavailable')
  })

  it('a hung Exotel: unavailable after the timeout, and the call may have been placed', async () => {
    fake.behave({ hang: true })
    const e = await refusal(provider({}, 200).startCall(input()))
    expect(e).toMatchObject({ kind: 'unavailable', code: 'TIMEOUT', maybePlaced: true })
  })

  it('Exotel unreachable: unavailable, nothing placed', async () => {
    const closed = await startHttpFake(() => ({ status: 200 }))
    await closed.close()
    const e = await refusal(exotelVoice(credentials(), { baseUrl: closed.url }).startCall(input()))
    expect(e).toMatchObject({ kind: 'unavailable', code: 'ECONNREFUSED', maybePlaced: false })
  })

  it('details of an unknown call: other', async () => {
    const e = await refusal(provider().fetchCall('f00dfeed'))
    expect(e.kind).toBe('other')
    expect(e.reason).toBe('Exotel has no record of this call.')
  })

  it('the caller’s own abort is passed through, not turned into a provider error', async () => {
    fake.behave({ hang: true })
    const controller = new AbortController()
    const pending = provider().startCall(input(), controller.signal)
    setTimeout(() => controller.abort(new Error('shutting down')), 50)
    await expect(pending).rejects.toThrow('shutting down')
  })
})

describe('Exotel regions and times', () => {
  it('Mumbai and Singapore hosts, unless a base URL replaces them', () => {
    expect(exotelAccountUrl(credentials({ region: 'mumbai' }))).toBe(
      `https://api.in.exotel.com/v1/Accounts/${SID}`,
    )
    expect(exotelAccountUrl(credentials({ region: 'singapore' }))).toBe(
      `https://api.exotel.com/v1/Accounts/${SID}`,
    )
    expect(exotelAccountUrl(credentials(), 'http://127.0.0.1:9/')).toBe(
      `http://127.0.0.1:9/v1/Accounts/${SID}`,
    )
  })

  it('reads Exotel’s IST wall-clock times', () => {
    expect(istTime('2026-12-02 10:48:33')?.toISOString()).toBe('2026-12-02T05:18:33.000Z')
    expect(istTime('')).toBeNull()
    expect(istTime(null)).toBeNull()
    expect(istTime('02/12/2026')).toBeNull()
  })
})
