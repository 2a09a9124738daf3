import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeSendGrid, type FakeSendGrid } from '../../../../tests/support/fakes/sendgrid'
import type { OutboundMessage } from '../messaging/provider'
import { verifySendGridSignature } from '../messaging/signatures'
import { sendgridProvider } from './sendgrid-provider'

const KEY = 'SG.test-key'
let fake: FakeSendGrid
const signal = () => new AbortController().signal
const provider = (apiKey = KEY) =>
  sendgridProvider(
    { apiKey, fromEmail: 'care@sanjeevani.in', fromName: 'Sanjeevani Clinic' },
    fake.url,
  )

const mail = (over: Partial<OutboundMessage> = {}): OutboundMessage => ({
  channel: 'email',
  to: 'asha@example.in',
  idempotencyKey: 'comm-77',
  subject: 'Your appointment',
  text: 'See you on Friday at 10:30.',
  ...over,
})

beforeAll(async () => {
  fake = await startFakeSendGrid([KEY])
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.requests.length = 0
})

describe('SendGrid adapter against the contract-checking fake', () => {
  it('sends the contract body with custom_args.communicationId; the id is X-Message-Id', async () => {
    const r = await provider().send(mail(), signal())
    expect(r).toMatchObject({ ok: true, status: 'sent' })
    const req = fake.requests.at(-1)
    expect(req?.refused).toBeNull()
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(JSON.parse(req?.raw ?? '')).toEqual({
      personalizations: [
        { to: [{ email: 'asha@example.in' }], custom_args: { communicationId: 'comm-77' } },
      ],
      from: { email: 'care@sanjeevani.in', name: 'Sanjeevani Clinic' },
      subject: 'Your appointment',
      content: [{ type: 'text/plain', value: 'See you on Friday at 10:30.' }],
    })
    if (r.ok) expect(r.providerMessageId).toBe(fake.mails.at(-1)?.id)
    expect(fake.acceptedTo.get('asha@example.in')).toBeGreaterThanOrEqual(1)
  })

  it('a wrong key is auth; 403 is auth', async () => {
    expect(await provider('SG.bad').send(mail(), signal())).toMatchObject({
      ok: false,
      kind: 'auth',
      code: 'HTTP 401',
    })
    fake.behave({
      status: 403,
      message: 'The from address does not match a verified Sender Identity.',
    })
    expect(await provider().send(mail(), signal())).toMatchObject({
      ok: false,
      kind: 'auth',
      code: 'HTTP 403',
    })
  })

  it('429 with Retry-After and 5xx are temporary', async () => {
    fake.behave({ status: 429, retryAfter: '11' })
    expect(await provider().send(mail(), signal())).toMatchObject({
      kind: 'temporary',
      retryAfterMs: 11_000,
    })
    fake.behave({ status: 502 })
    expect(await provider().send(mail(), signal())).toMatchObject({
      kind: 'temporary',
      code: 'HTTP 502',
    })
  })

  it('400 is rejected with the first error message; a bad recipient is invalid', async () => {
    fake.behave({
      status: 400,
      message: 'The content value must be a string at least one character in length.',
      code: 'content.0.value',
    })
    expect(await provider().send(mail(), signal())).toMatchObject({
      ok: false,
      kind: 'rejected',
      reason:
        'SendGrid refused the email: The content value must be a string at least one character in length.',
    })
    fake.behave({
      status: 400,
      message: 'Does not contain a valid address.',
      code: 'personalizations.0.to.0.email',
    })
    expect(await provider().send(mail(), signal())).toMatchObject({
      ok: false,
      kind: 'invalid_number',
    })
  })

  it('a hang is aborted by the signal; lookup is unknown', async () => {
    fake.behave({ hang: true })
    await expect(provider().send(mail(), AbortSignal.timeout(200))).rejects.toThrow()
    expect(
      await provider().lookup({ idempotencyKey: 'k', to: 'a@b.in', since: new Date() }, signal()),
    ).toEqual({ found: 'unknown' })
  })

  it('the fake refuses an off-contract body with SendGrid errors', async () => {
    const res = await fetch(`${fake.url}/v3/mail/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        personalizations: [{ to: [{ name: 'no email' }] }],
        from: { name: 'x' },
        subject: 's',
      }),
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { errors: { message: string }[] }
    expect(body.errors[0]?.message).toMatch(/email/)
    expect(fake.requests.at(-1)?.refused?.length).toBeGreaterThan(0)
  })

  it('posts signed events carrying communicationId, reversed and twice', async () => {
    const got: { event: string; id: string; ok: boolean }[] = []
    const hook = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const raw = Buffer.concat(chunks)
        const [e] = JSON.parse(raw.toString()) as { event: string; communicationId: string }[]
        got.push({
          event: e?.event ?? '',
          id: e?.communicationId ?? '',
          ok: verifySendGridSignature(
            raw,
            req.headers['x-twilio-email-event-webhook-signature'],
            req.headers['x-twilio-email-event-webhook-timestamp'],
            fake.publicKey,
          ),
        })
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/api/webhooks/sendgrid/h1`
    const r = await provider().send(mail({ idempotencyKey: 'comm-88' }), signal())
    if (!r.ok) throw new Error('send failed')
    await fake.sendEvents(url, r.providerMessageId, ['processed', 'delivered'], {
      order: 'reversed',
    })
    await fake.sendEvents(url, r.providerMessageId, ['open'], { order: 'twice' })
    await new Promise<void>((res) => hook.close(() => res()))
    expect(got.map((g) => g.event)).toEqual(['delivered', 'processed', 'open', 'open'])
    expect(got.every((g) => g.ok && g.id === 'comm-88')).toBe(true)
  })
})
