import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type FakeMetaNumber,
  type FakeMetaWhatsapp,
  startFakeMetaWhatsapp,
} from '../support/fakes/meta-whatsapp'
import { expectError } from '../support/http'
import { newLead, uniqueMobile } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import {
  messageRow,
  outboundMessage,
  postTwilio,
  postWhatsapp,
  twilioSid,
  whatsappDelivery,
} from '../support/messaging-webhooks'
import { createTestApp, demoEmail, hospitalIdOf, type TestApp } from '../support/test-app'

// The webhooks with a set-up saved through Settings (PUT /api/settings/messaging): the Meta
// number is routed, the verify token answers the handshake, and a new secret takes effect at
// once (the cached one is dropped on save), with no wait for the cache's lifetime.

let t: TestApp
let hospitalA: string
let admin: string
let receptionist: string
const PHONE_ID = '106540352240001'
const WABA = '419561257910001'

const numbers: Record<string, FakeMetaNumber> = {
  [PHONE_ID]: {
    token: 'EAAG-settings-token',
    appSecret: 'first-app-secret',
    wabaId: WABA,
    displayPhoneNumber: '+91 20 2550 0001',
  },
}
let graph: FakeMetaWhatsapp

beforeAll(async () => {
  // Saving Meta ids proves them with Graph (issue 39): the fake answers as Meta would.
  graph = await startFakeMetaWhatsapp(numbers)
  t = await createTestApp({
    messagingProviders: {
      twilio: 'http://127.0.0.1:9',
      msg91: 'http://127.0.0.1:9',
      sendgrid: 'http://127.0.0.1:9',
      metaGraph: graph.url,
      metaGraphVersion: 'v23.0',
      sandboxDeliveryMs: 0,
    },
  })
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
})
afterAll(async () => {
  await t?.close()
  await graph?.close()
})

const save = async (body: unknown) => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/settings/messaging',
    headers: browserHeaders(admin),
    payload: JSON.stringify(body),
  })
  expect(res.statusCode, res.body).toBe(200)
}

describe('webhooks after Settings saves the set-up', () => {
  it('Meta: routed number, handshake, signature with the saved secret; a new secret at once', async () => {
    await save({
      whatsapp: {
        provider: 'meta',
        settings: { phoneNumberId: PHONE_ID, businessAccountId: WABA },
        secrets: {
          accessToken: 'EAAG-settings-token',
          appSecret: 'first-app-secret',
          verifyToken: 'verify-token-0123456789',
        },
      },
    })
    const hs = await t.app.inject({
      method: 'GET',
      url: '/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=verify-token-0123456789&hub.challenge=42',
    })
    expect(hs.statusCode, hs.body).toBe(200)
    expect(hs.body).toBe('42')

    const lead = await newLead(t.app, receptionist, { phone: uniqueMobile(41_000) })
    const wamid = 'wamid.settings0001'
    const id = await outboundMessage(t.db, hospitalA, {
      leadId: lead.id,
      type: 'whatsapp',
      provider: 'meta',
      providerMessageId: wamid,
      contactAddress: lead.phone,
    })
    const body = (status: string) =>
      whatsappDelivery(PHONE_ID, {
        statuses: [{ id: wamid, status, timestamp: '1', recipient_id: '1' }],
      })
    expect((await postWhatsapp(t.app, body('delivered'), 'first-app-secret')).statusCode).toBe(200)
    expect((await messageRow(t.db, id)).status).toBe('delivered')

    // The app secret was reset in Meta's dashboard: the new one proves the same token.
    const number = numbers[PHONE_ID]
    if (number) number.appSecret = 'second-app-secret'
    await save({
      whatsapp: {
        provider: 'meta',
        settings: { phoneNumberId: PHONE_ID, businessAccountId: WABA },
        secrets: { appSecret: 'second-app-secret' },
      },
    })
    expectError(await postWhatsapp(t.app, body('read'), 'first-app-secret'), 403)
    expect((await postWhatsapp(t.app, body('read'), 'second-app-secret')).statusCode).toBe(200)
    expect((await messageRow(t.db, id)).status).toBe('read')
  })

  it('Twilio: the saved auth token signs; a new token at once', async () => {
    const twilio = (authToken: string) => ({
      sms: {
        provider: 'twilio',
        settings: { accountSid: `AC${'4'.repeat(32)}`, from: '+14155550123' },
        secrets: { authToken },
      },
    })
    await save(twilio('first-twilio-token'))
    const lead = await newLead(t.app, receptionist, { phone: uniqueMobile(42_000) })
    const sid = twilioSid()
    const id = await outboundMessage(t.db, hospitalA, {
      leadId: lead.id,
      type: 'sms',
      provider: 'twilio',
      providerMessageId: sid,
      contactAddress: lead.phone,
    })
    const path = `/api/webhooks/twilio/${hospitalA}/status`
    expect(
      (
        await postTwilio(
          t.app,
          path,
          { MessageSid: sid, MessageStatus: 'sent' },
          'first-twilio-token',
        )
      ).statusCode,
    ).toBe(200)
    await save(twilio('second-twilio-token'))
    expectError(
      await postTwilio(
        t.app,
        path,
        { MessageSid: sid, MessageStatus: 'delivered' },
        'first-twilio-token',
      ),
      403,
    )
    expect((await messageRow(t.db, id)).status).toBe('sent')
    expect(
      (
        await postTwilio(
          t.app,
          path,
          { MessageSid: sid, MessageStatus: 'delivered' },
          'second-twilio-token',
        )
      ).statusCode,
    ).toBe(200)
    expect((await messageRow(t.db, id)).status).toBe('delivered')
  })
})
