import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInvoice, invoicePayload, isoDateIn } from '../support/billing'
import {
  campaignCall,
  campaignPayload,
  createCampaign,
  detailOf,
  listOf,
} from '../support/campaigns'
import { expectError, issuePaths } from '../support/http'
import { auditActions, call, newLead } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  queryRows,
  type TestApp,
} from '../support/test-app'

let t: TestApp
const cookies: Record<string, string> = {}
const roles: DemoRole[] = ['admin', 'doctor', 'nurse', 'receptionist', 'viewer']

beforeAll(async () => {
  t = await createTestApp()
  for (const role of roles) cookies[role] = await login(t.app, demoEmail(role))
  cookies.smileAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
})

async function leadsWithCampaign(name: string, formId: string | null): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from leads l join hospitals h on h.id = l.hospital_id
        where h.email = 'contact@sanjeevani.demo'
          and (l.campaign = ${name} or (${formId}::text is not null and l.meta_form_id = ${formId}))`,
  )
  return row?.n ?? -1
}

describe('the demo seed', () => {
  it('has campaigns in every status, counting the real seeded leads', async () => {
    const list = await listOf(t.app, cookies.admin!)
    const statuses = new Set(list.campaigns.map((c) => c.status))
    expect([...statuses].sort()).toEqual(['active', 'completed', 'draft', 'paused'])
    const linked = list.campaigns.filter((c) => c.countedFromLeads)
    expect(linked.length).toBeGreaterThanOrEqual(3)
    for (const c of linked)
      expect(c.leads).toBe(await leadsWithCampaign(c.leadCampaign, c.metaFormId))
    const s = list.summary
    expect(s.totalCampaigns).toBe(list.campaigns.length)
    expect(s.activeCampaigns).toBe(list.campaigns.filter((c) => c.status === 'active').length)
    expect(s.totalLeads).toBe(list.campaigns.reduce((n, c) => n + c.leads, 0))
    expect(s.totalBudget).toBe(list.campaigns.reduce((n, c) => n + c.budget, 0))
    expect(s.avgCostPerLead).toBe(Math.round(s.totalSpent / s.totalLeads))
  })

  it('filters by status and keeps the summary over all campaigns', async () => {
    const all = await listOf(t.app, cookies.viewer!)
    const paused = await listOf(t.app, cookies.viewer!, '?status=paused')
    expect(paused.campaigns.every((c) => c.status === 'paused')).toBe(true)
    expect(paused.campaigns.length).toBeGreaterThan(0)
    expect(paused.summary).toEqual(all.summary)
    expectError(await campaignCall(t.app, cookies.admin, 'GET', '/api/campaigns?status=x'), 400)
  })
})

describe('leads and conversions are counted from real leads', () => {
  it('a lead added later shows up; a converted lead with a paid invoice is a conversion with revenue', async () => {
    const c = await createCampaign(t.app, cookies.admin!, { leadCampaign: 'Navratri Eye Camp' })
    expect(c).toMatchObject({ status: 'draft', leads: 0, conversions: 0, countedFromLeads: false })
    const lead = await newLead(t.app, cookies.receptionist!, { campaign: 'Navratri Eye Camp' })
    await newLead(t.app, cookies.receptionist!, { campaign: 'Someone else' })
    let [found] = (await listOf(t.app, cookies.admin!)).campaigns.filter((x) => x.id === c.id)
    expect(found).toMatchObject({ leads: 1, conversions: 0, countedFromLeads: true, revenue: 0 })

    const converted = await call(
      t.app,
      cookies.receptionist,
      'POST',
      `/api/leads/${lead.id}/convert`,
    )
    expect(converted.statusCode, converted.body).toBe(201)
    const patientId = converted.json<{ patient: { id: string } }>().patient.id
    const inv = await createInvoice(t.app, cookies.admin!, invoicePayload(patientId))
    const paid = await campaignCall(
      t.app,
      cookies.admin,
      'PATCH',
      `/api/invoices/${inv.id}/status`,
      {
        status: 'paid',
        method: 'upi',
      },
    )
    expect(paid.statusCode, paid.body).toBe(200)
    ;[found] = (await listOf(t.app, cookies.admin!)).campaigns.filter((x) => x.id === c.id)
    expect(found).toMatchObject({ leads: 1, conversions: 1, conversionRate: 100 })
    expect(found?.revenue).toBe(inv.amount)

    const detail = await detailOf(t.app, cookies.doctor!, c.id)
    expect(detail.series.reduce((n, d) => n + d.leads, 0)).toBe(1)
    expect(detail.series.at(-1)?.date).toBe(isoDateIn(0))
  })

  it("a lead of the campaign's Meta form counts once even when it also carries the name", async () => {
    const c = await createCampaign(t.app, cookies.admin!, {
      leadCampaign: 'Cataract Awareness – Dec',
      metaFormId: '918273645500011',
    })
    await newLead(t.app, cookies.admin!, { campaign: 'Cataract Awareness – Dec' })
    const byForm = await newLead(t.app, cookies.admin!, { campaign: 'Different ad name' })
    await queryRows(
      t.db,
      sql`update leads set meta_form_id = '918273645500011' where id = ${byForm.id}`,
    )
    const both = await newLead(t.app, cookies.admin!, { campaign: 'Cataract Awareness – Dec' })
    await queryRows(
      t.db,
      sql`update leads set meta_form_id = '918273645500011' where id = ${both.id}`,
    )
    const found = (await listOf(t.app, cookies.admin!)).campaigns.find((x) => x.id === c.id)
    expect(found?.leads).toBe(3)
  })
})

describe('status moves (spec §4)', () => {
  it('draft → active ⇄ paused → completed, anything else a 409, each audited', async () => {
    const c = await createCampaign(t.app, cookies.admin!)
    const move = (action: string) =>
      campaignCall(t.app, cookies.admin, 'POST', `/api/campaigns/${c.id}/${action}`)
    expect(expectError(await move('pause'), 409, 'CONFLICT').message).toMatch(
      /Only an active campaign can be paused: this one is draft/,
    )
    expectError(await move('resume'), 409)
    expectError(await move('complete'), 409)
    expect((await move('activate')).json()).toMatchObject({ status: 'active' })
    expectError(await move('activate'), 409)
    expect((await move('pause')).json()).toMatchObject({ status: 'paused' })
    expect((await move('resume')).json()).toMatchObject({ status: 'active' })
    expect((await move('pause')).json()).toMatchObject({ status: 'paused' })
    expect((await move('complete')).json()).toMatchObject({ status: 'completed' })
    for (const a of ['activate', 'pause', 'resume', 'complete']) expectError(await move(a), 409)
    expect(issuePaths(await move('explode'))).toEqual(['action'])
    expect(await auditActions(t.db, c.id)).toEqual([
      'campaign.created',
      'campaign.activated',
      'campaign.paused',
      'campaign.resumed',
      'campaign.paused',
      'campaign.completed',
    ])
  })
})

describe('PATCH /api/campaigns/:id/stats', () => {
  it('records a day of spend; the spent total and the chart follow', async () => {
    const c = await createCampaign(t.app, cookies.admin!, {
      startDate: isoDateIn(-10),
      endDate: null,
    })
    const patch = (body: unknown) =>
      campaignCall(t.app, cookies.admin, 'PATCH', `/api/campaigns/${c.id}/stats`, body)
    let res = await patch({ spend: { date: isoDateIn(-2), amount: 250_000 } })
    expect(res.statusCode, res.body).toBe(200)
    expect((await patch({ spend: { date: isoDateIn(-1), amount: 100_000 } })).json()).toMatchObject(
      { spent: 350_000 },
    )
    res = await patch({ spend: { date: isoDateIn(-2), amount: 300_000 } })
    expect(res.json()).toMatchObject({ spent: 400_000 })
    const { series } = await detailOf(t.app, cookies.admin!, c.id)
    expect(series.find((d) => d.date === isoDateIn(-2))?.spend).toBe(300_000)
    expect(series[0]?.date).toBe(isoDateIn(-10))
    expect(issuePaths(await patch({ spend: { date: isoDateIn(2), amount: 1 } }))).toEqual([
      'spend.date',
    ])
    expect(issuePaths(await patch({ spend: { date: isoDateIn(-11), amount: 1 } }))).toEqual([
      'spend.date',
    ])
    expect(issuePaths(await patch({ spend: { date: isoDateIn(-1), amount: -5 } }))).toEqual([
      'spend.amount',
    ])
    expectError(await patch({}), 400)
    expect(issuePaths(await patch({ spent: 5 }))).toEqual([''])
    expect(await auditActions(t.db, c.id)).toEqual([
      'campaign.created',
      'campaign.stats_recorded',
      'campaign.stats_recorded',
      'campaign.stats_recorded',
    ])
  })

  it('typed leads and conversions only while no lead is linked', async () => {
    const offline = await createCampaign(t.app, cookies.admin!, { type: 'offline' })
    const patch = (id: string, body: unknown) =>
      campaignCall(t.app, cookies.admin, 'PATCH', `/api/campaigns/${id}/stats`, body)
    const res = await patch(offline.id, { leads: 40, conversions: 6 })
    expect(res.json()).toMatchObject({
      leads: 40,
      conversions: 6,
      conversionRate: 15,
      countedFromLeads: false,
    })
    expect(issuePaths(await patch(offline.id, { conversions: 41 }))).toEqual(['conversions'])
    expect(issuePaths(await patch(offline.id, { leads: 2, conversions: 3 }))).toEqual([
      'conversions',
    ])

    const linked = (await listOf(t.app, cookies.admin!)).campaigns.find((c) => c.countedFromLeads)
    expect(expectError(await patch(linked!.id, { leads: 5 }), 409).message).toMatch(
      /counted from the \d+ leads linked/,
    )
  })
})

describe('creating and editing', () => {
  it('PUT replaces the fields; names are unique per hospital', async () => {
    const c = await createCampaign(t.app, cookies.admin!)
    const body = campaignPayload({
      name: 'Winter Knee Pain Clinic',
      type: 'facebook',
      budget: 12_345_600,
    })
    const res = await campaignCall(t.app, cookies.admin, 'PUT', `/api/campaigns/${c.id}`, body)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      name: 'Winter Knee Pain Clinic',
      leadCampaign: 'Winter Knee Pain Clinic',
      type: 'facebook',
      budget: 12_345_600,
      status: 'draft',
    })
    const dup = await campaignCall(
      t.app,
      cookies.admin,
      'POST',
      '/api/campaigns',
      campaignPayload({ name: 'Winter Knee Pain Clinic' }),
    )
    expect(expectError(dup, 409).issues?.[0]?.path).toBe('name')
    const sameLeads = await campaignCall(
      t.app,
      cookies.admin,
      'POST',
      '/api/campaigns',
      campaignPayload({ leadCampaign: 'Winter Knee Pain Clinic' }),
    )
    expect(expectError(sameLeads, 409).issues?.[0]?.path).toBe('leadCampaign')
    // The same name in another hospital is fine.
    await createCampaign(t.app, cookies.smileAdmin!, { name: 'Winter Knee Pain Clinic' })
    expect(await auditActions(t.db, c.id)).toEqual(['campaign.created', 'campaign.updated'])
  })

  it('refuses bad input with field issues', async () => {
    const post = (o: Record<string, unknown>) =>
      campaignCall(t.app, cookies.admin, 'POST', '/api/campaigns', campaignPayload(o))
    expect(issuePaths(await post({ name: '' }))).toEqual(['name'])
    expect(issuePaths(await post({ type: 'tv' }))).toEqual(['type'])
    expect(issuePaths(await post({ budget: -1 }))).toEqual(['budget'])
    expect(issuePaths(await post({ budget: 12.5 }))).toEqual(['budget'])
    expect(issuePaths(await post({ endDate: '2026-09-30' }))).toEqual(['endDate'])
    expect(issuePaths(await post({ startDate: '2026-02-30' }))).toEqual(['startDate'])
    expect(issuePaths(await post({ status: 'completed' }))).toEqual(['status'])
    expect(issuePaths(await post({ leads: 10 }))).toEqual([''])
    const audience = async (a: unknown) => issuePaths(await post({ targetAudience: a }))
    expect((await audience({ age: { min: 25 } }))[0]).toMatch(/^targetAudience/)
    expect((await audience({ age: 25 }))[0]).toMatch(/^targetAudience/)
    expect((await audience({ ['k'.repeat(41)]: 'x' }))[0]).toMatch(/^targetAudience/)
    expect((await audience({ city: 'x'.repeat(101) }))[0]).toMatch(/^targetAudience/)
    expect((await audience({ city: ['Pune', 7] }))[0]).toMatch(/^targetAudience/)
    expect((await audience(['Pune']))[0]).toMatch(/^targetAudience/)
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']))
    expect(await audience(many)).toEqual(['targetAudience'])
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from campaigns where name like 'Diwali Dental Offer %' and target_audience::text like '%min%'`,
    )
    expect(row?.n).toBe(0)
  })

  it('never answers 5xx to hostile bodies', async () => {
    const c = await createCampaign(t.app, cookies.admin!)
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            name: fc.oneof(fc.string(), fc.anything()),
            type: fc.oneof(fc.constant('sms'), fc.anything()),
            budget: fc.oneof(fc.integer(), fc.double(), fc.anything()),
            startDate: fc.oneof(fc.constant('2026-01-01'), fc.string()),
            targetAudience: fc.oneof(
              fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()))),
              fc.anything(),
            ),
          },
          { requiredKeys: [] },
        ),
        fc.anything(),
        async (body, stats) => {
          const res = await campaignCall(t.app, cookies.admin, 'POST', '/api/campaigns', body)
          expect(res.statusCode, res.body).toBeLessThan(500)
          const put = await campaignCall(
            t.app,
            cookies.admin,
            'PUT',
            `/api/campaigns/${c.id}`,
            body,
          )
          expect(put.statusCode, put.body).toBeLessThan(500)
          const patch = await campaignCall(
            t.app,
            cookies.admin,
            'PATCH',
            `/api/campaigns/${c.id}/stats`,
            stats,
          )
          expect(patch.statusCode, patch.body).toBeLessThan(500)
        },
      ),
      { numRuns: 30 },
    )
  })
})

describe('tenants and roles', () => {
  it("another hospital's campaign is a 404 and stays unchanged", async () => {
    const c = await createCampaign(t.app, cookies.admin!)
    const other = cookies.smileAdmin
    expectError(await campaignCall(t.app, other, 'GET', `/api/campaigns/${c.id}`), 404)
    expectError(
      await campaignCall(t.app, other, 'PUT', `/api/campaigns/${c.id}`, campaignPayload()),
      404,
    )
    expectError(await campaignCall(t.app, other, 'POST', `/api/campaigns/${c.id}/activate`), 404)
    expectError(
      await campaignCall(t.app, other, 'PATCH', `/api/campaigns/${c.id}/stats`, {
        spend: { date: '2026-10-02', amount: 1 },
      }),
      404,
    )
    expect((await listOf(t.app, other!)).campaigns.some((x) => x.id === c.id)).toBe(false)
    expect(await detailOf(t.app, cookies.admin!, c.id)).toMatchObject({
      campaign: { status: 'draft', spent: 0 },
    })
    expect(await auditActions(t.db, c.id)).toEqual(['campaign.created'])
  })

  it('every member reads; only an admin changes campaigns', async () => {
    const c = await createCampaign(t.app, cookies.admin!)
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      expect((await campaignCall(t.app, cookies[role], 'GET', '/api/campaigns')).statusCode).toBe(
        200,
      )
      expectError(
        await campaignCall(t.app, cookies[role], 'POST', '/api/campaigns', campaignPayload()),
        403,
      )
      expectError(
        await campaignCall(
          t.app,
          cookies[role],
          'PUT',
          `/api/campaigns/${c.id}`,
          campaignPayload(),
        ),
        403,
      )
      expectError(
        await campaignCall(t.app, cookies[role], 'POST', `/api/campaigns/${c.id}/activate`),
        403,
      )
      expectError(
        await campaignCall(t.app, cookies[role], 'PATCH', `/api/campaigns/${c.id}/stats`, {
          leads: 1,
        }),
        403,
      )
    }
    expectError(await campaignCall(t.app, undefined, 'GET', '/api/campaigns'), 401)
    expect(await auditActions(t.db, c.id)).toEqual(['campaign.created'])
  })
})
