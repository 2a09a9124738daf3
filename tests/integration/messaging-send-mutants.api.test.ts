import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import { createMessagingHub, type HubEvent } from '../../src/server/modules/messaging-events/hub'
import { queueMessage } from '../../src/server/modules/messaging/send.service'
import { EMPTY_MESSAGE } from '../../src/shared/schemas/messaging-send'
import { communication, type Lead } from '../../src/shared/schemas/leads'
import { expectError } from '../support/http'
import { call, newLead, uniqueMobile } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import { addTemplate, setProvider, storedMessage } from '../support/messaging-send'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-messaging mutation part (stryker/groups.mjs, docs/decisions/024): what one send
// (send.service.ts's queueMessage) tells the screens, stores and audits beyond the rules that
// messaging-send.api checks, and a batch's 404 and counts (batches.service.ts).

let t: TestApp
let admin: string
let receptionist: string
let h: string
let adminId: string
const events: HubEvent[] = []
let closeHub: (() => Promise<void>) | undefined

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  h = await hospitalIdOf(t.db, 'sanjeevani')
  adminId = await userIdOf(t.db, demoEmail('admin'))
  const hub = await createMessagingHub({
    database: t.database,
    directUrl: t.directUrl,
    log: { warn: () => {}, info: () => {} },
  })
  hub.subscribe(h, (e) => events.push(e))
  closeHub = hub.close
})
afterAll(async () => {
  await closeHub?.()
  await t?.close()
})

const send = (body: Record<string, unknown>, cookie = receptionist) =>
  call(t.app, cookie, 'POST', '/api/communications', {
    direction: 'outbound',
    status: 'sent',
    ...body,
  })

function lead(overrides: Record<string, unknown> = {}): Promise<Lead> {
  return newLead(t.app, admin, { phone: uniqueMobile(66_000), ...overrides })
}

/** queueMessage in hospital A's tenant transaction, as the admin. */
const queue = (input: Partial<Parameters<typeof queueMessage>[1]>) =>
  withTenant(t.db, { hospitalId: h, userId: adminId }, (tx) =>
    queueMessage(tx, { hospitalId: h, userId: adminId, channel: 'sms', content: '', ...input }),
  )

async function waitFor<T>(find: () => T | undefined, ms = 5_000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (Date.now() > until)
      throw new Error(`nothing arrived in ${ms} ms: ${JSON.stringify(events)}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('queueMessage', () => {
  it("tells the hospital's screens of the queued message, and marks a new lead contacted", async () => {
    const target = await lead()
    const res = await send({ leadId: target.id, type: 'sms', content: 'Your reports are ready' })
    expect(res.statusCode, res.body).toBe(201)
    const sent = communication.parse(res.json())
    const event = await waitFor(() =>
      events.find((e) => e.type === 'communication' && e.data.id === sent.id),
    )
    expect(event).toEqual({
      type: 'communication',
      data: expect.objectContaining({
        id: sent.id,
        leadId: target.id,
        patientId: null,
        status: 'queued',
        direction: 'outbound',
      }),
    })
    const [row] = await queryRows<{ status: string }>(
      t.db,
      sql`select status from leads where id = ${target.id}`,
    )
    expect(row?.status).toBe('contacted')
  })

  it('stores a message on a real provider as not sandboxed', async () => {
    const target = await lead()
    await setProvider(t.db, h, 'sms', 'msg91')
    try {
      const res = await send({ leadId: target.id, type: 'sms', content: 'Hello' })
      expect(res.statusCode, res.body).toBe(201)
      const row = await storedMessage(t.db, communication.parse(res.json()).id)
      expect(row).toMatchObject({ provider: 'msg91', sandbox: false })
    } finally {
      await setProvider(t.db, h, 'sms', 'sandbox')
    }
  })

  it('keeps the batch it is part of', async () => {
    const target = await lead()
    const [batch] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into message_batches (hospital_id, channel, content, requested, queued)
          values (${h}, 'sms', 'Hello', 1, 1) returning id`,
    )
    const row = await queue({ leadId: target.id, content: 'Hello', batchId: batch!.id })
    expect(row.batchId).toBe(batch!.id)
    expect((await storedMessage(t.db, row.id))?.batch_id).toBe(batch!.id)
  })

  it("blank content takes the template's body; no content and no template is an empty message", async () => {
    const target = await lead({ name: 'Sunita Joshi' })
    const template = await addTemplate(t.db, h, {
      channel: 'sms',
      body: 'Dear {name}, your test is tomorrow.',
      category: 'transactional',
    })
    const row = await queue({ leadId: target.id, content: '   ', templateId: template })
    expect(row.content).toBe('Dear Sunita Joshi, your test is tomorrow.')
    await expect(queue({ leadId: target.id, content: '' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: EMPTY_MESSAGE,
      issues: [{ path: 'content', message: EMPTY_MESSAGE }],
    })
  })

  it('checks DLT for SMS only: an e-mail template with a DLT id is not checked', async () => {
    const target = await lead({ email: 'dlt.check@example.com' })
    const email = await addTemplate(t.db, h, {
      channel: 'email',
      body: 'Dear {name}, see you soon.',
      category: 'transactional',
      dltTemplateId: '1107160000000000009',
    })
    await setProvider(t.db, h, 'sms', 'msg91')
    try {
      const res = await send({
        leadId: target.id,
        type: 'email',
        content: 'Something else entirely',
        templateId: email,
      })
      expect(res.statusCode, res.body).toBe(201)
      const bulk = await call(t.app, receptionist, 'POST', '/api/leads/bulk/message', {
        leadIds: [target.id],
        type: 'email',
        content: 'Something else entirely',
        templateId: email,
      })
      expect(bulk.statusCode, bulk.body).toBe(202)
    } finally {
      await setProvider(t.db, h, 'sms', 'sandbox')
    }
  })

  it('audits a message held for quiet hours as held', async () => {
    const nowIst = new Date(Date.now() + 330 * 60_000)
    const minutes = nowIst.getUTCHours() * 60 + nowIst.getUTCMinutes()
    const hhmm = (m: number) =>
      `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
    await t.db.execute(sql`
      insert into notification_settings (hospital_id, quiet_hours_start, quiet_hours_end)
      values (${h}, ${hhmm(minutes + 120)}, ${hhmm(minutes + 180)})
      on conflict (hospital_id) do update set quiet_hours_start = excluded.quiet_hours_start,
        quiet_hours_end = excluded.quiet_hours_end`)
    try {
      const target = await lead({ name: 'Deepak Menon' })
      const promo = await addTemplate(t.db, h, {
        channel: 'sms',
        body: 'Free check-up camp, {name}',
        category: 'promotional',
      })
      const res = await send({ leadId: target.id, type: 'sms', content: '', templateId: promo })
      expect(res.statusCode, res.body).toBe(201)
      const [audit] = await queryRows<{ summary: string }>(
        t.db,
        sql`select summary from audit_events where action = 'message.queued' and entity_id = ${target.id}`,
      )
      expect(audit?.summary).toBe('Queued an SMS message to Deepak Menon (held for quiet hours)')
    } finally {
      await t.db.execute(sql`delete from notification_settings where hospital_id = ${h}`)
    }
  })
})

describe('GET /api/message-batches/:id', () => {
  const getBatch = (id: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/message-batches/${id}`,
      headers: browserHeaders(admin),
    })

  it('names an unknown batch in its 404', async () => {
    const res = await getBatch('00000000-0000-4000-8000-000000000000')
    expect(expectError(res, 404, 'NOT_FOUND').message).toBe('Message batch not found')
  })

  it('counts only the six send statuses', async () => {
    const target = await lead()
    const [batch] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into message_batches (hospital_id, channel, content, requested, queued)
          values (${h}, 'sms', 'Hello', 2, 2) returning id`,
    )
    await t.db.execute(sql`
      insert into communications (hospital_id, lead_id, type, direction, content, status, batch_id)
      values (${h}, ${target.id}, 'sms', 'outbound', 'Hello', 'logged', ${batch!.id}),
             (${h}, ${target.id}, 'sms', 'outbound', 'Hello', 'sent', ${batch!.id})`)
    const res = await getBatch(batch!.id)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ counts: Record<string, number> }>().counts).toEqual({
      queued: 0,
      sending: 0,
      sent: 1,
      delivered: 0,
      read: 0,
      failed: 0,
    })
  })
})
