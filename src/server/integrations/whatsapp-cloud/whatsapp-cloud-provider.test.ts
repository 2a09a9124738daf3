import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  startFakeMetaWhatsapp,
  type FakeMetaWhatsapp,
} from '../../../../tests/support/fakes/meta-whatsapp'
import { verifyMetaSignature } from '../meta/signature'
import type { OutboundMessage } from '../messaging/provider'
import { metaErrorKind } from './meta-errors'
import { whatsappCloudProvider } from './whatsapp-cloud-provider'

const PHONE_ID = '106540352242922'
const number = {
  token: 'EAAtest.token',
  appSecret: 'app-secret',
  wabaId: '102290129340398',
  displayPhoneNumber: '15550783881',
}
let fake: FakeMetaWhatsapp
const signal = () => new AbortController().signal
const provider = (token = number.token) =>
  whatsappCloudProvider({ phoneNumberId: PHONE_ID, accessToken: token }, fake.url, 'v21.0')

const wa = (over: Partial<OutboundMessage> = {}): OutboundMessage => ({
  channel: 'whatsapp',
  to: '+919876543210',
  idempotencyKey: '7d9f3f0e-3a7c-4c61-8a53-0c1b8b3c2f11',
  text: 'Namaste Asha, your appointment is confirmed.',
  ...over,
})

beforeAll(async () => {
  fake = await startFakeMetaWhatsapp({ [PHONE_ID]: number })
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.requests.length = 0
})

describe('WhatsApp Cloud adapter against the contract-checking fake', () => {
  it('sends text with Bearer auth, digits-only to and the key as biz_opaque_callback_data', async () => {
    const result = await provider().send(wa(), signal())
    expect(result).toMatchObject({ ok: true, status: 'sent' })
    if (result.ok) expect(result.providerMessageId).toMatch(/^wamid\./)
    const req = fake.requests.at(-1)
    expect(req?.refused).toBeNull()
    expect(req?.path).toBe(`/v21.0/${PHONE_ID}/messages`)
    expect(JSON.parse(req?.raw ?? '')).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919876543210',
      type: 'text',
      text: { body: 'Namaste Asha, your appointment is confirmed.', preview_url: false },
      biz_opaque_callback_data: '7d9f3f0e-3a7c-4c61-8a53-0c1b8b3c2f11',
    })
    expect(fake.acceptedTo.get('919876543210')).toBeGreaterThanOrEqual(1)
  })

  it('sends a template by name and language with body text parameters', async () => {
    const result = await provider().send(
      wa({
        template: {
          name: 'appointment_reminder',
          language: 'en',
          variables: ['Asha', '10:30'],
          category: 'utility',
        },
      }),
      signal(),
    )
    expect(result.ok).toBe(true)
    const body = JSON.parse(fake.requests.at(-1)?.raw ?? '') as Record<string, unknown>
    expect(fake.requests.at(-1)?.refused).toBeNull()
    expect(body.type).toBe('template')
    expect(body.template).toEqual({
      name: 'appointment_reminder',
      language: { policy: 'deterministic', code: 'en' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Asha' },
            { type: 'text', text: '10:30' },
          ],
        },
      ],
    })
  })

  it.each([
    [400, 131047, 'outside_window'],
    [400, 131026, 'invalid_number'],
    [400, 131030, 'invalid_number'],
    [401, 190, 'auth'],
    [400, 130429, 'temporary'],
    [400, 131056, 'temporary'],
    [503, 1, 'temporary'],
    [400, 132001, 'rejected'],
  ] as const)('maps HTTP %i error %i to %s', async (status, code, kind) => {
    fake.behave({ status, code })
    const result = await provider().send(wa(), signal())
    expect(result).toMatchObject({ ok: false, kind, code: String(code) })
  })

  it('throttled with Retry-After', async () => {
    fake.behave({ status: 429, code: 130429, retryAfter: '3' })
    expect(await provider().send(wa(), signal())).toMatchObject({
      kind: 'temporary',
      retryAfterMs: 3000,
    })
  })

  it('a wrong token: auth', async () => {
    expect(await provider('EAAwrong').send(wa(), signal())).toMatchObject({
      ok: false,
      kind: 'auth',
      code: '190',
    })
  })

  it('a hang is aborted by the signal', async () => {
    fake.behave({ hang: true })
    await expect(provider().send(wa(), AbortSignal.timeout(200))).rejects.toThrow()
  })

  it('a slow answer within the limit still succeeds', async () => {
    fake.behave({ delayMs: 150 })
    expect(await provider().send(wa(), AbortSignal.timeout(5000))).toMatchObject({ ok: true })
  })

  it('lookup is unknown: the Cloud API cannot list messages', async () => {
    expect(
      await provider().lookup(
        { idempotencyKey: 'k', to: '+919876543210', since: new Date() },
        signal(),
      ),
    ).toEqual({ found: 'unknown' })
  })

  it('a template without a Meta name is refused before any HTTP call', async () => {
    const r = await provider().send(
      wa({ template: { contentSid: 'HX1', language: 'en', variables: [], category: 'utility' } }),
      signal(),
    )
    expect(r).toMatchObject({ ok: false, kind: 'rejected', code: 'NO_TEMPLATE_NAME' })
    expect(fake.requests).toHaveLength(0)
  })

  it('the fake refuses off-contract bodies with Graph error 100', async () => {
    const post = (body: unknown) =>
      fetch(`${fake.url}/v21.0/${PHONE_ID}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${number.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const cases = [
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '919876543210',
        type: 'text',
      },
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '+91 98765',
        type: 'text',
        text: { body: 'x' },
      },
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '919876543210',
        type: 'text',
        text: { body: 'x' },
        colour: 'red',
      },
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '919876543210',
        type: 'template',
        template: {
          name: 't',
          language: { policy: 'deterministic', code: 'en' },
          components: [{ type: 'body', parameters: [{ type: 'text' }] }],
        },
      },
    ]
    for (const body of cases) {
      const res = await post(body)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(100)
    }
    expect(fake.requests.every((r) => r.refused && r.refused.length > 0)).toBe(true)
  })

  it('status webhooks carry the key, are signed, and can come reversed or twice', async () => {
    const got: { status: string; opaque: string; ok: boolean }[] = []
    const hook = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const raw = Buffer.concat(chunks)
        const s = (
          JSON.parse(raw.toString()) as {
            entry: {
              changes: {
                value: { statuses?: { status: string; biz_opaque_callback_data: string }[] }
              }[]
            }[]
          }
        ).entry[0]?.changes[0]?.value.statuses?.[0]
        got.push({
          status: s?.status ?? '',
          opaque: s?.biz_opaque_callback_data ?? '',
          ok: verifyMetaSignature(raw, req.headers['x-hub-signature-256'], number.appSecret),
        })
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/api/webhooks/whatsapp`
    const sent = await provider().send(wa({ idempotencyKey: 'key-42' }), signal())
    if (!sent.ok) throw new Error('send failed')
    await fake.sendStatuses(url, sent.providerMessageId, ['sent', 'delivered'], {
      order: 'reversed',
    })
    await fake.sendStatuses(url, sent.providerMessageId, ['failed'], {
      order: 'twice',
      errorCode: 131047,
    })
    expect(await fake.sendInbound(url, PHONE_ID, '919876543210', 'Yes, confirmed')).toBe(200)
    await new Promise<void>((r) => hook.close(() => r()))
    const inbound = got.pop()
    expect(inbound).toEqual({ status: '', opaque: '', ok: true })
    expect(got.map((g) => g.status)).toEqual(['delivered', 'sent', 'failed', 'failed'])
    expect(got.every((g) => g.ok && g.opaque === 'key-42')).toBe(true)
  })

  it('metaErrorKind serves the status webhook too', () => {
    expect(metaErrorKind(131047)).toBe('outside_window')
    expect(metaErrorKind(131026)).toBe('invalid_number')
    expect(metaErrorKind(999)).toBe('rejected')
  })
})
