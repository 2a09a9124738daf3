import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messagingSettingsView, testSendResult } from '../../src/shared/schemas/messaging-settings'
import { configFromRow } from '../../src/server/modules/messaging-settings/connection.service'
import { readMessagingConfig } from '../../src/server/modules/messaging-settings/connection.service'
import { withTenant } from '../../src/server/db/tenant'
import { type FakeMetaWhatsapp, startFakeMetaWhatsapp } from '../support/fakes/meta-whatsapp'
import { type FakeSendGrid, startFakeSendGrid } from '../support/fakes/sendgrid'
import { type FakeTwilio, startFakeTwilio } from '../support/fakes/twilio'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import { metaCall } from '../support/meta'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 25: Settings → Integrations, messaging part. Secrets encrypted at rest and never
// returned; validation per provider; admins only; the Meta phone number id routed to one
// hospital; Test SMS/WhatsApp/Email through the configured provider.

const SID = `AC${'a1'.repeat(16)}`
const TOKEN = 'twilio-auth-token-0123456789ABCD'
const SANDBOX_VIEW = { provider: 'sandbox', settings: {}, secrets: {}, sandbox: true }

let t: TestApp
let twilio: FakeTwilio
let sendgrid: FakeSendGrid
let meta: FakeMetaWhatsapp
const SG_KEY = 'SG.sendgrid-key-for-tests.0123456789'
const META = {
  id: '1098765430001',
  token: 'EAAG-whatsapp-token-0123456789',
  appSecret: 'wa-app-secret-0123456789',
  wabaId: '5566778899',
}
let admin: string
let receptionist: string
let adminB: string
let hospitalA: string

beforeAll(async () => {
  twilio = await startFakeTwilio({ [SID]: TOKEN })
  sendgrid = await startFakeSendGrid([SG_KEY])
  meta = await startFakeMetaWhatsapp({
    [META.id]: {
      token: META.token,
      appSecret: META.appSecret,
      wabaId: META.wabaId,
      displayPhoneNumber: '+91 20 2550 1234',
    },
  })
  t = await createTestApp({
    baseURL: 'http://localhost',
    messagingProviders: {
      twilio: twilio.url,
      msg91: 'http://127.0.0.1:9',
      sendgrid: sendgrid.url,
      metaGraph: meta.url,
      metaGraphVersion: 'v23.0',
      sandboxDeliveryMs: 0,
    },
  })
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
})
afterAll(async () => {
  await t?.close()
  await twilio?.close()
  await sendgrid?.close()
  await meta?.close()
})

const put = (cookie: string, body: unknown) =>
  metaCall(t.app, cookie, 'PUT', '/api/settings/messaging', body)
const get = async (cookie: string) => {
  const res = await metaCall(t.app, cookie, 'GET', '/api/settings/messaging')
  expect(res.statusCode, res.body).toBe(200)
  return messagingSettingsView.strict().parse(res.json())
}
const rawRow = async (hospitalId: string) =>
  (
    await queryRows<{ settings: unknown; secrets: Record<string, string> }>(
      t.db,
      sql`select settings, secrets from messaging_connections where hospital_id = ${hospitalId}`,
    )
  )[0]

describe('messaging connections', () => {
  it('starts on the sandbox everywhere, with the webhook URLs to paste', async () => {
    const view = await get(adminB)
    expect(view.whatsapp).toEqual(SANDBOX_VIEW)
    expect(view.sms).toEqual(SANDBOX_VIEW)
    expect(view.email).toEqual(SANDBOX_VIEW)
    const b = await hospitalIdOf(t.db, 'smiledental')
    expect(view.webhookUrls).toEqual({
      twilioStatus: `http://localhost/api/webhooks/twilio/${b}/status`,
      twilioInbound: `http://localhost/api/webhooks/twilio/${b}/inbound`,
      whatsapp: 'http://localhost/api/webhooks/whatsapp',
      sendgrid: `http://localhost/api/webhooks/sendgrid/${b}`,
      metaLeads: 'http://localhost/api/webhooks/meta',
    })
  })

  it('saves Twilio SMS encrypted at rest, answers hints only, and keeps an omitted secret', async () => {
    const res = await put(admin, {
      sms: {
        provider: 'twilio',
        settings: { accountSid: SID, from: '+1 415 523 8886' },
        secrets: { authToken: TOKEN },
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.body).not.toContain(TOKEN)
    const view = messagingSettingsView.strict().parse(res.json())
    expect(view.sms).toEqual({
      provider: 'twilio',
      settings: { accountSid: SID, from: '+14155238886' },
      secrets: { authToken: { set: true, last4: 'ABCD' } },
      sandbox: false,
    })
    const row = await rawRow(hospitalA)
    expect(JSON.stringify(row)).not.toContain(TOKEN)
    expect(row?.secrets['sms.authToken']).toMatch(/^v1:/)
    // Saving the settings again without the token keeps it.
    const again = await put(admin, {
      sms: { provider: 'twilio', settings: { from: '+14155238886' }, secrets: { authToken: '' } },
    })
    expect(again.statusCode, again.body).toBe(200)
    expect((await get(admin)).sms.secrets.authToken).toEqual({ set: true, last4: 'ABCD' })
    const config = await withTenant(t.db, { hospitalId: hospitalA, userId: null }, (tx) =>
      readMessagingConfig(tx, hospitalA),
    )
    expect(config.sms).toEqual({
      provider: 'twilio',
      accountSid: SID,
      authToken: TOKEN,
      from: '+14155238886',
    })
    expect(config.whatsapp).toEqual({ provider: 'sandbox' })
    const audit = await queryRows<{ summary: string }>(
      t.db,
      sql`select summary from audit_events where hospital_id = ${hospitalA} and action = 'messaging.settings_saved'`,
    )
    expect(audit.length).toBeGreaterThan(0)
    expect(JSON.stringify(audit)).not.toContain(TOKEN)
    expect(audit[0]?.summary).toContain('authToken')
  })

  it('keeps a channel with a missing required field on the sandbox', async () => {
    const res = await put(adminB, {
      email: { provider: 'sendgrid', settings: { fromEmail: 'Desk@SmileDental.in' } },
    })
    expect(res.statusCode, res.body).toBe(200)
    const view = messagingSettingsView.parse(res.json())
    expect(view.email).toMatchObject({
      provider: 'sendgrid',
      settings: { fromEmail: 'desk@smiledental.in' },
      secrets: { apiKey: { set: false } },
      sandbox: true,
    })
    expect(configFromRow(undefined, hospitalA).email).toEqual({ provider: 'sandbox' })
  })

  it('drops the old provider fields when the provider changes', async () => {
    await put(adminB, {
      sms: { provider: 'twilio', settings: { accountSid: SID }, secrets: { authToken: TOKEN } },
    })
    const res = await put(adminB, {
      sms: {
        provider: 'msg91',
        settings: { senderId: 'smiled', dltEntityId: '1201159000000000001' },
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    const b = await hospitalIdOf(t.db, 'smiledental')
    const row = await rawRow(b)
    expect(row?.secrets['sms.authToken']).toBeUndefined()
    expect(messagingSettingsView.parse(res.json()).sms).toEqual({
      provider: 'msg91',
      settings: { senderId: 'SMILED', dltEntityId: '1201159000000000001' },
      secrets: { authKey: { set: false } },
      sandbox: true,
    })
  })

  it('refuses invalid values per provider with field messages', async () => {
    const cases: [unknown, string][] = [
      [{ email: { provider: 'smtp', settings: { port: 70000 } } }, 'email.settings.port'],
      [{ email: { provider: 'smtp', settings: { port: 0 } } }, 'email.settings.port'],
      [
        { email: { provider: 'smtp', settings: { fromEmail: 'not-an-email' } } },
        'email.settings.fromEmail',
      ],
      [{ sms: { provider: 'msg91', settings: { senderId: 'ABC12' } } }, 'sms.settings.senderId'],
      [{ sms: { provider: 'msg91', settings: { senderId: 'ABCDEFG' } } }, 'sms.settings.senderId'],
      [{ sms: { provider: 'twilio', settings: { from: '12' } } }, 'sms.settings.from'],
      [
        { sms: { provider: 'twilio', settings: { accountSid: 'XX123' } } },
        'sms.settings.accountSid',
      ],
      [
        { whatsapp: { provider: 'meta', settings: { phoneNumberId: 'abc' } } },
        'whatsapp.settings.phoneNumberId',
      ],
      [
        { whatsapp: { provider: 'meta', secrets: { verifyToken: 'short' } } },
        'whatsapp.secrets.verifyToken',
      ],
      [
        { whatsapp: { provider: 'meta', secrets: { accessToken: 'has space' } } },
        'whatsapp.secrets.accessToken',
      ],
      [{ whatsapp: { provider: 'carrier-pigeon' } }, 'whatsapp.provider'],
      [{ sms: { provider: 'twilio', settings: { password: 'x' } } }, 'sms.settings'],
    ]
    for (const [body, path] of cases) {
      const res = await put(admin, body)
      expect(issuePaths(res), JSON.stringify(body)).toContain(path)
    }
  })

  it('is for admins only', async () => {
    expectError(await metaCall(t.app, receptionist, 'GET', '/api/settings/messaging'), 403)
    expectError(await put(receptionist, { sms: { provider: 'sandbox' } }), 403)
    expectError(
      await metaCall(t.app, receptionist, 'POST', '/api/settings/messaging/test', {
        channel: 'sms',
        to: '9876543210',
      }),
      403,
    )
    expectError(await metaCall(t.app, undefined, 'GET', '/api/settings/messaging'), 401)
  })

  it('routes no Meta id while the WhatsApp set-up is on the sandbox (a required field missing)', async () => {
    // Proven routing itself: messaging-settings-whatsapp-ids.api.test.ts.
    const meta = (phoneNumberId: string) => ({
      whatsapp: { provider: 'meta', settings: { phoneNumberId, businessAccountId: '2233445566' } },
    })
    expect((await put(admin, meta('1098765432101'))).statusCode).toBe(200)
    expect((await put(adminB, meta('1098765432101'))).statusCode).toBe(200)
    const routes = await queryRows(
      t.db,
      sql`select external_id from messaging_routes where provider in ('meta', 'meta-waba')`,
    )
    expect(routes).toEqual([])
    await put(admin, { whatsapp: { provider: 'sandbox' } })
    await put(adminB, { whatsapp: { provider: 'sandbox' } })
  })
})

describe('test send', () => {
  const test = (cookie: string, body: unknown) =>
    metaCall(t.app, cookie, 'POST', '/api/settings/messaging/test', body)

  it('sends a real SMS through the configured Twilio account and shows its answer', async () => {
    await put(admin, {
      sms: {
        provider: 'twilio',
        settings: { accountSid: SID, from: '+14155238886' },
        secrets: { authToken: TOKEN },
      },
    })
    const before = await queryRows(t.db, sql`select count(*)::int as n from communications`)
    const res = await test(admin, { channel: 'sms', to: '98765 43210' })
    expect(res.statusCode, res.body).toBe(200)
    const answer = testSendResult.strict().parse(res.json())
    expect(answer).toMatchObject({ ok: true, provider: 'twilio', sandbox: false })
    expect(answer.providerMessageId).toMatch(/^SM/)
    const sent = twilio.messages.at(-1)
    expect(sent?.to).toBe('+919876543210')
    expect(sent?.from).toBe('+14155238886')
    // No communication row: a test is not a lead's or patient's message.
    expect(await queryRows(t.db, sql`select count(*)::int as n from communications`)).toEqual(
      before,
    )
  })

  it('sends Test Email through SendGrid and Test WhatsApp through Meta (its hello_world template)', async () => {
    await put(admin, {
      email: {
        provider: 'sendgrid',
        settings: { fromEmail: 'desk@sanjeevani.demo', fromName: 'Sanjeevani' },
        secrets: { apiKey: SG_KEY },
      },
      whatsapp: {
        provider: 'meta',
        settings: { phoneNumberId: META.id, businessAccountId: META.wabaId },
        secrets: { accessToken: META.token, appSecret: META.appSecret },
      },
    })
    const mail = await test(admin, { channel: 'email', to: 'Owner@Example.in' })
    expect(mail.statusCode, mail.body).toBe(200)
    expect(testSendResult.parse(mail.json())).toMatchObject({
      ok: true,
      provider: 'sendgrid',
      sandbox: false,
    })
    expect(sendgrid.acceptedTo.get('owner@example.in')).toBe(1)
    const wa = await test(admin, { channel: 'whatsapp', to: '+91 98765 43212' })
    expect(wa.statusCode, wa.body).toBe(200)
    expect(testSendResult.parse(wa.json())).toMatchObject({
      ok: true,
      provider: 'meta',
      sandbox: false,
    })
    const sent = meta.messages.at(-1)
    expect(sent?.to).toBe('919876543212')
    expect(JSON.stringify(sent?.body)).toContain('hello_world')
    await put(admin, { email: { provider: 'sandbox' }, whatsapp: { provider: 'sandbox' } })
  })

  it("shows the provider's refusal", async () => {
    twilio.behave({
      status: 400,
      code: 21211,
      message: "The 'To' number is not a valid phone number.",
    })
    const res = await test(admin, { channel: 'sms', to: '+919876543211' })
    expect(res.statusCode, res.body).toBe(200)
    expect(testSendResult.parse(res.json())).toMatchObject({ ok: false, provider: 'twilio' })
  })

  it('says so when the channel is on the sandbox', async () => {
    const res = await test(admin, { channel: 'email', to: 'Admin@Example.com' })
    expect(res.statusCode, res.body).toBe(200)
    expect(testSendResult.parse(res.json())).toMatchObject({
      ok: true,
      provider: 'sandbox',
      sandbox: true,
    })
  })

  it('validates the address', async () => {
    expect(issuePaths(await test(admin, { channel: 'sms', to: 'call me' }))).toEqual(['to'])
    expect(issuePaths(await test(admin, { channel: 'email', to: 'nobody' }))).toEqual(['to'])
    expect(issuePaths(await test(admin, { channel: 'fax', to: '9876543210' }))).toEqual(['channel'])
  })

  it('is limited per hospital per minute', async () => {
    let limited = 0
    for (let i = 0; i < 12; i++) {
      const res = await test(adminB, { channel: 'email', to: 'a@b.in' })
      if (res.statusCode === 429) limited++
    }
    expect(limited).toBe(2)
  })
})
