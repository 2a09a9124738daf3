import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../support/http'
import { e164, newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  configureMessaging,
  consentsOf,
  messageRow,
  outboundMessage,
  postWhatsapp,
  whatsappDelivery,
} from '../support/messaging-webhooks'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Meta's WhatsApp Cloud API webhook (issue 25): the hub.challenge handshake with a hospital's
// verify token; deliveries routed by metadata.phone_number_id and signed with that hospital's
// app secret over the raw body; statuses forward only; inbound messages; template approvals.

let t: TestApp
let hospitalA: string
let hospitalB: string
let cookieA: string
const A = {
  phone: '106540352242922',
  waba: '419561257915477',
  secret: 'app-secret-a-000111',
  verify: 'verify-token-a-123',
}
const B = {
  phone: '106540352242999',
  waba: '419561257915999',
  secret: 'app-secret-b-000222',
  verify: 'verify-token-b-456',
}
const meta = (h: typeof A) => ({
  provider: 'meta',
  settings: { phoneNumberId: h.phone, businessAccountId: h.waba },
  secrets: { accessToken: 'EAAG-token', appSecret: h.secret, verifyToken: h.verify },
})
let wamidSeq = 0
const wamid = () => `wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQz${(++wamidSeq).toString().padStart(6, '0')}`

beforeAll(async () => {
  t = await createTestApp()
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  cookieA = await login(t.app, demoEmail('receptionist'))
  await configureMessaging(t.db, hospitalA, { whatsapp: meta(A) })
  await configureMessaging(t.db, hospitalB, { whatsapp: meta(B) })
})
afterAll(async () => {
  await t?.close()
})

async function sentMessage() {
  const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(81_000) })
  const id = wamid()
  const commId = await outboundMessage(t.db, hospitalA, {
    leadId: lead.id,
    type: 'whatsapp',
    provider: 'meta',
    providerMessageId: id,
    contactAddress: lead.phone,
  })
  return { lead, wamid: id, commId }
}

const statuses = (phoneId: string, list: Record<string, unknown>[]) =>
  whatsappDelivery(phoneId, {
    statuses: list.map((s) => ({ timestamp: '1749416383', recipient_id: '919800000000', ...s })),
  })

describe('the subscription handshake', () => {
  const handshake = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/webhooks/whatsapp?${query}` })

  it("answers hub.challenge as text for a hospital's verify token", async () => {
    for (const token of [A.verify, B.verify]) {
      const res = await handshake(
        `hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`,
      )
      expect(res.statusCode, res.body).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      expect(res.body).toBe('1158201444')
    }
  })

  it('refuses an unknown token, another mode or a missing challenge with 403', async () => {
    expectError(await handshake('hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1'), 403)
    expectError(
      await handshake(`hub.mode=unsubscribe&hub.verify_token=${A.verify}&hub.challenge=1`),
      403,
    )
    expectError(await handshake(`hub.mode=subscribe&hub.verify_token=${A.verify}`), 403)
  })
})

describe('statuses', () => {
  it('move forward only: out of order and twice', async () => {
    const { wamid: id, commId } = await sentMessage()
    const post = (status: string) =>
      postWhatsapp(t.app, statuses(A.phone, [{ id, status }]), A.secret)
    expect((await post('delivered')).statusCode).toBe(200)
    expect((await post('sent')).statusCode).toBe(200)
    expect((await messageRow(t.db, commId)).status).toBe('delivered')
    expect((await post('read')).statusCode).toBe(200)
    expect((await post('read')).statusCode).toBe(200)
    expect((await post('delivered')).statusCode).toBe(200)
    expect((await messageRow(t.db, commId)).status).toBe('read')
  })

  it('finds a message by biz_opaque_callback_data (our id) when its wamid was never stored', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(81_500) })
    const commId = await outboundMessage(t.db, hospitalA, {
      leadId: lead.id,
      type: 'whatsapp',
      provider: 'meta',
      providerMessageId: null,
      contactAddress: lead.phone,
      status: 'sending',
    })
    const id = wamid()
    const body = statuses(A.phone, [{ id, status: 'sent', biz_opaque_callback_data: commId }])
    expect((await postWhatsapp(t.app, body, A.secret)).statusCode).toBe(200)
    expect(await messageRow(t.db, commId)).toMatchObject({
      status: 'sent',
      provider_message_id: id,
    })
  })

  it('131047 fails with the 24-hour window reason; a later delivered still wins', async () => {
    const { wamid: id, commId } = await sentMessage()
    const failed = statuses(A.phone, [
      { id, status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message' }] },
    ])
    expect((await postWhatsapp(t.app, failed, A.secret)).statusCode).toBe(200)
    expect(await messageRow(t.db, commId)).toMatchObject({
      status: 'failed',
      failure_code: '131047',
      failure_reason: expect.stringContaining('last 24 hours') as string,
    })
    await postWhatsapp(t.app, statuses(A.phone, [{ id, status: 'delivered' }]), A.secret)
    expect((await messageRow(t.db, commId)).status).toBe('delivered')
  })

  it('refuses unsigned, forged and wrongly-keyed deliveries with 403, changing nothing', async () => {
    const { wamid: id, commId } = await sentMessage()
    const body = statuses(A.phone, [{ id, status: 'read' }])
    expectError(await postWhatsapp(t.app, body, null), 403, 'FORBIDDEN')
    expectError(await postWhatsapp(t.app, body, 'not-the-secret'), 403, 'FORBIDDEN')
    expectError(await postWhatsapp(t.app, body, B.secret), 403, 'FORBIDDEN')
    // Signed, then altered: the signature covers the raw bytes.
    const raw = JSON.stringify(body)
    const { signMetaBody } = await import('../../src/server/integrations/meta/signature')
    const altered = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/whatsapp',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signMetaBody(raw, A.secret),
      },
      payload: raw.replace('"read"', '"delivered"'),
    })
    expectError(altered, 403)
    expect((await messageRow(t.db, commId)).status).toBe('sent')
  })

  it('refuses unknown and mixed phone number ids with 403 and stores nothing', async () => {
    const { wamid: id, commId } = await sentMessage()
    expectError(
      await postWhatsapp(t.app, statuses('999999999', [{ id, status: 'read' }]), A.secret),
      403,
    )
    const mixed = statuses(A.phone, [{ id, status: 'read' }])
    mixed.entry.push(
      statuses(B.phone, [{ id: wamid(), status: 'read' }]).entry[0] as (typeof mixed.entry)[number],
    )
    expectError(await postWhatsapp(t.app, mixed, A.secret), 403)
    expect((await messageRow(t.db, commId)).status).toBe('sent')
  })

  it("B's own valid delivery naming A's message id changes nothing of A's", async () => {
    const { wamid: id, commId } = await sentMessage()
    const res = await postWhatsapp(t.app, statuses(B.phone, [{ id, status: 'read' }]), B.secret)
    expect(res.statusCode, res.body).toBe(200)
    expect((await messageRow(t.db, commId)).status).toBe('sent')
  })

  it('answers 400 to malformed bodies, never 5xx', async () => {
    for (const body of [
      'not json',
      '[]',
      '{"object":"page","entry":[]}',
      JSON.stringify(whatsappDelivery('abc', {})),
    ]) {
      const res = await postWhatsapp(t.app, body, A.secret)
      expect([400, 403], `${body}: ${res.body}`).toContain(res.statusCode)
    }
    expectError(await postWhatsapp(t.app, 'not json', A.secret), 400)
    expectError(
      await postWhatsapp(
        t.app,
        whatsappDelivery(A.phone, { statuses: [{ status: 'read' }] }),
        A.secret,
      ),
      400,
    )
  })
})

describe('inbound messages', () => {
  const inbound = (from: string, message: Record<string, unknown>, name = 'Meera Iyer') =>
    whatsappDelivery(A.phone, {
      contacts: [{ profile: { name }, wa_id: from }],
      messages: [{ from, id: wamid(), timestamp: '1749416383', ...message }],
    })
  const rows = (address: string) =>
    queryRows<{ lead_id: string | null; content: string; type: string; status: string }>(
      t.db,
      sql`select lead_id, content, type, status from communications
          where direction = 'inbound' and contact_address = ${address} order by created_at`,
    )

  it("stores a text for the sender's lead; a second delivery is dropped", async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(82_000) })
    const body = inbound(lead.phone.slice(1), { type: 'text', text: { body: 'Can I come at 5?' } })
    for (let i = 0; i < 2; i++)
      expect((await postWhatsapp(t.app, body, A.secret)).statusCode).toBe(200)
    expect(await rows(lead.phone)).toEqual([
      { lead_id: lead.id, content: 'Can I come at 5?', type: 'whatsapp', status: 'received' },
    ])
  })

  it("names a new lead after the sender's WhatsApp profile", async () => {
    const phone = e164(uniqueMobile(83_000))
    const res = await postWhatsapp(
      t.app,
      inbound(phone.slice(1), { type: 'text', text: { body: 'Hi' } }, 'Farah Khan'),
      A.secret,
    )
    expect(res.statusCode, res.body).toBe(200)
    const [lead] = await queryRows<{ name: string; hospital_id: string }>(
      t.db,
      sql`select name, hospital_id from leads where phone = ${phone}`,
    )
    expect(lead).toEqual({ name: 'Farah Khan', hospital_id: hospitalA })
  })

  it('opts out on रोकें and on an Unsubscribe button; START opts back in', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(84_000) })
    const from = lead.phone.slice(1)
    await postWhatsapp(t.app, inbound(from, { type: 'text', text: { body: 'रोकें' } }), A.secret)
    await postWhatsapp(t.app, inbound(from, { type: 'text', text: { body: 'START' } }), A.secret)
    await postWhatsapp(
      t.app,
      inbound(from, { type: 'button', button: { text: 'Unsubscribe', payload: 'unsub' } }),
      A.secret,
    )
    await postWhatsapp(
      t.app,
      inbound(from, {
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'x', title: 'Stop promotions' } },
      }),
      A.secret,
    )
    expect(await consentsOf(t.db, lead.phone)).toEqual([
      { hospital_id: hospitalA, channel: 'whatsapp', action: 'opt_out', method: 'keyword' },
      { hospital_id: hospitalA, channel: 'whatsapp', action: 'opt_in', method: 'keyword' },
      { hospital_id: hospitalA, channel: 'whatsapp', action: 'opt_out', method: 'button' },
      { hospital_id: hospitalA, channel: 'whatsapp', action: 'opt_out', method: 'button' },
    ])
    expect((await rows(lead.phone)).map((r) => r.content)).toEqual([
      'रोकें',
      'START',
      'Unsubscribe',
      'Stop promotions',
    ])
  })

  it('keeps other message types as their type', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(85_000) })
    await postWhatsapp(
      t.app,
      inbound(lead.phone.slice(1), { type: 'image', image: { id: '1' } }),
      A.secret,
    )
    expect((await rows(lead.phone))[0]?.content).toBe('[image]')
  })
})

describe('template status updates', () => {
  it("set the approval of A's template named by Meta, and only A's", async () => {
    for (const h of [hospitalA, hospitalB]) {
      await queryRows(
        t.db,
        sql`insert into message_templates (hospital_id, name, channel, body, category, provider_template_name, approval_status)
            values (${h}, 'Reminder test', 'whatsapp', 'Hi {{1}}', 'utility', 'appointment_reminder_v2', 'pending')`,
      )
    }
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: A.waba,
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'APPROVED',
                message_template_id: 594425479261596,
                message_template_name: 'appointment_reminder_v2',
                message_template_language: 'en_US',
                reason: 'NONE',
              },
            },
          ],
        },
      ],
    }
    expectError(await postWhatsapp(t.app, body, B.secret), 403)
    const res = await postWhatsapp(t.app, body, A.secret)
    expect(res.statusCode, res.body).toBe(200)
    const stored = await queryRows<{ hospital_id: string; approval_status: string }>(
      t.db,
      sql`select hospital_id, approval_status from message_templates where provider_template_name = 'appointment_reminder_v2'`,
    )
    expect(stored.find((r) => r.hospital_id === hospitalA)?.approval_status).toBe('approved')
    expect(stored.find((r) => r.hospital_id === hospitalB)?.approval_status).toBe('pending')
  })
})
