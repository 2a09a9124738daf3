import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Tx } from '../../src/server/db/client'
import { listen, type Listening } from '../../src/server/db/notify'
import { withTenant } from '../../src/server/db/tenant'
import {
  type InboundMessage,
  storeInbound,
} from '../../src/server/modules/messaging-webhooks/inbound.service'
import { recordProviderOptOut } from '../../src/server/modules/messaging-webhooks/status.service'
import { expectError } from '../support/http'
import { call, e164, newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  configureMessaging,
  consentsOf,
  outboundMessage,
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

// The services-webhooks-meta mutation part's tests for the provider webhooks and consents
// (issue 30): the exact answers, audit summaries, stored rows, notifications and results of
// consents.service.ts, inbound.service.ts and status.service.ts that surviving mutants changed.
//
// Equivalent mutants (no caller can tell them apart), so not tested here:
// - consents 40:49 `subject.patientId ?? ''`: the schema demands exactly one uuid subject, so
//   line 40 always has a patientId (and '' or any other text is no uuid either way).
// - consents 104:9 `!stored` and 104:34 'consent record missing': the consent row was just
//   inserted in the same transaction and tenant, so it is always read back.
// - inbound 117:13 `select({ id })` → `select({})`: PostgreSQL's zero-column select still
//   returns the row, so `seen` is truthy either way.
// - inbound 147:7 `person.leadId` → true: for a patient-only sender the update is
//   `where id = null`, which touches no row.

let t: TestApp
let hospitalA: string
let cookieA: string
const TOKEN = 'twilio-token-webhooks-meta-mutants'
const inboundPath = () => `/api/webhooks/twilio/${hospitalA}/inbound`
const statusPath = (query = '') => `/api/webhooks/twilio/${hospitalA}/status${query}`

/** Every payload NOTIFY 'messaging' carried since the suite started (PGlite: in-process). */
const notices: string[] = []
let listening: Listening | undefined

beforeAll(async () => {
  t = await createTestApp()
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  cookieA = await login(t.app, demoEmail('receptionist'))
  const twilio = twilioConnection(TOKEN, '7', '+14155550177')
  await configureMessaging(t.db, hospitalA, { whatsapp: twilio, sms: twilio })
  listening = await listen({
    database: t.database,
    channel: 'messaging',
    onNotify: (payload) => notices.push(payload),
    onLive: () => undefined,
    log: { warn: () => undefined, info: () => undefined },
  })
})
afterAll(async () => {
  await listening?.close()
  await t?.close()
})

async function newPatient(name: string, email: string | null) {
  const phone = e164(uniqueMobile(64_000))
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`insert into patients (hospital_id, name, phone, email)
        values (${hospitalA}, ${name}, ${phone}, ${email}) returning id`,
  )
  if (!row) throw new Error('no patient')
  return { id: row.id, phone }
}

const consentAudits = (entityId: string) =>
  queryRows<{ action: string; entity_type: string; summary: string }>(
    t.db,
    sql`select action, entity_type, summary from audit_events
        where entity_id = ${entityId} and action like 'consent.%' order by created_at, ctid`,
  )

const postConsent = (body: Record<string, unknown>) =>
  call(t.app, cookieA, 'POST', '/api/consents', body)

describe('staff consents (consents.service.ts)', () => {
  it('audits an opt-out and an opt-in with their exact summaries, for a lead and a patient', async () => {
    const lead = await newLead(t.app, cookieA, {
      name: 'Anjali Menon',
      phone: uniqueMobile(63_000),
    })
    expect(
      (await postConsent({ leadId: lead.id, channel: 'whatsapp', action: 'opt_out' })).statusCode,
    ).toBe(201)
    expect(
      (await postConsent({ leadId: lead.id, channel: 'sms', action: 'opt_in' })).statusCode,
    ).toBe(201)
    expect(await consentAudits(lead.id)).toEqual([
      {
        action: 'consent.opt_out',
        entity_type: 'lead',
        summary: 'Recorded an opt-out from WhatsApp messages for lead Anjali Menon',
      },
      {
        action: 'consent.opt_in',
        entity_type: 'lead',
        summary: 'Recorded an opt-in to SMS messages for lead Anjali Menon',
      },
    ])
    const patient = await newPatient('Ravi Kumar', 'Ravi.Kumar@Example.com')
    const res = await postConsent({ patientId: patient.id, channel: 'email', action: 'opt_in' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ contactAddress: 'ravi.kumar@example.com', action: 'opt_in' })
    expect(await consentAudits(patient.id)).toEqual([
      {
        action: 'consent.opt_in',
        entity_type: 'patient',
        summary: 'Recorded an opt-in to email messages for patient Ravi Kumar',
      },
    ])
  })

  it('refuses an email consent for a person without an email: 400 naming the channel', async () => {
    const lead = await newLead(t.app, cookieA, { email: null, phone: uniqueMobile(63_100) })
    const noMail = (kind: string) => ({
      message: `This ${kind} has no email address.`,
      code: 'VALIDATION',
      issues: [{ path: 'channel', message: `This ${kind} has no email address.` }],
    })
    const forLead = await postConsent({ leadId: lead.id, channel: 'email', action: 'opt_out' })
    expectError(forLead, 400, 'VALIDATION')
    expect(forLead.json()).toEqual(noMail('lead'))
    const patient = await newPatient('No Mail', null)
    const forPatient = await postConsent({
      patientId: patient.id,
      channel: 'email',
      action: 'opt_in',
    })
    expectError(forPatient, 400, 'VALIDATION')
    expect(forPatient.json()).toEqual(noMail('patient'))
    expect(await consentsOf(t.db, lead.phone)).toEqual([])
  })

  it('answers 404 "Lead not found" / "Patient not found" for ids it cannot see', async () => {
    const unknown = crypto.randomUUID()
    const lead = await postConsent({ leadId: unknown, channel: 'sms', action: 'opt_out' })
    expect(expectError(lead, 404, 'NOT_FOUND').message).toBe('Lead not found')
    for (const channel of ['sms', 'email']) {
      const res = await postConsent({ patientId: unknown, channel, action: 'opt_out' })
      expect(expectError(res, 404, 'NOT_FOUND').message).toBe('Patient not found')
    }
    const list = await call(t.app, cookieA, 'GET', `/api/consents?patientId=${unknown}`)
    expect(expectError(list, 404, 'NOT_FOUND').message).toBe('Patient not found')
  })
})

const postInbound = (params: Record<string, string>) =>
  postTwilio(t.app, inboundPath(), params, TOKEN)

const inboundRows = (sid: string) =>
  queryRows<{ id: string; lead_id: string | null; contact_address: string }>(
    t.db,
    sql`select id, lead_id, contact_address from communications
        where provider = 'twilio' and provider_message_id = ${sid}`,
  )

const leadsWithPhone = (phone: string) =>
  queryRows<{ id: string }>(t.db, sql`select id from leads where phone = ${phone}`)

/** An inbound SMS as the Twilio webhook hands it to storeInbound. */
const sms = (from: string, sid = twilioSid()): InboundMessage => ({
  hospitalId: hospitalA,
  channel: 'sms',
  provider: 'twilio',
  providerMessageId: sid,
  from,
  text: 'Is the clinic open on Sunday?',
  consent: null,
  metadata: { via: 'twilio' },
})

const inTenant = <T>(fn: (tx: Tx) => Promise<T>) =>
  withTenant(t.db, { hospitalId: hospitalA, userId: null }, fn)

/**
 * The transaction as a concurrent delivery sees it: its first select (the duplicate check)
 * ran before the other delivery committed, so it finds nothing; everything else is real.
 */
function racing(tx: Tx): Tx {
  let raced = false
  return new Proxy(tx, {
    get(target, prop) {
      if (prop === 'select' && !raced) {
        raced = true
        return () => ({ from: () => ({ where: () => Promise.resolve([]) }) })
      }
      const value: unknown = Reflect.get(target, prop, target)
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value
    },
  })
}

describe('inbound messages (inbound.service.ts)', () => {
  it('answers 400 to a sender that is not a phone number, storing nothing', async () => {
    const sid = twilioSid()
    const res = await postInbound({ MessageSid: sid, From: 'not-a-number', Body: 'hello' })
    expect(expectError(res, 400, 'VALIDATION').message).toBe(
      'Invalid input: From: not a phone number',
    )
    expect(await inboundRows(sid)).toEqual([])
    expect(await inTenant((tx) => storeInbound(tx, sms('whatsapp:abc')))).toEqual({
      stored: false,
      reason: 'bad-sender',
    })
  })

  it("stores a reply for the sender's lead, moves its last contact and tells every instance", async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(63_200) })
    await queryRows(
      t.db,
      sql`update leads set last_contact_at = '2020-01-01Z', updated_at = '2020-01-01Z'
          where id = ${lead.id}`,
    )
    const sid = twilioSid()
    const res = await postInbound({ MessageSid: sid, From: lead.phone, Body: 'See you at 5' })
    expect(res.statusCode, res.body).toBe(200)
    const [row] = await inboundRows(sid)
    expect(row).toMatchObject({ lead_id: lead.id, contact_address: lead.phone })
    const [stamps] = await queryRows<{ moved: boolean; touched: boolean }>(
      t.db,
      sql`select last_contact_at > '2021-01-01Z' as moved, updated_at > '2021-01-01Z' as touched
          from leads where id = ${lead.id}`,
    )
    expect(stamps).toEqual({ moved: true, touched: true })
    if (t.driver !== 'pglite') return // LISTEN here needs the direct URL the app keeps
    const events = notices.map((n) => JSON.parse(n) as { id?: string })
    expect(events.filter((e) => e.id === row?.id)).toEqual([
      {
        hospitalId: hospitalA,
        id: row?.id,
        leadId: lead.id,
        patientId: null,
        status: 'received',
        failureReason: null,
        direction: 'inbound',
      },
    ])
  })

  it('returns what it stored, and drops a second delivery of the same id as a duplicate', async () => {
    const patient = await newPatient('Inbound Patient', null)
    const message = sms(patient.phone.slice(1))
    const first = await inTenant((tx) => storeInbound(tx, message))
    const [row] = await inboundRows(message.providerMessageId)
    expect(first).toEqual({ stored: true, id: row?.id, leadId: null, patientId: patient.id })
    const again = await inTenant((tx) => storeInbound(tx, message))
    expect(again).toEqual({ stored: false, reason: 'duplicate' })
    expect(await inboundRows(message.providerMessageId)).toHaveLength(1)
  })

  it('drops a replay of a message id from another number without adding a lead', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(63_300) })
    const sid = twilioSid()
    expect((await postInbound({ MessageSid: sid, From: lead.phone, Body: 'Hi' })).statusCode).toBe(
      200,
    )
    const stranger = e164(uniqueMobile(63_400))
    const replay = await postInbound({ MessageSid: sid, From: stranger, Body: 'Hi' })
    expect(replay.statusCode, replay.body).toBe(200)
    expect(await leadsWithPhone(stranger)).toEqual([])
    expect((await inboundRows(sid)).map((r) => r.lead_id)).toEqual([lead.id])
  })

  it('answers a duplicate when a concurrent delivery stored the id after its check', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(63_500) })
    const message = sms(lead.phone)
    expect(await inTenant((tx) => storeInbound(tx, message))).toMatchObject({ stored: true })
    const raced = await inTenant((tx) => storeInbound(racing(tx), message))
    expect(raced).toEqual({ stored: false, reason: 'duplicate' })
    expect(await inboundRows(message.providerMessageId)).toHaveLength(1)
  })
})

describe('provider opt-outs (status.service.ts)', () => {
  async function sentSms(sid: string | null) {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(63_600) })
    const id = await outboundMessage(t.db, hospitalA, {
      leadId: lead.id,
      type: 'sms',
      provider: 'twilio',
      providerMessageId: sid,
      contactAddress: lead.phone,
      status: sid ? 'sent' : 'sending',
    })
    return { lead, id }
  }
  const optedOut = { MessageStatus: 'undelivered', ErrorCode: '21610' }

  it('records the opt-out of a 21610 callback that names the message by its c= id', async () => {
    const { lead, id } = await sentSms(null)
    const res = await postTwilio(
      t.app,
      statusPath(`?c=${id}`),
      { MessageSid: twilioSid(), ...optedOut },
      TOKEN,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect(await consentsOf(t.db, lead.phone)).toEqual([
      { hospital_id: hospitalA, channel: 'sms', action: 'opt_out', method: 'provider' },
    ])
  })

  it('answers empty TwiML to a 21610 callback for a message it does not know', async () => {
    const sid = twilioSid()
    const res = await postTwilio(t.app, statusPath(), { MessageSid: sid, ...optedOut }, TOKEN)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.body).toContain('<Response/>')
  })

  it('says whether it recorded an opt-out: unknown message no, first time yes, again no', async () => {
    const sid = twilioSid()
    const { lead } = await sentSms(sid)
    const ref = { provider: 'twilio', providerMessageId: sid }
    const optOut = (r: typeof ref) => inTenant((tx) => recordProviderOptOut(tx, hospitalA, r))
    expect(await optOut({ provider: 'twilio', providerMessageId: twilioSid() })).toBe(false)
    expect(await optOut(ref)).toBe(true)
    expect(await optOut(ref)).toBe(false)
    expect(await consentsOf(t.db, lead.phone)).toEqual([
      { hospital_id: hospitalA, channel: 'sms', action: 'opt_out', method: 'provider' },
    ])
  })
})
