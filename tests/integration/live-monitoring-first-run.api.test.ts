import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import { recordMessageSent } from '../../src/server/modules/live-monitoring/message-sent'
import { overviewResponse } from '../../src/shared/schemas/live-monitoring'
import { call } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'
import { sql } from 'drizzle-orm'

// Issue 40, item 14: Live Monitoring's "Messages Sent" counts WhatsApp messages too.

let t: TestApp
let admin: string
let hospital: string
let receptionistId: string
beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  hospital = await hospitalIdOf(t.db, 'sanjeevani')
  receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
})
afterAll(async () => {
  await t?.close()
})

const messagesSent = async () =>
  overviewResponse.parse((await call(t.app, admin, 'GET', '/api/live-monitoring/overview')).json())
    .messagesSent

describe('Messages Sent', () => {
  it('counts a WhatsApp message a staff member sent, as it counts SMS and email', async () => {
    const before = await messagesSent()
    for (const type of ['whatsapp', 'sms'] as const) {
      const id = randomUUID()
      await withTenant(t.db, { hospitalId: hospital, userId: receptionistId }, (tx) =>
        recordMessageSent(
          tx,
          {
            id,
            hospitalId: hospital,
            type,
            createdByUserId: receptionistId,
            leadId: null,
            patientId: null,
          },
          'sent',
        ),
      )
    }
    expect(await messagesSent()).toBe(before + 2)
    const rows = await queryRows<{ activity_type: string }>(
      t.db,
      sql`select activity_type from activities where hospital_id = ${hospital}
          and activity_type = 'whatsapp_sent'`,
    )
    expect(rows.length).toBeGreaterThanOrEqual(1)
  })
})
