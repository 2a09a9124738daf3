import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendBulk } from '../../src/server/modules/messaging/bulk.service'
import { DLT_MISMATCH } from '../../src/server/modules/messaging/rules'
import { SEND_ATTEMPTS, SEND_JOB } from '../../src/server/modules/messaging/send.service'
import type { Lead } from '../../src/shared/schemas/leads'
import { bulkPreview, bulkSendResult } from '../../src/shared/schemas/messaging-send'
import { expectError } from '../support/http'
import { call, newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import { addTemplate, inboundWhatsapp, optOut, setProvider } from '../support/messaging-send'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-messaging mutation part (stryker/groups.mjs, docs/decisions/024): bulk.service.ts.
// What a bulk send stores for each recipient (the communication, its job), for the batch and in
// the audit, and the single-send rules it applies to all of them at once: the template's body
// and subject, DLT on MSG91, quiet hours, the WhatsApp window and opt-outs.

let t: TestApp
let admin: string
let receptionist: string
let otherAdmin: string
let h: string
let receptionistId: string
let platformId: string
let hospitalName: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  otherAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
  h = await hospitalIdOf(t.db, 'sanjeevani')
  receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
  const [platform] = await queryRows<{ id: string }>(
    t.db,
    sql`select id from users where hospital_id is null limit 1`,
  )
  platformId = platform!.id
  const [hospital] = await queryRows<{ name: string }>(
    t.db,
    sql`select name from hospitals where id = ${h}`,
  )
  hospitalName = hospital!.name
})
afterAll(async () => {
  await t?.close()
})

const bulk = (body: Record<string, unknown>, path = '', cookie = receptionist) =>
  call(t.app, cookie, 'POST', `/api/leads/bulk/message${path}`, body)

async function sent(body: Record<string, unknown>) {
  const res = await bulk(body)
  expect(res.statusCode, res.body).toBe(202)
  return bulkSendResult.strict().parse(res.json())
}

let seq = 0
function lead(overrides: Record<string, unknown> = {}): Promise<Lead> {
  seq += 1
  return newLead(t.app, admin, {
    phone: uniqueMobile(64_000),
    email: `bulk.lead${seq}@example.com`,
    ...overrides,
  })
}

interface Row {
  id: string
  lead_id: string
  patient_id: string | null
  type: string
  direction: string
  content: string
  status: string
  metadata: Record<string, unknown>
  created_by_user_id: string | null
  read: boolean
  contact_address: string
  provider: string
  sandbox: boolean
  template_id: string | null
  send_after_ms: number | null
  status_changed: boolean
}

const rowsOf = (batchId: string) =>
  queryRows<Row>(
    t.db,
    sql`select id, lead_id, patient_id, type, direction, content, status, metadata,
          created_by_user_id, read_at is not null as read, contact_address, provider, sandbox,
          template_id, (extract(epoch from send_after) * 1000)::float8 as send_after_ms,
          status_changed_at is not null as status_changed
        from communications where batch_id = ${batchId} order by content`,
  )

const jobsOf = (ids: string[]) =>
  queryRows<{
    name: string
    hospital_id: string
    payload: { id: string }
    run_at_ms: number
    max_attempts: number
    dedupe_key: string
    due_now: boolean
  }>(
    t.db,
    sql`select name, hospital_id, payload, (extract(epoch from run_at) * 1000)::float8 as run_at_ms,
          max_attempts, dedupe_key, run_at <= now() + interval '1 minute' as due_now
        from jobs where payload->>'id' = any(${`{${ids.join(',')}}`}::text[]) order by dedupe_key`,
  )

const batchRow = async (id: string) =>
  (
    await queryRows<{
      channel: string
      template_id: string | null
      subject: string | null
      content: string
      requested: number
      queued: number
      skipped: Record<string, number>
      created_by_user_id: string | null
      hospital_id: string
    }>(
      t.db,
      sql`select channel, template_id, subject, content, requested, queued, skipped,
            created_by_user_id, hospital_id from message_batches where id = ${id}`,
    )
  )[0]!

const auditOf = (batchId: string) =>
  queryRows<{
    action: string
    entity_type: string
    summary: string
    actor_user_id: string | null
    impersonator_user_id: string | null
  }>(
    t.db,
    sql`select action, entity_type, summary, actor_user_id, impersonator_user_id
        from audit_events where entity_id = ${batchId}`,
  )

/** Quiet hours that started an hour ago and end in two (India time), for the test's length. */
async function inQuietHours<T>(fn: () => Promise<T>): Promise<T> {
  const nowIst = new Date(Date.now() + 330 * 60_000)
  const minutes = nowIst.getUTCHours() * 60 + nowIst.getUTCMinutes()
  const hhmm = (m: number) => {
    const x = (m + 1440) % 1440
    return `${String(Math.floor(x / 60)).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}`
  }
  // The sending window opens in two hours and closes in three.
  await t.db.execute(sql`
    insert into notification_settings (hospital_id, quiet_hours_start, quiet_hours_end)
    values (${h}, ${hhmm(minutes + 120)}, ${hhmm(minutes + 180)})
    on conflict (hospital_id) do update set quiet_hours_start = excluded.quiet_hours_start,
      quiet_hours_end = excluded.quiet_hours_end`)
  try {
    return await fn()
  } finally {
    await t.db.execute(sql`delete from notification_settings where hospital_id = ${h}`)
  }
}

describe('bulk send: what is stored', () => {
  it("an SMS to each lead: queued, read, its lead's patient, the sandbox, one job of six attempts each", async () => {
    const [patient] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from patients where hospital_id = ${h} limit 1`,
    )
    const a = await lead({ name: 'Aarav Shah' })
    const b = await lead({ name: 'Bhavna Iyer' })
    await queryRows(
      t.db,
      sql`update leads set patient_id = ${patient!.id}, status = 'converted' where id = ${a.id}`,
    )
    const res = await sent({
      leadIds: [a.id, b.id],
      type: 'sms',
      content: 'Hi {name}, from {clinic}',
    })
    expect(res.queued).toBe(2)
    const rows = await rowsOf(res.batchId)
    expect(rows).toEqual([
      {
        id: expect.any(String),
        lead_id: a.id,
        patient_id: patient!.id,
        type: 'sms',
        direction: 'outbound',
        content: `Hi Aarav Shah, from ${hospitalName}`,
        status: 'queued',
        metadata: { template: 'custom' },
        created_by_user_id: receptionistId,
        read: true,
        contact_address: a.phone,
        provider: 'sandbox',
        sandbox: true,
        template_id: null,
        send_after_ms: null,
        status_changed: true,
      },
      {
        id: expect.any(String),
        lead_id: b.id,
        patient_id: null,
        type: 'sms',
        direction: 'outbound',
        content: `Hi Bhavna Iyer, from ${hospitalName}`,
        status: 'queued',
        metadata: { template: 'custom' },
        created_by_user_id: receptionistId,
        read: true,
        contact_address: b.phone,
        provider: 'sandbox',
        sandbox: true,
        template_id: null,
        send_after_ms: null,
        status_changed: true,
      },
    ])
    const jobs = await jobsOf(rows.map((r) => r.id))
    expect(jobs).toHaveLength(2)
    for (const job of jobs) {
      expect(job).toMatchObject({
        name: SEND_JOB,
        hospital_id: h,
        max_attempts: SEND_ATTEMPTS,
        due_now: true,
        dedupe_key: `${h}:${SEND_JOB}:${job.payload.id}`,
      })
    }
    expect(jobs.map((j) => j.payload.id).sort()).toEqual(rows.map((r) => r.id).sort())
    // The leads were contacted now.
    const touched = await queryRows<{ status: string; contacted: boolean }>(
      t.db,
      sql`select status, last_contact_at > now() - interval '1 minute' as contacted
          from leads where id in (${a.id}, ${b.id})`,
    )
    expect(touched.sort((x, y) => x.status.localeCompare(y.status))).toEqual([
      { status: 'contacted', contacted: true },
      { status: 'converted', contacted: true },
    ])
  })

  it('the batch keeps the channel, template, subject, content, counts and sender; the audit says how many of how many', async () => {
    const a = await lead()
    const out = await lead()
    await optOut(t.db, h, 'email', out.email!)
    const template = await addTemplate(t.db, h, {
      channel: 'email',
      body: 'Dear {name}, our health camp is on Sunday.',
      category: 'marketing',
    })
    const res = await sendBulk({
      db: t.db,
      hospitalId: h,
      userId: receptionistId,
      impersonatorUserId: platformId,
      values: {
        leadIds: [a.id, out.id],
        type: 'email',
        subject: 'Camp for {name}',
        templateId: template,
      },
    })
    expect(res.queued).toBe(1)
    expect(await batchRow(res.batchId)).toEqual({
      channel: 'email',
      template_id: template,
      subject: 'Camp for {name}',
      content: 'Dear {name}, our health camp is on Sunday.',
      requested: 2,
      queued: 1,
      skipped: { opted_out: 1, no_email: 0, no_phone: 0, invalid_number: 0, outside_window: 0 },
      created_by_user_id: receptionistId,
      hospital_id: h,
    })
    const [row] = await rowsOf(res.batchId)
    expect(row).toMatchObject({
      content: `Dear ${a.name}, our health camp is on Sunday.`,
      contact_address: a.email,
      template_id: template,
      metadata: {
        template: expect.stringMatching(/^Test template/),
        subject: `Camp for ${a.name}`,
      },
    })
    expect(await auditOf(res.batchId)).toEqual([
      {
        action: 'message.bulk_queued',
        entity_type: 'message_batch',
        summary: 'Queued a bulk Email message to 1 of 2 leads',
        actor_user_id: receptionistId,
        impersonator_user_id: platformId,
      },
    ])
  })

  it("the e-mail subject: the template's, else the hospital's default; a batch without one stores none", async () => {
    const a = await lead({ name: 'Chitra Rao' })
    const withSubject = await queryRows<{ id: string }>(
      t.db,
      sql`insert into message_templates (hospital_id, name, channel, subject, body, category)
          values (${h}, 'Camp invite', 'email', 'Invitation for {name}', 'Come along, {name}', 'marketing')
          returning id`,
    )
    const fromTemplate = await sent({
      leadIds: [a.id],
      type: 'email',
      templateId: withSubject[0]!.id,
    })
    const [r1] = await rowsOf(fromTemplate.batchId)
    expect(r1!.metadata).toEqual({ template: 'Camp invite', subject: 'Invitation for Chitra Rao' })
    expect(r1!.content).toBe('Come along, Chitra Rao')
    expect((await batchRow(fromTemplate.batchId)).subject).toBeNull()
    const plain = await sent({ leadIds: [a.id], type: 'email', content: 'Hello {name}' })
    const [r2] = await rowsOf(plain.batchId)
    expect(r2!.metadata).toEqual({ template: 'custom', subject: `Message from ${hospitalName}` })
    // Typed content wins over the template's body.
    const typed = await sent({
      leadIds: [a.id],
      type: 'email',
      content: 'Typed for {name}',
      templateId: withSubject[0]!.id,
    })
    const [r3] = await rowsOf(typed.batchId)
    expect(r3!.content).toBe('Typed for Chitra Rao')
    expect((await batchRow(typed.batchId)).content).toBe('Typed for {name}')
  })

  it('nobody left to send to: a batch of none, no jobs, the audit says 0 of 1', async () => {
    const out = await lead()
    await optOut(t.db, h, 'sms', out.phone)
    const res = await sent({ leadIds: [out.id, out.id], type: 'sms', content: 'Hi' })
    expect(res.queued).toBe(0)
    expect(await rowsOf(res.batchId)).toEqual([])
    expect(await batchRow(res.batchId)).toMatchObject({ requested: 1, queued: 0 })
    expect((await auditOf(res.batchId))[0]?.summary).toBe(
      'Queued a bulk SMS message to 0 of 1 leads',
    )
    const [{ status } = { status: '' }] = await queryRows<{ status: string }>(
      t.db,
      sql`select status from leads where id = ${out.id}`,
    )
    expect(status).toBe('new')
  })
})

describe('bulk send: the rules', () => {
  it('quiet hours hold a marketing WhatsApp template for everyone: send_after and the jobs at the opening', async () => {
    await inQuietHours(async () => {
      const a = await lead()
      const b = await lead()
      const marketing = await addTemplate(t.db, h, {
        channel: 'whatsapp',
        body: 'Offer for {name}',
        category: 'marketing',
        approvalStatus: 'approved',
        providerTemplateName: 'offer',
      })
      // An approved template opens a conversation: no inbound message needed.
      const res = await sent({ leadIds: [a.id, b.id], type: 'whatsapp', templateId: marketing })
      expect(res.queued).toBe(2)
      const rows = await rowsOf(res.batchId)
      const opening = rows[0]!.send_after_ms!
      expect(Math.abs(opening - (Date.now() + 120 * 60_000))).toBeLessThan(2 * 60_000)
      expect(rows.map((r) => r.send_after_ms)).toEqual([opening, opening])
      const jobs = await jobsOf(rows.map((r) => r.id))
      expect(jobs.map((j) => j.run_at_ms)).toEqual([opening, opening])
      expect((await auditOf(res.batchId))[0]?.summary).toBe(
        'Queued a bulk WhatsApp message to 2 of 2 leads (held for quiet hours)',
      )
      // A free-form SMS in the same hours is not held.
      const plain = await sent({ leadIds: [a.id], type: 'sms', content: 'Hi' })
      expect((await rowsOf(plain.batchId))[0]?.send_after_ms).toBeNull()
      expect((await auditOf(plain.batchId))[0]?.summary).toBe(
        'Queued a bulk SMS message to 1 of 1 leads',
      )
    })
  })

  it('WhatsApp: a pending template is still free-form (the window applies); an approved one does not need it', async () => {
    const open = await lead()
    const closed = await lead()
    const closed2 = await lead()
    await inboundWhatsapp(t.db, h, open.id, open.phone)
    const pending = await addTemplate(t.db, h, {
      channel: 'whatsapp',
      body: 'Hello {name}',
      category: 'utility',
      approvalStatus: 'pending',
      providerTemplateName: 'hello',
    })
    // A connected provider's own approval counts (on the sandbox every template is approved).
    await setProvider(t.db, h, 'whatsapp', 'meta')
    const preview = bulkPreview.parse(
      (
        await bulk(
          { leadIds: [open.id, closed.id, closed2.id], type: 'whatsapp', templateId: pending },
          '/preview',
        )
      ).json(),
    )
    await setProvider(t.db, h, 'whatsapp', 'sandbox')
    expect(preview).toMatchObject({ total: 3, recipients: 1, skipped: { outside_window: 2 } })
    const approved = await addTemplate(t.db, h, {
      channel: 'whatsapp',
      body: 'Hello {name}',
      category: 'utility',
      approvalStatus: 'approved',
      providerTemplateName: 'hello_ok',
    })
    const ok = bulkPreview.parse(
      (
        await bulk(
          { leadIds: [open.id, closed.id], type: 'whatsapp', templateId: approved },
          '/preview',
        )
      ).json(),
    )
    expect(ok).toMatchObject({ total: 2, recipients: 2, skipped: { outside_window: 0 } })
  })

  it('DLT on MSG91: a text that is not the registered template is refused for the whole batch; other providers and free-form texts are not checked', async () => {
    const a = await lead({ name: 'Ravi' })
    const dlt = await addTemplate(t.db, h, {
      channel: 'sms',
      body: 'Dear {name}, your appointment is confirmed.',
      category: 'service_implicit',
      dltTemplateId: '1107160000000000002',
    })
    const differs = {
      leadIds: [a.id],
      type: 'sms',
      templateId: dlt,
      content: 'Dear {name}, offer inside!',
    }
    // The sandbox does not check DLT.
    expect((await bulk(differs, '/preview')).statusCode).toBe(200)
    await setProvider(t.db, h, 'sms', 'msg91')
    try {
      const bad = expectError(await bulk(differs), 400, 'VALIDATION')
      expect(bad.issues).toEqual([{ path: 'content', message: DLT_MISMATCH }])
      expectError(await bulk(differs, '/preview'), 400, 'VALIDATION')
      const good = await sent({ leadIds: [a.id], type: 'sms', templateId: dlt })
      expect(good.queued).toBe(1)
      expect((await rowsOf(good.batchId))[0]).toMatchObject({
        provider: 'msg91',
        sandbox: false,
        content: 'Dear Ravi, your appointment is confirmed.',
      })
      // A free-form SMS (no DLT template) is not checked here.
      expect((await sent({ leadIds: [a.id], type: 'sms', content: 'Anything' })).queued).toBe(1)
    } finally {
      await setProvider(t.db, h, 'sms', 'sandbox')
    }
  })

  it('refuses a template of another channel or an unknown one, and a lead that is not this hospital’s, storing nothing', async () => {
    const a = await lead()
    const sms = await addTemplate(t.db, h, {
      channel: 'sms',
      body: 'Hi',
      category: 'transactional',
    })
    const wrong = expectError(
      await bulk({ leadIds: [a.id], type: 'email', templateId: sms }),
      400,
      'VALIDATION',
    )
    expect(wrong.issues).toEqual([
      { path: 'templateId', message: 'This template is not for Email' },
    ])
    const unknown = await bulk({
      leadIds: [a.id],
      type: 'sms',
      templateId: '00000000-0000-4000-8000-000000000000',
    })
    expect(expectError(unknown, 404, 'NOT_FOUND').message).toBe('Template not found')
    const [theirs] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from leads where hospital_id <> ${h} limit 1`,
    )
    const mixed = await bulk({ leadIds: [a.id, theirs!.id], type: 'sms', content: 'Hi' })
    expect(expectError(mixed, 404, 'NOT_FOUND').message).toBe('Lead not found')
    const [{ n } = { n: -1 }] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from communications where lead_id = ${a.id}`,
    )
    expect(n).toBe(0)
    expectError(await bulk({ leadIds: [a.id], type: 'sms', content: 'Hi' }, '', otherAdmin), 404)
  })

  it('a template whose body is only blanks, with no content, is an empty message', async () => {
    const a = await lead()
    const blank = await addTemplate(t.db, h, {
      channel: 'sms',
      body: ' ',
      category: 'transactional',
    })
    const res = await bulk({ leadIds: [a.id], type: 'sms', templateId: blank }, '/preview')
    const body = expectError(res, 400, 'VALIDATION')
    expect(body.issues).toEqual([{ path: 'content', message: 'Please enter a message.' }])
  })
})
