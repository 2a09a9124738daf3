import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { remindersPage, sandboxOutbox } from '../../src/shared/schemas/messaging-reminders'
import { seedDemo } from '../../src/server/db/seed/demo'
import { login } from '../support/login'
import { metaCall } from '../support/meta'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  TEST_PASSWORD,
  type TestApp,
} from '../support/test-app'

// Issue 25: the demo's messaging, per demo hospital (src/server/db/seed/messaging.ts).

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const counts = (hospitalId: string) =>
  queryRows<Record<string, number>>(
    t.db,
    sql`select
      (select count(*) from message_templates where hospital_id = ${hospitalId})::int as templates,
      (select count(*) from notification_settings where hospital_id = ${hospitalId})::int as settings,
      (select count(*) from consent_records where hospital_id = ${hospitalId})::int as consents,
      (select count(*) from reminders where hospital_id = ${hospitalId} and appointment_id is null)::int as reminders,
      (select count(*) from communications where hospital_id = ${hospitalId} and provider is not null)::int as messages`,
  )

describe('messaging demo seed', () => {
  for (const hospital of ['sanjeevani', 'smiledental'] as const) {
    it(`gives ${hospital} templates, settings, consents, reminders and messages of every outcome`, async () => {
      const id = await hospitalIdOf(t.db, hospital)
      const [c] = await counts(id)
      // Payment reminders by email (appointment ones come with the appointments demo).
      expect(c).toMatchObject({ templates: 9, settings: 1, reminders: 2 })
      expect(c?.consents).toBeGreaterThanOrEqual(4)
      const messages = await queryRows<{
        direction: string
        status: string
        failure_reason: string | null
        sandbox: boolean
        read_at: string | null
        type: string
        provider_message_id: string | null
      }>(
        t.db,
        sql`select direction, status, failure_reason, sandbox, read_at, type, provider_message_id
            from communications where hospital_id = ${id} and provider is not null`,
      )
      const out = messages.filter((m) => m.direction === 'outbound')
      expect(new Set(out.map((m) => m.status))).toEqual(
        new Set(['sent', 'delivered', 'read', 'failed']),
      )
      expect(new Set(out.map((m) => m.type))).toEqual(new Set(['whatsapp', 'sms', 'email']))
      for (const m of out.filter((x) => x.status === 'failed'))
        expect(m.failure_reason).toMatch(/\w+ \w+/)
      expect(messages.every((m) => m.sandbox)).toBe(true)
      const inbound = messages.filter((m) => m.direction === 'inbound')
      expect(inbound.every((m) => m.type === 'whatsapp' && m.status === 'received')).toBe(true)
      // The messaging demo's own replies (beside the lead histories' ones): two unread.
      const own = inbound.filter((m) => m.provider_message_id?.startsWith('sbx_demo_in_'))
      expect(own.filter((m) => m.read_at === null)).toHaveLength(2)
      const [optOut] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from consent_records where hospital_id = ${id} and action = 'opt_out'`,
      )
      expect(optOut?.n).toBeGreaterThan(0)
    })
  }

  it('shows in the reminders card and the Sandbox Outbox', async () => {
    const cookie = await login(t.app, demoEmail('receptionist'))
    const page = remindersPage.parse(
      (await metaCall(t.app, cookie, 'GET', '/api/reminders?limit=100')).json(),
    )
    // The messaging demo's own payment reminders, beside the appointments demo's reminders for visits ahead.
    const listed = page.data.filter((r) => r.type === 'appointment' || r.type === 'payment')
    expect(listed.length).toBeGreaterThanOrEqual(4)
    expect(listed.filter((r) => r.type === 'payment').length).toBeGreaterThan(0)
    const outbox = sandboxOutbox.parse(
      (await metaCall(t.app, cookie, 'GET', '/api/sandbox-outbox')).json(),
    )
    expect(outbox.messages.length).toBeGreaterThanOrEqual(8)
  })

  it('is idempotent: a second run adds nothing', async () => {
    const id = await hospitalIdOf(t.db, 'sanjeevani')
    const before = await counts(id)
    expect(await seedDemo(t.db, t.auth, TEST_PASSWORD)).toBe(false)
    // Even with the rest of the demo incomplete, the messaging demo is not added twice.
    await queryRows(t.db, sql`delete from lead_settings where hospital_id = ${id}`)
    expect(await seedDemo(t.db, t.auth, TEST_PASSWORD)).toBe(true)
    expect(await counts(id)).toEqual(before)
  })
})
