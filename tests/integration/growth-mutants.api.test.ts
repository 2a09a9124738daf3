import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatMoney } from '../../src/shared/money'
import type { Campaign, CampaignDetail } from '../../src/shared/schemas/campaigns'
import type { Faq, FaqList } from '../../src/shared/schemas/faqs'
import type { AdminLeadGenRequest, LeadGenRequest } from '../../src/shared/schemas/lead-generation'
import { isoDateIn } from '../support/billing'
import { campaignCall, campaignPayload, createCampaign } from '../support/campaigns'
import { expectError } from '../support/http'
import { HOST, login, ORIGIN } from '../support/login'
import { adminCall } from '../support/platform'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'
import { loginSuperAdmin } from '../support/two-factor'

// The services-growth mutation part (stryker/groups.mjs, docs/decisions/024): campaigns, FAQs
// and lead-generation requests. The exact 404 and 409 messages, the chart's date window, the
// typed stats' fallbacks and boundaries, and the audit wording each kept function writes.
// Support tickets and their attachments: growth-mutants-tickets.api.test.ts.

let t: TestApp
let admin: string
let adminB: string
let sa: string
let hospitalA: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  sa = await loginSuperAdmin(t.app)
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
}, 180_000)
afterAll(async () => {
  await t?.close()
})

const audits = (entityId: string) =>
  queryRows<{ action: string; summary: string }>(
    t.db,
    sql`select action, summary from audit_events where entity_id = ${entityId}
        order by created_at, id`,
  )

const summaries = async (entityId: string) => (await audits(entityId)).map((a) => a.summary)

describe('campaigns: another hospital’s id', () => {
  it('is "Campaign not found" on every kept path, and nothing changes', async () => {
    const c = await createCampaign(t.app, admin)
    for (const [method, url, body] of [
      ['GET', `/api/campaigns/${c.id}`, undefined],
      ['PUT', `/api/campaigns/${c.id}`, campaignPayload()],
      ['POST', `/api/campaigns/${c.id}/activate`, undefined],
      ['PATCH', `/api/campaigns/${c.id}/stats`, { leads: 3 }],
    ] as const) {
      const res = await campaignCall(t.app, adminB, method, url, body)
      expect(expectError(res, 404, 'NOT_FOUND').message, url).toBe('Campaign not found')
    }
    expect(await audits(c.id)).toHaveLength(1)
  })
})

describe('GET /api/campaigns/:id: the chart’s days', () => {
  const seriesOf = async (overrides: Record<string, unknown>) => {
    const c = await createCampaign(t.app, admin, overrides)
    const res = await campaignCall(t.app, admin, 'GET', `/api/campaigns/${c.id}`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<CampaignDetail>().series.map((d) => d.date)
  }
  const days = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => isoDateIn(from + i))

  it('ends on a past end date, else today; starts on the start date', async () => {
    expect(await seriesOf({ startDate: isoDateIn(-20), endDate: isoDateIn(-5) })).toEqual(
      days(-20, -5),
    )
    expect(await seriesOf({ startDate: isoDateIn(-3), endDate: isoDateIn(30) })).toEqual(
      days(-3, 0),
    )
  })

  it('shows only today for a campaign that starts later', async () => {
    expect(await seriesOf({ startDate: isoDateIn(5), endDate: isoDateIn(30) })).toEqual([
      isoDateIn(0),
    ])
  })

  it('shows the latest 180 days of a longer campaign', async () => {
    expect(await seriesOf({ startDate: isoDateIn(-400), endDate: null })).toEqual(days(-179, 0))
  })
})

describe('PUT /api/campaigns/:id', () => {
  it('audits the fields that changed, and none when nothing did', async () => {
    const c = await createCampaign(t.app, admin, { name: 'Monsoon Eye Check' })
    const put = (body: Record<string, unknown>) =>
      campaignCall(t.app, admin, 'PUT', `/api/campaigns/${c.id}`, campaignPayload(body))
    const same = { name: 'Monsoon Eye Check', leadCampaign: 'Monsoon Eye Check' }
    expect((await put(same)).statusCode).toBe(200)
    const res = await put({ ...same, name: 'Monsoon Eye Camp', budget: 7_000_000 })
    expect(res.json<Campaign>()).toMatchObject({
      name: 'Monsoon Eye Camp',
      leadCampaign: 'Monsoon Eye Check',
      budget: 7_000_000,
    })
    expect((await audits(c.id)).slice(1)).toEqual([
      { action: 'campaign.updated', summary: 'Updated campaign Monsoon Eye Check' },
      { action: 'campaign.updated', summary: 'Updated campaign Monsoon Eye Camp: name, budget' },
    ])
  })

  it('a PUT that leaves the lead campaign out (the name) lists it as changed only when it was', async () => {
    const c = await createCampaign(t.app, admin, { name: 'Diwali Health Check' })
    const put = (body: Record<string, unknown>) =>
      campaignCall(t.app, admin, 'PUT', `/api/campaigns/${c.id}`, campaignPayload(body))
    // campaignPayload has no leadCampaign.
    const res = await put({ name: 'Diwali Health Check' })
    expect(res.statusCode, res.body).toBe(200)
    await put({ name: 'Diwali Health Check', leadCampaign: 'Diwali leads' })
    expect((await audits(c.id)).slice(1)).toEqual([
      { action: 'campaign.updated', summary: 'Updated campaign Diwali Health Check' },
      {
        action: 'campaign.updated',
        summary: 'Updated campaign Diwali Health Check: leadCampaign',
      },
    ])
  })

  it('names the field a collision is on: the lead campaign when sent, else the name', async () => {
    await createCampaign(t.app, admin, { name: 'Pongal Dental Week' })
    const c = await createCampaign(t.app, admin)
    const put = (body: Record<string, unknown>) =>
      campaignCall(t.app, admin, 'PUT', `/api/campaigns/${c.id}`, campaignPayload(body))
    const byLeads = expectError(await put({ leadCampaign: 'Pongal Dental Week' }), 409, 'CONFLICT')
    expect(byLeads.issues).toEqual([
      {
        path: 'leadCampaign',
        message: 'Another campaign already counts leads of this campaign name',
      },
    ])
    const byName = expectError(await put({ name: 'Pongal Dental Week' }), 409, 'CONFLICT')
    expect(byName.issues).toEqual([
      { path: 'name', message: 'A campaign with this name exists already' },
    ])
  })
})

describe('POST /api/campaigns/:id/:action', () => {
  it('audits each move in words and refuses a wrong one with its exact message', async () => {
    const c = await createCampaign(t.app, admin, { name: 'Holi Skin Clinic' })
    const move = (action: string) =>
      campaignCall(t.app, admin, 'POST', `/api/campaigns/${c.id}/${action}`)
    expect(expectError(await move('resume'), 409, 'CONFLICT').message).toBe(
      'Only a paused campaign can be resumed: this one is draft',
    )
    for (const action of ['activate', 'pause', 'resume', 'complete'])
      expect((await move(action)).statusCode).toBe(200)
    expect((await summaries(c.id)).slice(1)).toEqual([
      'Campaign Holi Skin Clinic is now active',
      'Campaign Holi Skin Clinic is now paused',
      'Campaign Holi Skin Clinic is now active',
      'Campaign Holi Skin Clinic is now completed',
    ])
  })
})

describe('PATCH /api/campaigns/:id/stats', () => {
  it('keeps the other typed figure, allows conversions equal to leads, audits each note', async () => {
    const c = await createCampaign(t.app, admin, { name: 'Village Health Camp', type: 'offline' })
    const patch = (body: unknown) =>
      campaignCall(t.app, admin, 'PATCH', `/api/campaigns/${c.id}/stats`, body)
    const figures = async (body: unknown) => {
      const res = await patch(body)
      expect(res.statusCode, res.body).toBe(200)
      const { leads, conversions, spent } = res.json<Campaign>()
      return { leads, conversions, spent }
    }
    expect(await figures({ leads: 10 })).toEqual({ leads: 10, conversions: 0, spent: 0 })
    expect(await figures({ conversions: 10 })).toEqual({ leads: 10, conversions: 10, spent: 0 })
    expect(await figures({ leads: 20 })).toEqual({ leads: 20, conversions: 10, spent: 0 })
    const over = expectError(await patch({ conversions: 21 }), 400, 'VALIDATION')
    expect(over).toEqual({
      code: 'VALIDATION',
      message: 'Invalid input: conversions: Conversions cannot exceed leads',
      issues: [{ path: 'conversions', message: 'Conversions cannot exceed leads' }],
    })
    const today = isoDateIn(0)
    expect(await figures({ leads: 30, spend: { date: today, amount: 150_000 } })).toEqual({
      leads: 30,
      conversions: 10,
      spent: 150_000,
    })
    expect(await figures({ spend: { date: isoDateIn(-1), amount: 5_000 } })).toEqual({
      leads: 30,
      conversions: 10,
      spent: 155_000,
    })
    expect((await audits(c.id)).slice(1)).toEqual(
      [
        '10 leads, 0 conversions',
        '10 leads, 10 conversions',
        '20 leads, 10 conversions',
        `30 leads, 10 conversions; spend ${formatMoney(150_000)} on ${today}`,
        `spend ${formatMoney(5_000)} on ${isoDateIn(-1)}`,
      ].map((note) => ({
        action: 'campaign.stats_recorded',
        summary: `Recorded for Village Health Camp: ${note}`,
      })),
    )
  })

  it('takes spend from the start day through today, with exact messages outside it', async () => {
    const c = await createCampaign(t.app, admin, { startDate: isoDateIn(-3), endDate: null })
    const patch = (date: string) =>
      campaignCall(t.app, admin, 'PATCH', `/api/campaigns/${c.id}/stats`, {
        spend: { date, amount: 1_000 },
      })
    expect((await patch(isoDateIn(-3))).statusCode).toBe(200)
    expect((await patch(isoDateIn(0))).statusCode).toBe(200)
    for (const [date, message] of [
      [isoDateIn(1), 'Spend cannot be recorded for a future day'],
      [isoDateIn(-4), 'Spend cannot be recorded before the campaign starts'],
    ] as const) {
      expect(expectError(await patch(date), 400, 'VALIDATION')).toEqual({
        code: 'VALIDATION',
        message: `Invalid input: spend.date: ${message}`,
        issues: [{ path: 'spend.date', message }],
      })
    }
    expect(
      (await campaignCall(t.app, admin, 'GET', `/api/campaigns/${c.id}`)).json(),
    ).toMatchObject({ campaign: { spent: 2_000 } })
  })
})

/** FAQ writes as the browser sends them (campaignCall has no DELETE). */
const faqCall = (method: 'PUT' | 'DELETE' | 'POST', url: string, cookie: string, body?: unknown) =>
  method === 'DELETE'
    ? t.app.inject({ method, url, headers: { host: HOST, origin: ORIGIN, cookie } })
    : campaignCall(t.app, cookie, method, url, body)

describe('FAQs', () => {
  it('updates only the sent fields, deletes, and audits both in words', async () => {
    const res = await faqCall('POST', '/api/faqs', admin, {
      question: 'Is parking free?',
      answer: 'Yes, for two hours.',
      category: 'general',
    })
    const faq = res.json<Faq>()
    const put = await faqCall('PUT', `/api/faqs/${faq.id}`, admin, { question: 'Is parking paid?' })
    expect(put.statusCode, put.body).toBe(200)
    expect(put.json<Faq>()).toMatchObject({
      question: 'Is parking paid?',
      answer: 'Yes, for two hours.',
      category: 'general',
    })
    expect((await faqCall('DELETE', `/api/faqs/${faq.id}`, admin)).statusCode).toBe(204)
    expect(await audits(faq.id)).toEqual([
      { action: 'faq.created', summary: 'FAQ "Is parking free?" created' },
      { action: 'faq.updated', summary: 'FAQ "Is parking paid?" updated' },
      { action: 'faq.deleted', summary: 'FAQ "Is parking paid?" deleted' },
    ])
    const [row] = await queryRows(t.db, sql`select id from faqs where id = ${faq.id}`)
    expect(row).toBeUndefined()
  })

  it('answers "FAQ not found" for another hospital’s FAQ, which stays', async () => {
    const [first] = await queryRows<{ id: string; question: string }>(
      t.db,
      sql`select id, question from faqs where hospital_id = ${hospitalA} order by sort_order limit 1`,
    )
    for (const res of [
      await faqCall('PUT', `/api/faqs/${first!.id}`, adminB, { question: 'Mine now' }),
      await faqCall('DELETE', `/api/faqs/${first!.id}`, adminB),
    ])
      expect(expectError(res, 404, 'NOT_FOUND').message).toBe('FAQ not found')
    const [after] = await queryRows(t.db, sql`select question from faqs where id = ${first!.id}`)
    expect(after).toEqual({ question: first!.question })
  })

  it('reorders with the public path, audited once with the count', async () => {
    const ids = (
      await queryRows<{ id: string }>(
        t.db,
        sql`select id from faqs where hospital_id = ${hospitalA} order by sort_order, created_at, id`,
      )
    ).map((r) => r.id)
    const reversed = [...ids].reverse()
    const res = await faqCall('PUT', '/api/faqs/order', admin, { ids: reversed })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json<FaqList>()
    const [{ slug } = { slug: '' }] = await queryRows<{ slug: string }>(
      t.db,
      sql`select slug from hospitals where id = ${hospitalA}`,
    )
    expect({ ...body, faqs: body.faqs.map((f) => [f.id, f.sortOrder]) }).toEqual({
      faqs: reversed.map((id, i) => [id, i]),
      total: ids.length,
      publicPath: `/h/${slug}/faq`,
    })
    const rows = await queryRows(
      t.db,
      sql`select entity_id, summary from audit_events
          where hospital_id = ${hospitalA} and action = 'faq.reordered'`,
    )
    expect(rows).toEqual([{ entity_id: null, summary: `FAQs reordered (${ids.length})` }])
  })
})

describe('POST /api/admin/lead-generation-requests/:id/status', () => {
  const move = (id: string, body: unknown) =>
    adminCall(t.app, sa, 'POST', `/api/admin/lead-generation-requests/${id}/status`, body)

  it('answers unknown ids and refused moves with their exact messages', async () => {
    const unknown = await move('00000000-0000-4000-8000-000000000000', { status: 'approved' })
    expect(expectError(unknown, 404, 'NOT_FOUND').message).toBe('Lead-generation request not found')
    const res = await adminCall(t.app, admin, 'POST', '/api/marketing-campaigns', {
      dailyBudget: 100_000,
    })
    const r = res.json<LeadGenRequest>()
    expect(expectError(await move(r.id, { status: 'active' }), 409, 'CONFLICT').message).toBe(
      'A requested request cannot become active',
    )
  })

  it('audits on both sides in words and emails each admin the exact text', async () => {
    const res = await adminCall(t.app, admin, 'POST', '/api/marketing-campaigns', {
      dailyBudget: 250_000,
    })
    const r = res.json<LeadGenRequest>()
    const [hospital] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from hospitals where id = ${hospitalA}`,
    )
    const name = hospital!.name
    const admins = await queryRows<{ email: string; name: string }>(
      t.db,
      sql`select email, name from users where hospital_id = ${hospitalA} and role = 'admin'
          and is_active and not banned and not is_super_admin order by email`,
    )
    expect(admins.length).toBeGreaterThan(0)

    const approved = await move(r.id, { status: 'approved', note: 'Budget confirmed' })
    expect(approved.statusCode, approved.body).toBe(200)
    expect(approved.json<AdminLeadGenRequest & { emailStatus: string[] }>()).toMatchObject({
      id: r.id,
      campaignStatus: 'approved',
      statusNote: 'Budget confirmed',
      hospitalId: hospitalA,
      hospitalName: name,
      emailStatus: admins.map(() => 'sandbox'),
    })
    expect((await move(r.id, { status: 'active', note: null })).statusCode).toBe(200)

    const summary = (from: string, to: string, note: string) =>
      `${name}: lead-generation request (₹2,500 a day) moved from ${from} to ${to}${note}`
    const expected = [
      summary('requested', 'approved', ' – Budget confirmed'),
      summary('approved', 'active', ''),
    ]
    expect(
      await queryRows(
        t.db,
        sql`select hospital_id, action, entity_type, summary from platform_audit_events
            where entity_id = ${r.id} order by created_at, id`,
      ),
    ).toEqual(
      expected.map((s) => ({
        hospital_id: hospitalA,
        action: 'lead_generation.status_changed',
        entity_type: 'lead_generation_request',
        summary: s,
      })),
    )
    expect(await summaries(r.id)).toEqual([expect.any(String), ...expected])

    const mails = await queryRows<{ to_address: string; subject: string; text_body: string }>(
      t.db,
      sql`select to_address, subject, text_body from email_outbox
          where purpose = 'lead-generation-status' and text_body like ${`%${name} (daily budget ₹2,500)%`}
          order by subject desc, to_address`,
    )
    const body = (admin: { name: string }, label: string, note: string[]) =>
      [
        `Hello ${admin.name},`,
        '',
        `The lead-generation campaign request of ${name} (daily budget ₹2,500) is now: ${label}.`,
        ...note,
        '',
        'You can see your requests on the Lead Generation page.',
        '',
        '— The Arogya team',
      ].join('\n')
    expect(mails).toEqual([
      ...admins.map((a) => ({
        to_address: a.email,
        subject: 'Your lead-generation campaign request is now approved',
        text_body: body(a, 'Approved', ['', 'Note from the Arogya team: Budget confirmed']),
      })),
      ...admins.map((a) => ({
        to_address: a.email,
        subject: 'Your lead-generation campaign request is now active',
        text_body: body(a, 'Active', []),
      })),
    ])
  })
})
