import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeMsg91, type FakeMsg91 } from '../../../../tests/support/fakes/msg91'
import type { OutboundMessage } from '../messaging/provider'
import { msg91Provider } from './msg91-provider'

const KEY = 'msg91-auth-key'
const DLT_TEMPLATE = '1207161234567890123'
const PE_ID = '1201159543060917386'
const REGISTERED = 'Dear {#var#}, your appointment at Sanjeevani Clinic is on {#var#}. -SNJVNI'
let fake: FakeMsg91
const signal = () => new AbortController().signal
const provider = (authKey = KEY) =>
  msg91Provider({ authKey, senderId: 'SNJVNI', dltEntityId: PE_ID }, fake.url)

const sms = (over: Partial<OutboundMessage> = {}): OutboundMessage => ({
  channel: 'sms',
  to: '+919876543210',
  idempotencyKey: 'comm-9',
  text: 'Dear Asha, your appointment at Sanjeevani Clinic is on 28 Nov 10:30. -SNJVNI',
  template: {
    language: 'en',
    variables: [],
    category: 'service_implicit',
    dltTemplateId: DLT_TEMPLATE,
    dltBody: REGISTERED,
  },
  ...over,
})

beforeAll(async () => {
  fake = await startFakeMsg91([KEY])
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.requests.length = 0
})

describe('MSG91 adapter against its fake', () => {
  it('sends with the DLT header, template id and PE ID; the auth key in the body', async () => {
    const result = await provider().send(sms(), signal())
    expect(result).toMatchObject({ ok: true, status: 'sent' })
    const req = fake.requests.at(-1)
    expect(req?.refused).toBeNull()
    expect(req?.query.has('authkey')).toBe(false)
    const f = new URLSearchParams(req?.raw)
    expect(Object.fromEntries(f)).toMatchObject({
      authkey: KEY,
      mobiles: '919876543210',
      sender: 'SNJVNI',
      route: '4',
      country: '91',
      DLT_TE_ID: DLT_TEMPLATE,
      PE_ID,
    })
    expect(f.has('unicode')).toBe(false)
    expect(fake.acceptedTo.get('919876543210')).toBe(1)
  })

  it('marks UCS-2 text unicode and promotional templates route 1', async () => {
    const text = 'प्रिय Asha, ₹500 offer'
    const r = await provider().send(
      sms({
        text,
        template: {
          language: 'hi',
          variables: [],
          category: 'promotional',
          dltTemplateId: DLT_TEMPLATE,
        },
      }),
      signal(),
    )
    expect(r.ok).toBe(true)
    const f = new URLSearchParams(fake.requests.at(-1)?.raw)
    expect(f.get('unicode')).toBe('1')
    expect(f.get('route')).toBe('1')
  })

  it('refuses, before any HTTP call, a text that differs from the registered template', async () => {
    const r = await provider().send(
      sms({ text: 'Dear Asha, come for a FREE check-up today!' }),
      signal(),
    )
    expect(r).toMatchObject({ ok: false, kind: 'rejected', code: 'DLT_MISMATCH' })
    expect(fake.requests).toHaveLength(0)
  })

  it('refuses free text without a DLT template id', async () => {
    const r = await provider().send(sms({ template: undefined }), signal())
    expect(r).toMatchObject({ ok: false, kind: 'rejected', code: 'NO_DLT_TEMPLATE' })
    expect(fake.requests).toHaveLength(0)
  })

  it('a wrong auth key: auth', async () => {
    expect(await provider('nope').send(sms(), signal())).toMatchObject({
      ok: false,
      kind: 'auth',
      code: '207',
    })
  })

  it.each([
    [200, '202', 'invalid_number'],
    [200, '612', 'rejected'],
    [200, '301', 'rejected'],
    [503, '503', 'temporary'],
  ] as const)('maps HTTP %i code %s to %s', async (status, code, kind) => {
    fake.behave({ status, code })
    const r = await provider().send(sms(), signal())
    expect(r).toMatchObject({ ok: false, kind, code })
    if (code === '612' && !r.ok) expect(r.reason).toMatch(/DLT/)
  })

  it('throttled with Retry-After, and a hang aborted by the signal', async () => {
    fake.behave({ status: 429, code: '429', retryAfter: '2' })
    expect(await provider().send(sms(), signal())).toMatchObject({
      kind: 'temporary',
      retryAfterMs: 2000,
    })
    fake.behave({ hang: true })
    await expect(provider().send(sms(), AbortSignal.timeout(200))).rejects.toThrow()
  })

  it('lookup is unknown', async () => {
    expect(
      await provider().lookup(
        { idempotencyKey: 'k', to: '+919876543210', since: new Date() },
        signal(),
      ),
    ).toEqual({ found: 'unknown' })
  })

  it('the fake refuses a request without the DLT fields', async () => {
    const res = await fetch(`${fake.url}/api/sendhttp.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        authkey: KEY,
        mobiles: '919876543210',
        message: 'hi',
        sender: 'AB',
        route: '4',
        response: 'json',
      }).toString(),
    })
    expect(res.status).toBe(400)
    expect(fake.requests.at(-1)?.refused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/sender/),
        expect.stringMatching(/DLT_TE_ID/),
        expect.stringMatching(/PE_ID/),
      ]),
    )
  })
})
