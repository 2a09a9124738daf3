import { generateKeyPairSync, sign } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../support/http'
import { newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import { configureMessaging, messageRow, outboundMessage } from '../support/messaging-webhooks'
import { createTestApp, demoEmail, hospitalIdOf, type TestApp } from '../support/test-app'

// SendGrid's event webhook (issue 25): statuses by custom_args.communicationId or
// sg_message_id; ECDSA-signed batches (at most 10 minutes old) when the hospital saved the
// verification key, unsigned accepted otherwise; one hospital's URL never reaches another's.

let t: TestApp
let hospitalA: string
let hospitalB: string
let cookieA: string
let cookieB: string
const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
const publicKey = keys.publicKey.export({ format: 'der', type: 'spki' }).toString('base64')
const sendgrid = (webhookPublicKey?: string) => ({
  provider: 'sendgrid',
  settings: {
    fromEmail: 'care@clinic.example',
    fromName: 'Clinic',
    ...(webhookPublicKey ? { webhookPublicKey } : {}),
  },
  secrets: { apiKey: 'SG.test-key' },
})

beforeAll(async () => {
  t = await createTestApp()
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  cookieA = await login(t.app, demoEmail('receptionist'))
  cookieB = await login(t.app, demoEmail('receptionist', 'smiledental'))
  await configureMessaging(t.db, hospitalA, { email: sendgrid(publicKey) })
  await configureMessaging(t.db, hospitalB, { email: sendgrid() })
})
afterAll(async () => {
  await t?.close()
})

let seq = 0
async function email(hospitalId: string, cookie: string) {
  const lead = await newLead(t.app, cookie, {
    phone: uniqueMobile(61_000 + (hospitalId === hospitalA ? 0 : 500)),
  })
  const providerMessageId = `sgmsg${++seq}xyz`
  const id = await outboundMessage(t.db, hospitalId, {
    leadId: lead.id,
    type: 'email',
    provider: 'sendgrid',
    providerMessageId,
    contactAddress: 'anjali.menon@example.com',
  })
  return { id, providerMessageId }
}

function post(
  hospitalId: string,
  events: unknown,
  signing: { timestamp?: number; key?: typeof keys.privateKey; alter?: boolean } | null,
) {
  const raw = JSON.stringify(events)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (signing) {
    const ts = String(signing.timestamp ?? Math.floor(Date.now() / 1000))
    const signature = sign('sha256', Buffer.from(ts + raw), signing.key ?? keys.privateKey)
    headers['x-twilio-email-event-webhook-signature'] = signature.toString('base64')
    headers['x-twilio-email-event-webhook-timestamp'] = ts
  }
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/sendgrid/${hospitalId}`,
    headers,
    payload: signing?.alter ? raw.replace('delivered', 'open') : raw,
  })
}

describe('SendGrid events with a verification key', () => {
  it('processed → sent, delivered, open → read, by custom args or sg_message_id', async () => {
    const m = await email(hospitalA, cookieA)
    const res = await post(
      hospitalA,
      [
        {
          event: 'processed',
          custom_args: { communicationId: m.id },
          sg_message_id: `${m.providerMessageId}.filter0001`,
        },
      ],
      {},
    )
    expect(res.statusCode, res.body).toBe(200)
    expect((await messageRow(t.db, m.id)).status).toBe('sent')
    await post(
      hospitalA,
      [{ event: 'delivered', sg_message_id: `${m.providerMessageId}.filter0001.1` }],
      {},
    )
    expect((await messageRow(t.db, m.id)).status).toBe('delivered')
    await post(
      hospitalA,
      [
        { event: 'open', communicationId: m.id },
        { event: 'deferred', communicationId: m.id },
      ],
      {},
    )
    expect((await messageRow(t.db, m.id)).status).toBe('read')
    // Late and repeated events never move it back.
    await post(
      hospitalA,
      [
        { event: 'delivered', communicationId: m.id },
        { event: 'processed', communicationId: m.id },
      ],
      {},
    )
    expect((await messageRow(t.db, m.id)).status).toBe('read')
  })

  it('bounce and dropped fail with the reason', async () => {
    const m = await email(hospitalA, cookieA)
    await post(
      hospitalA,
      [
        {
          event: 'bounce',
          communicationId: m.id,
          reason: '550 5.1.1 The email account does not exist',
        },
      ],
      {},
    )
    expect(await messageRow(t.db, m.id)).toMatchObject({
      status: 'failed',
      failure_code: 'bounce',
      failure_reason: 'The email bounced: 550 5.1.1 The email account does not exist',
    })
  })

  it('refuses unsigned, forged, altered and stale batches with 403, changing nothing', async () => {
    const m = await email(hospitalA, cookieA)
    const events = [{ event: 'delivered', communicationId: m.id }]
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey
    expectError(await post(hospitalA, events, null), 403, 'FORBIDDEN')
    expectError(await post(hospitalA, events, { key: other }), 403)
    expectError(await post(hospitalA, events, { alter: true }), 403)
    expectError(
      await post(hospitalA, events, { timestamp: Math.floor(Date.now() / 1000) - 11 * 60 }),
      403,
    )
    expect((await messageRow(t.db, m.id)).status).toBe('sent')
    // Ten minutes minus a little is still fine.
    const ok = await post(hospitalA, events, { timestamp: Math.floor(Date.now() / 1000) - 9 * 60 })
    expect(ok.statusCode, ok.body).toBe(200)
    expect((await messageRow(t.db, m.id)).status).toBe('delivered')
  })

  it('answers 400 to a signed body that is not an event batch', async () => {
    expectError(await post(hospitalA, { event: 'delivered' }, {}), 400)
  })
})

describe('SendGrid events without a key', () => {
  it('are accepted unsigned', async () => {
    const m = await email(hospitalB, cookieB)
    const res = await post(hospitalB, [{ event: 'delivered', communicationId: m.id }], null)
    expect(res.statusCode, res.body).toBe(200)
    expect((await messageRow(t.db, m.id)).status).toBe('delivered')
  })

  it("never reach another hospital's message (by id or SendGrid id)", async () => {
    const m = await email(hospitalA, cookieA)
    const res = await post(
      hospitalB,
      [
        { event: 'delivered', communicationId: m.id },
        { event: 'open', sg_message_id: `${m.providerMessageId}.filter` },
      ],
      null,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect((await messageRow(t.db, m.id)).status).toBe('sent')
  })

  it('refuse a hospital that does not send email through SendGrid, and unknown ones', async () => {
    await configureMessaging(t.db, hospitalB, {})
    expectError(await post(hospitalB, [], null), 403)
    expectError(await post(crypto.randomUUID(), [], null), 403)
    await configureMessaging(t.db, hospitalB, { email: sendgrid() })
  })
})
