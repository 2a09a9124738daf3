import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeTwilio, type FakeTwilio } from '../../../../tests/support/fakes/twilio'
import { verifyTwilioSignature } from '../messaging/signatures'
import type { OutboundMessage } from '../messaging/provider'
import { twilioProvider } from './twilio-provider'

const SID = `AC${'1a'.repeat(16)}`
const TOKEN = 'test-auth-token'
const CONTENT_SID = `HX${'2b'.repeat(16)}`
let fake: FakeTwilio
const signal = () => new AbortController().signal

const sms = (over: Partial<OutboundMessage> = {}): OutboundMessage => ({
  channel: 'sms',
  to: '+919876543210',
  idempotencyKey: 'comm-1',
  text: 'Your appointment is at 10:30.',
  statusCallbackUrl: 'https://crm.example.in/api/webhooks/twilio/h1/status',
  ...over,
})

beforeAll(async () => {
  fake = await startFakeTwilio({ [SID]: TOKEN })
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.requests.length = 0
})

describe('Twilio adapter against the contract-checking fake', () => {
  it('sends an SMS form-encoded with Basic auth and the key in the StatusCallback URL', async () => {
    const p = twilioProvider(
      'sms',
      { accountSid: SID, authToken: TOKEN, from: '+14155550100' },
      fake.url,
    )
    const result = await p.send(sms(), signal())
    expect(result).toMatchObject({ ok: true, status: 'sent' })
    const req = fake.requests.at(-1)
    expect(req?.refused).toBeNull()
    const form = new URLSearchParams(req?.raw)
    expect(form.get('To')).toBe('+919876543210')
    expect(form.get('From')).toBe('+14155550100')
    expect(form.get('Body')).toBe('Your appointment is at 10:30.')
    expect(new URL(form.get('StatusCallback') ?? '').searchParams.get('c')).toBe('comm-1')
    if (result.ok) expect(result.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/)
  })

  it('sends WhatsApp as whatsapp:+91… and a template by ContentSid with ContentVariables', async () => {
    const p = twilioProvider(
      'whatsapp',
      { accountSid: SID, authToken: TOKEN, from: '+14155238886' },
      fake.url,
    )
    const result = await p.send(
      sms({
        channel: 'whatsapp',
        template: {
          contentSid: CONTENT_SID,
          language: 'en',
          variables: ['Asha', '10:30'],
          category: 'utility',
        },
      }),
      signal(),
    )
    expect(result.ok).toBe(true)
    const form = new URLSearchParams(fake.requests.at(-1)?.raw)
    expect(form.get('To')).toBe('whatsapp:+919876543210')
    expect(form.get('From')).toBe('whatsapp:+14155238886')
    expect(form.get('ContentSid')).toBe(CONTENT_SID)
    expect(JSON.parse(form.get('ContentVariables') ?? '')).toEqual({ '1': 'Asha', '2': '10:30' })
    expect(form.has('Body')).toBe(false)
  })

  it('refuses a WhatsApp template without a Content SID before any HTTP call', async () => {
    const p = twilioProvider(
      'whatsapp',
      { accountSid: SID, authToken: TOKEN, from: '+14155238886' },
      fake.url,
    )
    const result = await p.send(
      sms({
        channel: 'whatsapp',
        template: { name: 'x', language: 'en', variables: [], category: 'utility' },
      }),
      signal(),
    )
    expect(result).toMatchObject({ ok: false, kind: 'rejected', code: 'NO_CONTENT_SID' })
    expect(fake.requests).toHaveLength(0)
  })

  it.each([
    [400, 21610, 'opted_out'],
    [400, 63016, 'outside_window'],
    [400, 21211, 'invalid_number'],
    [400, 21614, 'invalid_number'],
    [401, 20003, 'auth'],
    [503, 20500, 'temporary'],
    [400, 21408, 'rejected'],
  ] as const)('maps HTTP %i error %i to %s', async (status, code, kind) => {
    fake.behave({ status, code })
    const p = twilioProvider(
      'sms',
      { accountSid: SID, authToken: TOKEN, from: '+14155550100' },
      fake.url,
    )
    const result = await p.send(sms(), signal())
    expect(result).toMatchObject({ ok: false, kind, code: String(code) })
    if (!result.ok) expect(result.reason).not.toContain('9876543210')
  })

  it('throttled: temporary with Retry-After in ms', async () => {
    fake.behave({ status: 429, code: 20429, retryAfter: '7' })
    const p = twilioProvider(
      'sms',
      { accountSid: SID, authToken: TOKEN, from: '+14155550100' },
      fake.url,
    )
    expect(await p.send(sms(), signal())).toMatchObject({
      ok: false,
      kind: 'temporary',
      retryAfterMs: 7000,
    })
  })

  it('wrong auth token: the fake answers 20003 and the adapter says auth', async () => {
    const p = twilioProvider(
      'sms',
      { accountSid: SID, authToken: 'wrong', from: '+14155550100' },
      fake.url,
    )
    expect(await p.send(sms(), signal())).toMatchObject({ ok: false, kind: 'auth', code: '20003' })
  })

  it('a hung provider is aborted by the signal (ambiguous: rejects, never "temporary")', async () => {
    fake.behave({ hang: true })
    const p = twilioProvider(
      'sms',
      { accountSid: SID, authToken: TOKEN, from: '+14155550100' },
      fake.url,
    )
    await expect(p.send(sms(), AbortSignal.timeout(200))).rejects.toThrow()
  })

  it('an unreachable provider is temporary (nothing was sent)', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((r) => closed.close(() => r()))
    const p = twilioProvider(
      'sms',
      { accountSid: SID, authToken: TOKEN, from: '+14155550100' },
      `http://127.0.0.1:${port}`,
    )
    expect(await p.send(sms(), signal())).toMatchObject({
      ok: false,
      kind: 'temporary',
      code: 'ECONNREFUSED',
    })
  })

  it('lookup finds an earlier send by recipient, text and time; not one of another text', async () => {
    const p = twilioProvider(
      'sms',
      { accountSid: SID, authToken: TOKEN, from: '+14155550100' },
      fake.url,
    )
    const since = new Date()
    const sent = await p.send(sms({ to: '+919811122233', text: 'Lookup me' }), signal())
    if (!sent.ok) throw new Error('send failed')
    const found = await p.lookup(
      { idempotencyKey: 'comm-1', to: '+919811122233', since, text: 'Lookup me' },
      signal(),
    )
    expect(found).toEqual({
      found: true,
      providerMessageId: sent.providerMessageId,
      status: 'sent',
    })
    const listing = fake.requests.at(-1)
    expect(listing?.method).toBe('GET')
    expect(listing?.refused).toBeNull()
    expect(listing?.query.get('DateSent>')).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(
      await p.lookup({ idempotencyKey: 'x', to: '+919811122233', since, text: 'Other' }, signal()),
    ).toEqual({ found: false })
    expect(await p.lookup({ idempotencyKey: 'x', to: '+919800000000', since }, signal())).toEqual({
      found: false,
    })
  })

  it('the fake refuses an off-contract request (bad AccountSid, missing To, bad ContentSid)', async () => {
    const bad = await fetch(`${fake.url}/2010-04-01/Accounts/${SID}/Messages.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ From: '+14155550100', ContentSid: 'HX1' }).toString(),
    })
    expect(bad.status).toBe(400)
    const body = (await bad.json()) as { code: number; message: string }
    expect(body.code).toBe(21604)
    expect(body.message).toMatch(/To/)
    expect(body.message).toMatch(/ContentSid/)
    expect(fake.acceptedTo.size).toBeGreaterThan(0)
  })

  it('signs status callbacks, in order, reversed and twice', async () => {
    const received: { status: string; ok: boolean }[] = []
    const hook = createServer((req, res) => {
      let raw = ''
      req.on('data', (c: Buffer) => (raw += c.toString()))
      req.on('end', () => {
        const params = Object.fromEntries(new URLSearchParams(raw))
        const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}${req.url ?? ''}`
        received.push({
          status: params.MessageStatus ?? '',
          ok: verifyTwilioSignature(url, params, req.headers['x-twilio-signature'], TOKEN),
        })
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()))
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/status`
    const p = twilioProvider(
      'sms',
      { accountSid: SID, authToken: TOKEN, from: '+14155550100' },
      fake.url,
    )
    const sent = await p.send(sms({ statusCallbackUrl: hookUrl }), signal())
    if (!sent.ok) throw new Error('send failed')
    expect(
      await fake.sendStatuses(sent.providerMessageId, ['sent', 'delivered'], { order: 'reversed' }),
    ).toEqual([204, 204])
    await fake.sendStatuses(sent.providerMessageId, ['read'], { order: 'twice' })
    await new Promise<void>((r) => hook.close(() => r()))
    expect(received).toEqual([
      { status: 'delivered', ok: true },
      { status: 'sent', ok: true },
      { status: 'read', ok: true },
      { status: 'read', ok: true },
    ])
  })

  it('posts a signed inbound WhatsApp reply', async () => {
    let seen: { ok: boolean; body: string; waId: string } | null = null
    const hook = createServer((req, res) => {
      let raw = ''
      req.on('data', (c: Buffer) => (raw += c.toString()))
      req.on('end', () => {
        const params = Object.fromEntries(new URLSearchParams(raw))
        const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}${req.url ?? ''}`
        seen = {
          ok: verifyTwilioSignature(url, params, req.headers['x-twilio-signature'], TOKEN),
          body: params.Body ?? '',
          waId: params.WaId ?? '',
        }
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/inbound`
    const status = await fake.sendInbound(url, {
      accountSid: SID,
      from: 'whatsapp:+919876543210',
      to: 'whatsapp:+14155238886',
      body: 'STOP',
    })
    await new Promise<void>((r) => hook.close(() => r()))
    expect(status).toBe(200)
    expect(seen).toEqual({ ok: true, body: 'STOP', waId: '919876543210' })
  })
})
