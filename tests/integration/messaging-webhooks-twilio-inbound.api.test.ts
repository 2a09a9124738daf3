import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../support/http'
import { e164, newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  configureMessaging,
  consentsOf,
  postTwilio,
  twilioConnection,
  twilioSid,
} from '../support/messaging-webhooks'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Twilio's inbound webhook (issue 25): replies stored for the sender's lead or patient (or a new
// lead), unread, a second delivery dropped; STOP/रोकें/START and buttons record consent; only the
// hospital's own token opens its URL.

let t: TestApp
let hospitalA: string
let cookieA: string
const TOKEN_A = 'twilio-auth-token-of-hospital-a'
const TOKEN_B = 'twilio-auth-token-of-hospital-b'
const twilio = (token: string) => twilioConnection(token)

beforeAll(async () => {
  t = await createTestApp()
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  const hospitalB = await hospitalIdOf(t.db, 'smiledental')
  cookieA = await login(t.app, demoEmail('receptionist'))
  await configureMessaging(t.db, hospitalA, { whatsapp: twilio(TOKEN_A), sms: twilio(TOKEN_A) })
  await configureMessaging(t.db, hospitalB, { sms: twilio(TOKEN_B) })
})
afterAll(async () => {
  await t?.close()
})

const inboundPath = (hospitalId: string) => `/api/webhooks/twilio/${hospitalId}/inbound`

const inboundRows = (address: string) =>
  queryRows<{
    id: string
    lead_id: string | null
    patient_id: string | null
    type: string
    status: string
    content: string
    read_at: string | null
    provider_message_id: string
  }>(
    t.db,
    sql`select id, lead_id, patient_id, type, status, content, read_at, provider_message_id
        from communications where direction = 'inbound' and contact_address = ${address}
        order by created_at`,
  )

describe('Twilio inbound', () => {
  it("stores an SMS reply for the sender's lead, unread, and drops a second delivery", async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(72_000) })
    const sid = twilioSid()
    const params = { MessageSid: sid, From: lead.phone, To: '+14155550100', Body: 'Is Tuesday OK?' }
    for (let i = 0; i < 2; i++) {
      const res = await postTwilio(t.app, inboundPath(hospitalA), params, TOKEN_A)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.body).toContain('<Response/>')
    }
    const rows = await inboundRows(lead.phone)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      lead_id: lead.id,
      type: 'sms',
      status: 'received',
      content: 'Is Tuesday OK?',
      read_at: null,
      provider_message_id: sid,
    })
    const unread = await t.app.inject({
      method: 'GET',
      url: '/api/messaging/unread',
      headers: { cookie: cookieA },
    })
    expect(unread.statusCode).toBe(200)
    expect(unread.json<{ count: number }>().count).toBeGreaterThanOrEqual(1)
  })

  it('takes whatsapp: senders as WhatsApp', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(72_000) })
    const res = await postTwilio(
      t.app,
      inboundPath(hospitalA),
      {
        MessageSid: twilioSid(),
        From: `whatsapp:${lead.phone}`,
        To: 'whatsapp:+14155550100',
        Body: 'Hello',
      },
      TOKEN_A,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect((await inboundRows(lead.phone))[0]).toMatchObject({ type: 'whatsapp', lead_id: lead.id })
  })

  it('creates a new lead for an unknown number so that no reply is lost', async () => {
    const phone = e164(uniqueMobile(73_000))
    const res = await postTwilio(
      t.app,
      inboundPath(hospitalA),
      {
        MessageSid: twilioSid(),
        From: `whatsapp:${phone}`,
        Body: 'Do you do root canals?',
        ProfileName: 'Kavya Rao',
      },
      TOKEN_A,
    )
    expect(res.statusCode, res.body).toBe(200)
    const [lead] = await queryRows<{
      id: string
      name: string
      source: string
      hospital_id: string
    }>(t.db, sql`select id, name, source, hospital_id from leads where phone = ${phone}`)
    expect(lead).toMatchObject({ name: 'Kavya Rao', source: 'manual', hospital_id: hospitalA })
    expect((await inboundRows(phone))[0]?.lead_id).toBe(lead?.id)
    const audit = await queryRows(
      t.db,
      sql`select action from audit_events where entity_id = ${lead?.id ?? ''}`,
    )
    expect(audit).toEqual([{ action: 'lead.created' }])
  })

  it("stores a patient's reply for the patient when no lead has the number", async () => {
    const phone = e164(uniqueMobile(74_000))
    const [patient] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into patients (hospital_id, name, phone) values (${hospitalA}, 'Ravi Kumar', ${phone}) returning id`,
    )
    await postTwilio(
      t.app,
      inboundPath(hospitalA),
      { MessageSid: twilioSid(), From: phone, Body: 'Thanks' },
      TOKEN_A,
    )
    expect((await inboundRows(phone))[0]).toMatchObject({ lead_id: null, patient_id: patient?.id })
  })

  it('opts out on STOP and रोकें, and back in on START, per channel', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(75_000) })
    const send = (body: string, from = lead.phone) =>
      postTwilio(
        t.app,
        inboundPath(hospitalA),
        { MessageSid: twilioSid(), From: from, Body: body },
        TOKEN_A,
      )
    expect((await send('STOP')).statusCode).toBe(200)
    expect((await send('start')).statusCode).toBe(200)
    expect((await send(' रोकें ', `whatsapp:${lead.phone}`)).statusCode).toBe(200)
    expect((await send('Unsubscribe')).statusCode).toBe(200)
    expect((await send('stop sending me the bill please')).statusCode).toBe(200)
    expect(await consentsOf(t.db, lead.phone)).toEqual([
      { hospital_id: hospitalA, channel: 'sms', action: 'opt_out', method: 'keyword' },
      { hospital_id: hospitalA, channel: 'sms', action: 'opt_in', method: 'keyword' },
      { hospital_id: hospitalA, channel: 'whatsapp', action: 'opt_out', method: 'keyword' },
      { hospital_id: hospitalA, channel: 'sms', action: 'opt_out', method: 'keyword' },
    ])
  })

  it('opts out on a WhatsApp quick-reply button "Stop promotions"', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(76_000) })
    await postTwilio(
      t.app,
      inboundPath(hospitalA),
      {
        MessageSid: twilioSid(),
        From: `whatsapp:${lead.phone}`,
        Body: 'Stop promotions',
        ButtonText: 'Stop promotions',
      },
      TOKEN_A,
    )
    expect(await consentsOf(t.db, lead.phone)).toEqual([
      { hospital_id: hospitalA, channel: 'whatsapp', action: 'opt_out', method: 'button' },
    ])
  })

  it("never stores a reply signed by B's token for A, nor unsigned", async () => {
    const phone = e164(uniqueMobile(77_000))
    const params = { MessageSid: twilioSid(), From: phone, Body: 'STOP' }
    expectError(await postTwilio(t.app, inboundPath(hospitalA), params, TOKEN_B), 403)
    expectError(await postTwilio(t.app, inboundPath(hospitalA), params, null), 403)
    expect(await inboundRows(phone)).toEqual([])
    expect(await consentsOf(t.db, phone)).toEqual([])
  })
})
