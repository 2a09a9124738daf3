import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError } from '../support/http'
import { call, newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Staff consent records (issue 25, DPDP): POST /api/consents records a lead's or patient's
// opt-in or opt-out on a channel (audited); GET /api/consents lists them newest first; another
// hospital's person is a 404.

let t: TestApp
let hospitalA: string
let cookieA: string
let cookieB: string

beforeAll(async () => {
  t = await createTestApp()
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  cookieA = await login(t.app, demoEmail('receptionist'))
  cookieB = await login(t.app, demoEmail('receptionist', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
})

describe('staff consents', () => {
  it('records an opt-out and an opt-in, newest first, audited', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(53_000) })
    const out = await call(t.app, cookieA, 'POST', '/api/consents', {
      leadId: lead.id,
      channel: 'whatsapp',
      action: 'opt_out',
    })
    expect(out.statusCode, out.body).toBe(201)
    expect(out.json()).toMatchObject({
      channel: 'whatsapp',
      action: 'opt_out',
      method: 'staff',
      contactAddress: lead.phone,
      recordedByName: expect.any(String) as string,
    })
    const back = await call(t.app, cookieA, 'POST', '/api/consents', {
      leadId: lead.id,
      channel: 'email',
      action: 'opt_in',
      noticeVersion: 'v2026-01',
    })
    expect(back.statusCode, back.body).toBe(201)
    expect(back.json()).toMatchObject({
      contactAddress: 'anjali.menon@example.com',
      noticeVersion: 'v2026-01',
    })
    const list = await call(t.app, cookieA, 'GET', `/api/consents?leadId=${lead.id}`)
    expect(list.statusCode).toBe(200)
    expect(
      list.json<{ channel: string; action: string }[]>().map((r) => [r.channel, r.action]),
    ).toEqual([
      ['email', 'opt_in'],
      ['whatsapp', 'opt_out'],
    ])
    const audit = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where entity_id = ${lead.id} and action like 'consent.%' order by created_at`,
    )
    expect(audit.map((a) => a.action)).toEqual(['consent.opt_out', 'consent.opt_in'])
  })

  it('works for patients and refuses an email opt-in without an email', async () => {
    const [patient] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into patients (hospital_id, name, phone) values (${hospitalA}, 'No Mail', '+919811122233') returning id`,
    )
    const res = await call(t.app, cookieA, 'POST', '/api/consents', {
      patientId: patient?.id,
      channel: 'sms',
      action: 'opt_out',
    })
    expect(res.statusCode, res.body).toBe(201)
    const noMail = await call(t.app, cookieA, 'POST', '/api/consents', {
      patientId: patient?.id,
      channel: 'email',
      action: 'opt_out',
    })
    expectError(noMail, 400, 'VALIDATION')
  })

  it('validates the body and the query (400)', async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(54_000) })
    for (const body of [
      { channel: 'sms', action: 'opt_out' },
      { leadId: lead.id, patientId: lead.id, channel: 'sms', action: 'opt_out' },
      { leadId: lead.id, channel: 'fax', action: 'opt_out' },
      { leadId: lead.id, channel: 'sms', action: 'maybe' },
      { leadId: lead.id, channel: 'sms', action: 'opt_out', extra: 1 },
      { leadId: 'nope', channel: 'sms', action: 'opt_out' },
    ]) {
      expectError(await call(t.app, cookieA, 'POST', '/api/consents', body), 400, 'VALIDATION')
    }
    expectError(await call(t.app, cookieA, 'GET', '/api/consents'), 400, 'VALIDATION')
  })

  it("answers 404 for another hospital's lead and changes nothing; viewers may not record", async () => {
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(55_000) })
    expectError(
      await call(t.app, cookieB, 'POST', '/api/consents', {
        leadId: lead.id,
        channel: 'sms',
        action: 'opt_out',
      }),
      404,
    )
    expectError(await call(t.app, cookieB, 'GET', `/api/consents?leadId=${lead.id}`), 404)
    const viewer = await login(t.app, demoEmail('viewer'))
    expectError(
      await call(t.app, viewer, 'POST', '/api/consents', {
        leadId: lead.id,
        channel: 'sms',
        action: 'opt_out',
      }),
      403,
    )
    const rows = await queryRows(
      t.db,
      sql`select 1 from consent_records where contact_address = ${lead.phone}`,
    )
    expect(rows).toEqual([])
  })
})
