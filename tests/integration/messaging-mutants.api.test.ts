import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { communications } from '../../src/server/db/schema/leads'
import { messageBatches } from '../../src/server/db/schema/messaging'
import { withTenant } from '../../src/server/db/tenant'
import {
  type QueueMessageInput,
  queueMessage,
  SEND_ATTEMPTS,
  SEND_JOB,
} from '../../src/server/modules/messaging/send.service'
import { communication } from '../../src/shared/schemas/leads'
import type { MessageBatch } from '../../src/shared/schemas/messaging-send'
import { expectError } from '../support/http'
import { call, e164, newLead, uniqueMobile } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import { addTemplate, setProvider } from '../support/messaging-send'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-messaging mutation part (stryker/groups.mjs, docs/decisions/024): a bulk send's
// counts, its failure reasons and whether it is done, as GET /api/message-batches/:id answers
// them to this hospital and refuses them to another.

let t: TestApp
let viewer: string
let adminB: string
let hospitalA: string
let adminA: string
let patientA: string
let receptionist: string
let hospitalName: string

beforeAll(async () => {
  t = await createTestApp()
  viewer = await login(t.app, demoEmail('viewer'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  adminA = await userIdOf(t.db, demoEmail('admin'))
  const [p] = await queryRows<{ id: string }>(
    t.db,
    sql`select id::text as id from patients where hospital_id = ${hospitalA} limit 1`,
  )
  if (!p) throw new Error('no seeded patient')
  patientA = p.id
  const [hospital] = await queryRows<{ name: string }>(
    t.db,
    sql`select name from hospitals where id = ${hospitalA}`,
  )
  hospitalName = hospital?.name ?? ''
})
afterAll(async () => {
  await t?.close()
})

type Status = 'queued' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed'

/** A batch of this hospital with one message per entry: its status and failure reason. */
async function batchWith(messages: [Status, string | null][]): Promise<string> {
  return withTenant(t.db, { hospitalId: hospitalA, userId: adminA }, async (tx) => {
    const [batch] = await tx
      .insert(messageBatches)
      .values({
        hospitalId: hospitalA,
        channel: 'whatsapp',
        content: 'Clinic closed on Friday',
        requested: messages.length,
        queued: messages.length,
        skipped: { opted_out: 1 },
        createdByUserId: adminA,
      })
      .returning({ id: messageBatches.id })
    if (!batch) throw new Error('batch not saved')
    await tx.insert(communications).values(
      messages.map(([status, failureReason]) => ({
        hospitalId: hospitalA,
        patientId: patientA,
        type: 'whatsapp' as const,
        direction: 'outbound' as const,
        content: 'Clinic closed on Friday',
        status,
        failureReason,
        batchId: batch.id,
      })),
    )
    return batch.id
  })
}

const getBatch = (cookie: string, id: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/message-batches/${id}`,
    headers: browserHeaders(cookie),
  })

describe('GET /api/message-batches/:id', () => {
  it('counts by status, groups the failures by reason, and is not done while any is pending', async () => {
    const id = await batchWith([
      ['queued', null],
      ['sending', null],
      ['sent', null],
      ['failed', 'Number not on WhatsApp'],
      ['failed', 'Number not on WhatsApp'],
      ['failed', null],
    ])
    const res = await getBatch(viewer, id)
    expect(res.statusCode, res.body).toBe(200)
    const batch = res.json<MessageBatch>()
    expect(batch.counts).toEqual({
      queued: 1,
      sending: 1,
      sent: 1,
      delivered: 0,
      read: 0,
      failed: 3,
    })
    expect(batch.failures).toEqual([
      { reason: 'Number not on WhatsApp', count: 2 },
      { reason: 'Failed', count: 1 },
    ])
    expect(batch.skipped).toEqual({
      opted_out: 1,
      no_email: 0,
      no_phone: 0,
      invalid_number: 0,
      outside_window: 0,
    })
    expect(batch.done).toBe(false)
    expectError(await getBatch(adminB, id), 404, 'NOT_FOUND')
  })

  it('is done once nothing is queued or sending', async () => {
    const id = await batchWith([
      ['delivered', null],
      ['read', null],
    ])
    const res = await getBatch(viewer, id)
    expect(res.statusCode, res.body).toBe(200)
    const batch = res.json<MessageBatch>()
    expect(batch.done).toBe(true)
    expect(batch.failures).toEqual([])
    expect(batch.counts).toMatchObject({ delivered: 1, read: 1, queued: 0, sending: 0 })
  })
})

// queueMessage (send.service.ts): the audit row, the e-mail subject, the DLT rule's scope, an
// empty template, the send job's options, and the reminder and booking-hold callers' inputs.

const send = (body: Record<string, unknown>) =>
  call(t.app, receptionist, 'POST', '/api/communications', {
    direction: 'outbound',
    status: 'sent',
    ...body,
  })

async function leadNamed(name: string, extra: Record<string, unknown> = {}) {
  return newLead(t.app, receptionist, { name, phone: uniqueMobile(), ...extra })
}

/** The communication of a 201, parsed strictly, with its stored template, batch and hold. */
async function queued(res: Awaited<ReturnType<typeof send>>) {
  expect(res.statusCode, res.body).toBe(201)
  return communication.strict().parse(res.json())
}

const auditOf = (entityId: string) =>
  queryRows<{ action: string; entity_type: string; summary: string }>(
    t.db,
    sql`select action, entity_type, summary from audit_events
        where entity_id = ${entityId} and action = 'message.queued' order by created_at`,
  )

const storedRow = async (id: string) =>
  (
    await queryRows<{
      template_id: string | null
      batch_id: string | null
      booking_hold_id: string | null
      send_after: unknown
      metadata: Record<string, unknown>
    }>(
      t.db,
      sql`select template_id, batch_id, booking_hold_id, send_after, metadata
          from communications where id = ${id}`,
    )
  )[0]

/** queueMessage in hospital A's tenant transaction, as the job and booking callers call it. */
const queueInTx = (input: Omit<QueueMessageInput, 'hospitalId' | 'userId'>) =>
  withTenant(t.db, { hospitalId: hospitalA, userId: adminA }, (tx) =>
    queueMessage(tx, { hospitalId: hospitalA, userId: adminA, ...input }),
  )

describe('queueMessage: the audit row and metadata', () => {
  it("audits a lead's message on the lead and a patient's on the patient, by channel and name", async () => {
    const target = await leadNamed('Tanvi Kulkarni')
    const sms = await queued(await send({ leadId: target.id, type: 'sms', content: 'Hi {name}' }))
    expect(sms.metadata).toEqual({ template: 'custom' })
    expect(await auditOf(target.id)).toEqual([
      {
        action: 'message.queued',
        entity_type: 'lead',
        summary: 'Queued an SMS message to Tanvi Kulkarni',
      },
    ])
    const email = await queued(
      await send({ patientId: patientA, type: 'email', content: 'Your report is ready' }),
    )
    const [patient] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from patients where id = ${patientA}`,
    )
    const audits = await auditOf(patientA)
    expect(audits.at(-1)).toEqual({
      action: 'message.queued',
      entity_type: 'patient',
      summary: `Queued an Email message to ${patient?.name}`,
    })
    // No subject and no template: the hospital's name.
    expect(email.metadata).toEqual({ template: 'custom', subject: `Message from ${hospitalName}` })
  })

  it("takes the e-mail subject trimmed, else the template's, with the placeholders filled", async () => {
    const target = await leadNamed('Nikhil Deshpande', { email: 'nikhil.d@example.com' })
    const own = await queued(
      await send({
        leadId: target.id,
        type: 'email',
        content: 'Hello',
        subject: '  Report for {name}  ',
        metadata: { campaign: 'reports' },
      }),
    )
    expect(own.metadata).toEqual({
      campaign: 'reports',
      template: 'custom',
      subject: 'Report for Nikhil Deshpande',
    })
    const templateId = await addTemplate(t.db, hospitalA, {
      channel: 'email',
      body: 'Dear {name}, your results are in.',
      category: 'utility',
    })
    await t.db.execute(
      sql`update message_templates set subject = 'Results for {name} at {clinic}' where id = ${templateId}`,
    )
    const fromTemplate = await queued(
      await send({ leadId: target.id, type: 'email', content: '', templateId }),
    )
    expect(fromTemplate.content).toBe('Dear Nikhil Deshpande, your results are in.')
    expect(fromTemplate.metadata.subject).toBe(`Results for Nikhil Deshpande at ${hospitalName}`)
    expect((await storedRow(fromTemplate.id))?.template_id).toBe(templateId)
    // A subject of blanks falls back to the template's.
    const blank = await queued(
      await send({ leadId: target.id, type: 'email', content: '', templateId, subject: '   ' }),
    )
    expect(blank.metadata.subject).toBe(`Results for Nikhil Deshpande at ${hospitalName}`)
  })

  it('refuses a template whose body is only blanks when no content is given', async () => {
    const target = await leadNamed('Ritu Bhatt')
    const templateId = await addTemplate(t.db, hospitalA, {
      channel: 'sms',
      body: '   ',
      category: 'service_implicit',
    })
    const body = expectError(
      await send({ leadId: target.id, type: 'sms', content: '', templateId }),
      400,
      'VALIDATION',
    )
    expect(body.issues).toEqual([{ path: 'content', message: 'Please enter a message.' }])
  })
})

describe('queueMessage: the DLT rule applies to MSG91 DLT templates only', () => {
  it('lets a sandbox SMS, a free-form MSG91 SMS and a non-DLT template differ from the body', async () => {
    const target = await leadNamed('Sameer Joshi')
    const dlt = await addTemplate(t.db, hospitalA, {
      channel: 'sms',
      body: 'Dear {name}, your appointment is confirmed.',
      category: 'service_implicit',
      dltTemplateId: '1107160000000000002',
    })
    const plain = await addTemplate(t.db, hospitalA, {
      channel: 'sms',
      body: 'Dear {name}, see you soon.',
      category: 'service_implicit',
    })
    const changed = 'Dear {name}, your appointment is confirmed. Bring your reports.'
    // The sandbox: no DLT.
    const sandbox = await queued(
      await send({ leadId: target.id, type: 'sms', content: changed, templateId: dlt }),
    )
    expect(sandbox.provider).toBe('sandbox')
    await setProvider(t.db, hospitalA, 'sms', 'msg91')
    try {
      const free = await queued(await send({ leadId: target.id, type: 'sms', content: 'Hi' }))
      expect(free.provider).toBe('msg91')
      await queued(
        await send({ leadId: target.id, type: 'sms', content: changed, templateId: plain }),
      )
      const refused = expectError(
        await send({ leadId: target.id, type: 'sms', content: changed, templateId: dlt }),
        400,
        'VALIDATION',
      )
      expect(refused.issues).toEqual([{ path: 'content', message: refused.message }])
    } finally {
      await setProvider(t.db, hospitalA, 'sms', 'sandbox')
    }
  })
})

describe('queueMessage: the send job', () => {
  it('gives every message its own job in its hospital, with six attempts', async () => {
    const target = await leadNamed('Pooja Menon')
    const ids = [
      (await queued(await send({ leadId: target.id, type: 'sms', content: 'One' }))).id,
      (await queued(await send({ leadId: target.id, type: 'sms', content: 'Two' }))).id,
    ]
    for (const id of ids) {
      const jobs = await queryRows<{
        hospital_id: string
        max_attempts: number
        dedupe_key: string
      }>(
        t.db,
        sql`select hospital_id::text as hospital_id, max_attempts, dedupe_key from jobs
            where name = ${SEND_JOB} and payload->>'id' = ${id}`,
      )
      expect(jobs).toEqual([
        {
          hospital_id: hospitalA,
          max_attempts: SEND_ATTEMPTS,
          dedupe_key: `${hospitalA}:${SEND_JOB}:${id}`,
        },
      ])
    }
    expect(SEND_ATTEMPTS).toBe(6)
  })
})

describe("queueMessage: the reminder job's and the booking page's inputs", () => {
  it('links a reminder to its message and keeps its id in the metadata', async () => {
    const [reminder] = await queryRows<{ id: string; patient_id: string }>(
      t.db,
      sql`select id, patient_id from reminders
          where hospital_id = ${hospitalA} and patient_id is not null limit 1`,
    )
    if (!reminder) throw new Error('no seeded reminder')
    const row = await queueInTx({
      patientId: reminder.patient_id,
      channel: 'email',
      content: 'Your appointment is tomorrow',
      reminderId: reminder.id,
    })
    expect(row.metadata).toMatchObject({ reminderId: reminder.id })
    const [linked] = await queryRows<{ communication_id: string | null }>(
      t.db,
      sql`select communication_id from reminders where id = ${reminder.id}`,
    )
    expect(linked?.communication_id).toBe(row.id)
    // A caller's subject is trimmed (the API's schema trims it before).
    const subject = await queueInTx({
      patientId: reminder.patient_id,
      channel: 'email',
      content: 'Hi',
      subject: '  Lab report  ',
    })
    expect(subject.metadata).toMatchObject({ subject: 'Lab report' })
    // No reminder: no reminderId key.
    const plain = await queueInTx({
      patientId: reminder.patient_id,
      channel: 'email',
      content: 'Hi',
    })
    expect(plain.metadata).not.toHaveProperty('reminderId')
  })

  it("sends a booking code to the hold's phone, audited on the hold, outside any window on the sandbox", async () => {
    const [doctor] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from users where hospital_id = ${hospitalA} and role = 'doctor' limit 1`,
    )
    const [service] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from services where hospital_id = ${hospitalA} limit 1`,
    )
    if (!doctor || !service) throw new Error('no seeded doctor or service')
    const phone = e164(uniqueMobile())
    const [hold] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into booking_holds (hospital_id, doctor_id, service_id, starts_at, ends_at, name,
            phone, channel, code_hash, expires_at)
          values (${hospitalA}, ${doctor.id}, ${service.id}, now() + interval '400 days',
            now() + interval '400 days 30 minutes', 'Aarav Gupta', ${phone}, 'whatsapp', 'x',
            now() + interval '10 minutes')
          returning id`,
    )
    if (!hold) throw new Error('no hold')
    const to = { name: 'Aarav Gupta', address: ` ${phone} `, bookingHoldId: hold.id }
    // No inbound WhatsApp from this phone, yet the sandbox sends the code.
    const row = await queueInTx({ channel: 'whatsapp', content: 'Your code is 123456', to })
    expect(row).toMatchObject({
      leadId: null,
      patientId: null,
      contactAddress: phone,
      provider: 'sandbox',
      bookingHoldId: hold.id,
      sendAfter: null,
    })
    expect(await auditOf(hold.id)).toEqual([
      {
        action: 'message.queued',
        entity_type: 'booking_hold',
        summary: 'Queued a WhatsApp message to Aarav Gupta',
      },
    ])
    // Through Meta, a code outside the 24-hour window is refused like any free-form text.
    await setProvider(t.db, hospitalA, 'whatsapp', 'meta')
    try {
      await expect(
        queueInTx({ channel: 'whatsapp', content: 'Your code is 123456', to }),
      ).rejects.toMatchObject({ code: 'OUTSIDE_WINDOW' })
    } finally {
      await setProvider(t.db, hospitalA, 'whatsapp', 'sandbox')
    }
    // By SMS, its address is the phone.
    const sms = await queueInTx({ channel: 'sms', content: 'Your code is 123456', to })
    expect(sms.contactAddress).toBe(phone)
  })
})
