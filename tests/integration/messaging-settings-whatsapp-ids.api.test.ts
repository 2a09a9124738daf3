import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { proofMessages } from '../../src/server/integrations/whatsapp-cloud/prove-ids'
import { type FakeMetaWhatsapp, startFakeMetaWhatsapp } from '../support/fakes/meta-whatsapp'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { metaCall } from '../support/meta'
import { postWhatsapp } from '../support/messaging-webhooks'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 39, item 13: WhatsApp ids are proven. Saving a Meta phone number ID and WhatsApp
// Business Account ID checks them with Meta's Graph API using the hospital's own access token
// (the number must be readable and belong to the account); only then are they routed to the
// hospital. Another hospital's ids are not saved without such a proof; a fresh proof takes them
// over, and the former hospital's admins are emailed and both trails audited.

let t: TestApp
let meta: FakeMetaWhatsapp
let adminA: string
let adminB: string
let hospitalA: string
let hospitalB: string

const A = {
  phone: '1065403500001',
  waba: '4195612500001',
  token: 'EAAG-hospital-a-token-0001',
  secret: 'app-secret-of-hospital-a-01',
}
const B = {
  phone: '1065403500002',
  waba: '4195612500002',
  token: 'EAAG-hospital-b-token-0002',
  secret: 'app-secret-of-hospital-b-02',
}
/** Another number of A's business account (A may move to it). */
const A2 = { ...A, phone: '1065403500003' }

beforeAll(async () => {
  meta = await startFakeMetaWhatsapp({
    [A.phone]: {
      token: A.token,
      appSecret: A.secret,
      wabaId: A.waba,
      displayPhoneNumber: '+91 20 1',
    },
    [A2.phone]: {
      token: A.token,
      appSecret: A.secret,
      wabaId: A.waba,
      displayPhoneNumber: '+91 20 3',
    },
    [B.phone]: {
      token: B.token,
      appSecret: B.secret,
      wabaId: B.waba,
      displayPhoneNumber: '+91 20 2',
    },
  })
  t = await createTestApp({
    baseURL: 'http://localhost',
    messagingProviders: {
      twilio: 'http://127.0.0.1:9',
      msg91: 'http://127.0.0.1:9',
      sendgrid: 'http://127.0.0.1:9',
      metaGraph: meta.url,
      metaGraphVersion: 'v23.0',
      sandboxDeliveryMs: 0,
    },
  })
  adminA = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
})
afterAll(async () => {
  await t?.close()
  await meta?.close()
})

const put = (cookie: string, body: unknown) =>
  metaCall(t.app, cookie, 'PUT', '/api/settings/messaging', body)
const whatsapp = (ids: { phone: string; waba: string; token?: string; secret?: string }) => ({
  whatsapp: {
    provider: 'meta',
    settings: { phoneNumberId: ids.phone, businessAccountId: ids.waba },
    secrets: {
      ...(ids.token ? { accessToken: ids.token } : {}),
      ...(ids.secret ? { appSecret: ids.secret } : {}),
    },
  },
})
const routes = () =>
  queryRows<{ provider: string; external_id: string; hospital_id: string }>(
    t.db,
    sql`select provider, external_id, hospital_id from messaging_routes
        where provider in ('meta', 'meta-waba') order by provider, external_id`,
  )
const holderOf = async (provider: string, id: string) =>
  (await routes()).find((r) => r.provider === provider && r.external_id === id)?.hospital_id ?? null
const storedWhatsapp = async (hospitalId: string) =>
  (
    await queryRows<{ provider: string; settings: Record<string, unknown> }>(
      t.db,
      sql`select whatsapp_provider as provider, settings from messaging_connections
          where hospital_id = ${hospitalId}`,
    )
  )[0]
const auditsOf = (hospitalId: string, action: string) =>
  queryRows<{ summary: string; actor_user_id: string | null }>(
    t.db,
    sql`select summary, actor_user_id from audit_events
        where hospital_id = ${hospitalId} and action = ${action} order by created_at`,
  )
const mailsTo = (address: string) =>
  queryRows<{ subject: string; text_body: string }>(
    t.db,
    sql`select subject, text_body from email_outbox
        where to_address = ${address} and purpose = 'whatsapp-id-taken-over'`,
  )
const proofCalls = () => meta.requests.filter((r) => r.method === 'GET').length

/** A template status update for a business account, as Meta sends it. */
const templateUpdate = (waba: string, name: string) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: waba,
      changes: [
        {
          field: 'message_template_status_update',
          value: {
            event: 'APPROVED',
            message_template_id: 594425479261596,
            message_template_name: name,
            message_template_language: 'en_US',
            reason: 'NONE',
          },
        },
      ],
    },
  ],
})

describe('saving WhatsApp ids proves them with Meta', () => {
  it("routes A's ids once A's own token proved them, with the calls Meta's contract describes", async () => {
    const before = proofCalls()
    const res = await put(adminA, whatsapp(A))
    expect(res.statusCode, res.body).toBe(200)
    expect(await holderOf('meta', A.phone)).toBe(hospitalA)
    expect(await holderOf('meta-waba', A.waba)).toBe(hospitalA)
    const calls = meta.requests.filter((r) => r.method === 'GET').slice(before)
    expect(calls.map((c) => c.path)).toEqual([
      `/v23.0/${A.phone}`,
      `/v23.0/${A.waba}/phone_numbers`,
    ])
    for (const call of calls) {
      expect(call.refused).toBeNull()
      expect(call.headers.authorization).toBe(`Bearer ${A.token}`)
      expect(call.query.get('appsecret_proof')).toMatch(/^[0-9a-f]{64}$/)
    }
    const verified = await auditsOf(hospitalA, 'whatsapp.id_verified')
    expect(verified.map((a) => a.summary)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`phone number ID ${A.phone} verified with Meta`),
        expect.stringContaining(`Business Account ID ${A.waba} verified with Meta`),
      ]),
    )
    // Saving the same ids again (another field changed) asks Meta nothing.
    const calls0 = proofCalls()
    expect((await put(adminA, { ...whatsapp(A), sms: { provider: 'sandbox' } })).statusCode).toBe(
      200,
    )
    expect(proofCalls()).toBe(calls0)
  })

  it("refuses B's save of A's number or account with B's own token: 400 on the field, nothing saved, A keeps its webhook", async () => {
    const before = await storedWhatsapp(hospitalB)
    const phone = expectError(
      await put(adminB, whatsapp({ ...B, phone: A.phone, waba: A.waba })),
      400,
      'BAD_REQUEST',
    )
    expect(phone.message).toBe(proofMessages.phone)
    expect(phone.issues).toEqual([
      { path: 'whatsapp.settings.phoneNumberId', message: proofMessages.phone },
    ])
    const account = expectError(
      await put(adminB, whatsapp({ ...B, waba: A.waba })),
      400,
      'BAD_REQUEST',
    )
    expect(account.issues).toEqual([
      { path: 'whatsapp.settings.businessAccountId', message: proofMessages.account },
    ])
    expect(await storedWhatsapp(hospitalB)).toEqual(before)
    expect(await holderOf('meta', A.phone)).toBe(hospitalA)
    expect(await holderOf('meta-waba', A.waba)).toBe(hospitalA)

    // A's genuine, signed template status update still reaches A.
    for (const h of [hospitalA, hospitalB]) {
      await queryRows(
        t.db,
        sql`insert into message_templates (hospital_id, name, channel, body, category, provider_template_name, approval_status)
            values (${h}, 'Proof reminder', 'whatsapp', 'Hi {{1}}', 'utility', 'proof_reminder', 'pending')`,
      )
    }
    const res = await postWhatsapp(t.app, templateUpdate(A.waba, 'proof_reminder'), A.secret)
    expect(res.statusCode, res.body).toBe(200)
    const stored = await queryRows<{ hospital_id: string; approval_status: string }>(
      t.db,
      sql`select hospital_id, approval_status from message_templates where provider_template_name = 'proof_reminder'`,
    )
    expect(stored.find((r) => r.hospital_id === hospitalA)?.approval_status).toBe('approved')
    expect(stored.find((r) => r.hospital_id === hospitalB)?.approval_status).toBe('pending')
  })

  it('names the field to fix: an unknown token, a wrong app secret, a number of another account', async () => {
    const token = expectError(
      await put(adminB, whatsapp({ ...B, token: 'EAAG-nobody-knows-this' })),
      400,
    )
    expect(token.issues).toEqual([
      { path: 'whatsapp.secrets.accessToken', message: proofMessages.token },
    ])
    const secret = expectError(
      await put(adminB, whatsapp({ ...B, secret: 'not-the-app-secret-000' })),
      400,
    )
    expect(secret.issues).toEqual([
      { path: 'whatsapp.secrets.appSecret', message: proofMessages.appSecret },
    ])
    // A's token reads A's account, but B's number is not in it.
    const foreign = expectError(await put(adminB, whatsapp({ ...A, phone: B.phone })), 400)
    expect(foreign.issues?.[0]?.path).toBe('whatsapp.settings.phoneNumberId')
    expect(await holderOf('meta', B.phone)).toBeNull()
    expect((await storedWhatsapp(hospitalB))?.provider ?? 'sandbox').toBe('sandbox')
  })

  it('routes nothing for a set-up on the sandbox (a required field missing), and asks Meta nothing', async () => {
    const calls = proofCalls()
    const res = await put(adminB, whatsapp({ phone: B.phone, waba: B.waba }))
    expect(res.statusCode, res.body).toBe(200)
    expect(proofCalls()).toBe(calls)
    expect((await routes()).filter((r) => r.hospital_id === hospitalB)).toEqual([])
  })

  it("a fresh proof by B takes A's ids over; A's admins are emailed and both trails audited", async () => {
    expect(await holderOf('meta', A.phone)).toBe(hospitalA)
    const mailsBefore = (await mailsTo(demoEmail('admin'))).length
    // B holds a valid token of A's business (e.g. a partner A added): Meta accepts it.
    const res = await put(adminB, whatsapp(A))
    expect(res.statusCode, res.body).toBe(200)
    expect(await holderOf('meta', A.phone)).toBe(hospitalB)
    expect(await holderOf('meta-waba', A.waba)).toBe(hospitalB)

    const lost = await auditsOf(hospitalA, 'whatsapp.id_lost')
    expect(lost.map((a) => a.summary)).toEqual([
      expect.stringContaining(`phone number ID ${A.phone} was connected to another hospital`),
      expect.stringContaining(`Business Account ID ${A.waba} was connected to another hospital`),
    ])
    const won = await auditsOf(hospitalB, 'whatsapp.id_taken_over')
    expect(won).toHaveLength(2)
    expect(won[0]?.actor_user_id).toBe(await userIdOf(t.db, demoEmail('admin', 'smiledental')))
    for (const row of [...lost, ...won]) expect(row.summary).not.toMatch(/Smile|Sanjeevani/)

    const mails = await mailsTo(demoEmail('admin'))
    expect(mails.length).toBe(mailsBefore + 2)
    expect(mails.at(-1)?.subject).toBe('Your WhatsApp number was connected to another hospital')
    expect(mails.map((m) => m.text_body).join('\n')).toContain(A.phone)
    expect(await mailsTo(demoEmail('admin', 'smiledental'))).toEqual([])

    // A's next save proves its ids afresh and takes them back (B is told this time).
    const again = await put(adminA, whatsapp(A))
    expect(again.statusCode, again.body).toBe(200)
    expect(await holderOf('meta', A.phone)).toBe(hospitalA)
    expect((await auditsOf(hospitalB, 'whatsapp.id_lost')).length).toBe(2)
  })

  it('moves the route when A saves another number of its account, and withdraws it on the sandbox', async () => {
    expect((await put(adminA, whatsapp({ phone: A2.phone, waba: A.waba }))).statusCode).toBe(200)
    expect(await holderOf('meta', A.phone)).toBeNull()
    expect(await holderOf('meta', A2.phone)).toBe(hospitalA)
    expect((await put(adminA, { whatsapp: { provider: 'sandbox' } })).statusCode).toBe(200)
    expect((await routes()).filter((r) => r.hospital_id === hospitalA)).toEqual([])
  })
})
