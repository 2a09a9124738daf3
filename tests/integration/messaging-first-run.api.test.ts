import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contactState } from '../../src/shared/schemas/messaging-send'
import { login } from '../support/login'
import { metaCall } from '../support/meta'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 40 items 1, 2 and 21: WhatsApp works on the demo out of the box (the sandbox stands in
// for a provider whose templates are approved; seeded replies open the 24-hour window), the
// pending reminders' Send Now succeeds, and the spec's metadata.template names the template.

let t: TestApp
let cookie: string
let hospitalId: string
beforeAll(async () => {
  t = await createTestApp()
  cookie = await login(t.app, demoEmail('receptionist'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
})
afterAll(async () => {
  await t?.close()
})

interface Template {
  id: string
  key: string | null
  approvalStatus: string
  sandbox: boolean
}

describe('WhatsApp on a fresh demo (sandbox)', () => {
  it('lists the seeded WhatsApp templates as approved by the sandbox', async () => {
    const res = await metaCall(t.app, cookie, 'GET', '/api/message-templates?channel=whatsapp')
    expect(res.statusCode).toBe(200)
    const list = res.json<{ templates: Template[] }>().templates
    const spec = list.filter((x) => x.key)
    expect(spec.map((x) => x.key).sort()).toEqual(['appointment-reminder', 'follow-up', 'welcome'])
    for (const x of spec) expect(x).toMatchObject({ approvalStatus: 'approved', sandbox: true })
    // SMS and email templates are not WhatsApp's to approve.
    const smsRes = await metaCall(t.app, cookie, 'GET', '/api/message-templates?channel=sms')
    const sms = smsRes.json<{ templates: Template[] }>().templates
    expect(sms.every((x) => !x.sandbox && x.approvalStatus !== 'approved')).toBe(true)
  })

  it('opens the 24-hour window for a lead whose history shows a recent reply', async () => {
    const [lead] = await queryRows<{ id: string; at: string }>(
      t.db,
      sql`select c.lead_id as id, max(c.created_at)::text as at from communications c
          where c.hospital_id = ${hospitalId} and c.type = 'whatsapp' and c.direction = 'inbound'
            and c.lead_id is not null and c.created_at > now() - interval '20 hours'
          group by c.lead_id order by max(c.created_at) desc limit 1`,
    )
    expect(lead).toBeDefined()
    const res = await metaCall(
      t.app,
      cookie,
      'GET',
      `/api/messaging/contact-state?leadId=${lead?.id}`,
    )
    expect(res.statusCode).toBe(200)
    const state = contactState.parse(res.json())
    expect(state.whatsappWindowOpen).toBe(true)
    expect(state.lastInboundWhatsappAt).not.toBeNull()
    // Every lead reply in its history was stored as the webhook stores one (sender, provider).
    const [bare] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from communications where hospital_id = ${hospitalId}
          and type = 'whatsapp' and direction = 'inbound' and contact_address is null`,
    )
    expect(bare?.n).toBe(0)
  })

  it('Bulk Message with Welcome on WhatsApp reaches the seeded leads', async () => {
    const leads = await queryRows<{ id: string }>(
      t.db,
      sql`select id from leads where hospital_id = ${hospitalId} order by created_at desc limit 3`,
    )
    const [welcome] = (
      await metaCall(t.app, cookie, 'GET', '/api/message-templates?channel=whatsapp')
    )
      .json<{ templates: Template[] }>()
      .templates.filter((x) => x.key === 'welcome')
    const body = { leadIds: leads.map((l) => l.id), type: 'whatsapp', templateId: welcome?.id }
    const res = await metaCall(t.app, cookie, 'POST', '/api/leads/bulk/message/preview', body)
    expect(res.statusCode).toBe(200)
    const preview = res.json<{ total: number; recipients: number }>()
    expect(preview.total).toBe(3)
    expect(preview.recipients).toBeGreaterThan(0)
  })
})

describe('Pending Reminders → Send Now on the demo', () => {
  it('sends every reminder the card shows, or refuses with a message the toast shows', async () => {
    const list = await metaCall(t.app, cookie, 'GET', '/api/reminders?status=pending')
    expect(list.statusCode).toBe(200)
    const shown = list.json<{ data: { id: string; type: string }[] }>().data.slice(0, 5)
    expect(shown.length).toBeGreaterThan(0)
    for (const r of shown) {
      const res = await metaCall(t.app, cookie, 'POST', `/api/reminders/${r.id}/send`, {})
      // The demo could satisfy every rule: none is refused.
      expect({ id: r.id, type: r.type, status: res.statusCode, body: res.body }).toMatchObject({
        status: 202,
      })
    }
  })

  it("answers a refusal with the reason (the client's toast.failed shows it)", async () => {
    const [stored] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from reminders where hospital_id = ${hospitalId} and status = 'pending'
          order by due_at limit 1`,
    )
    const url = `/api/reminders/${stored?.id}/send`
    expect((await metaCall(t.app, cookie, 'POST', url, {})).statusCode).toBe(202)
    const res = await metaCall(t.app, cookie, 'POST', url, {})
    expect(res.statusCode).toBe(409)
    expect(res.json<{ message: string }>().message).toMatch(/\w+ \w+ \w+/)
  })
})

describe("POST /api/communications with the spec's metadata.template", () => {
  for (const channel of ['whatsapp', 'sms', 'email'] as const) {
    it(`uses the hospital's welcome template for ${channel}`, async () => {
      const [lead] = await queryRows<{ id: string }>(
        t.db,
        sql`select l.id from leads l where l.hospital_id = ${hospitalId} and l.email is not null
            and not exists (select 1 from consent_records c where c.hospital_id = l.hospital_id
              and c.contact_address in (l.phone, l.email) and c.action = 'opt_out')
            order by l.created_at limit 1`,
      )
      const res = await metaCall(t.app, cookie, 'POST', '/api/communications', {
        leadId: lead?.id,
        type: channel,
        direction: 'outbound',
        content: 'Namaste, thank you for reaching out.',
        status: 'sent',
        metadata: { template: 'welcome' },
      })
      expect(res.statusCode, res.body).toBe(201)
      const id = res.json<{ id: string }>().id
      const [row] = await queryRows<{ key: string | null; template: string }>(
        t.db,
        sql`select t.key, c.metadata->>'template' as template from communications c
            left join message_templates t on t.hospital_id = c.hospital_id and t.id = c.template_id
            where c.hospital_id = ${hospitalId} and c.id = ${id}`,
      )
      expect(row).toEqual({ key: 'welcome', template: 'welcome' })
    })
  }
})
