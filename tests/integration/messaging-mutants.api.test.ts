import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { communications } from '../../src/server/db/schema/leads'
import { messageBatches } from '../../src/server/db/schema/messaging'
import { withTenant } from '../../src/server/db/tenant'
import type { MessageBatch } from '../../src/shared/schemas/messaging-send'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
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

beforeAll(async () => {
  t = await createTestApp()
  viewer = await login(t.app, demoEmail('viewer'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  adminA = await userIdOf(t.db, demoEmail('admin'))
  const [p] = await queryRows<{ id: string }>(
    t.db,
    sql`select id::text as id from patients where hospital_id = ${hospitalA} limit 1`,
  )
  if (!p) throw new Error('no seeded patient')
  patientA = p.id
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
