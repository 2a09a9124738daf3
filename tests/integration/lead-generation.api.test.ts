import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  AdminLeadGenRequest,
  AdminLeadGenRequestList,
  LeadGenRequest,
  LeadGenRequestList,
} from '../../src/shared/schemas/lead-generation'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import { adminCall } from '../support/platform'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 28, Lead Generation (docs/decisions/034): hospital admins request campaigns with a daily
// budget on the slider's steps; the server computes the estimates and the one-time cost; super
// admins move requests through their states with a note, audited, and the admins get an email.

let t: TestApp
let sa: string
let admin: string
let otherAdmin: string
const staff = new Map<string, string>()

beforeAll(async () => {
  t = await createTestApp()
  sa = await loginSuperAdmin(t.app)
  admin = await login(t.app, demoEmail('admin'))
  otherAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
  for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const)
    staff.set(role, await login(t.app, demoEmail(role)))
}, 180_000)
afterAll(async () => {
  await t?.close()
})

const call = (
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
) => adminCall(t.app, cookie, method, url, body)

const request = (body: Record<string, unknown>, cookie = admin) =>
  call(cookie, 'POST', '/api/marketing-campaigns', body)

const move = (id: string, body: unknown, cookie = sa) =>
  call(cookie, 'POST', `/api/admin/lead-generation-requests/${id}/status`, body)

const countRows = async () =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from lead_generation_requests`,
    )
  )[0]?.n ?? 0

async function created(body: Record<string, unknown>, cookie = admin): Promise<LeadGenRequest> {
  const res = await request(body, cookie)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<LeadGenRequest>()
}

describe('the demo seed', () => {
  it('gives the first demo hospital one active and one requested request', async () => {
    const list = (await call(admin, 'GET', '/api/marketing-campaigns')).json<LeadGenRequestList>()
    expect(list.items.map((i) => i.campaignStatus)).toEqual(['requested', 'active'])
    expect(list.items[1]).toMatchObject({
      dailyBudget: 500_000,
      expectedLeads: { perDayMin: 100, perDayMax: 200 },
      oneTimeCost: 1000,
    })
    const other = (
      await call(otherAdmin, 'GET', '/api/marketing-campaigns')
    ).json<LeadGenRequestList>()
    expect(other.items).toEqual([])
  })
})

describe('POST /api/marketing-campaigns', () => {
  it('stores the request with the server’s estimates and one-time cost, audited', async () => {
    const r = await created({
      dailyBudget: 10_000 * 100,
      hasCreative: false,
      needsCreative: true,
      hasVideo: false,
      needsVideoEditing: true,
      notes: '  Dental implants in Kothrud, Marathi and English  ',
    })
    expect(r).toMatchObject({
      dailyBudget: 1_000_000,
      needsCreative: true,
      needsVideoEditing: true,
      notes: 'Dental implants in Kothrud, Marathi and English',
      expectedLeads: { perDayMin: 200, perDayMax: 400, perMonthMin: 6000, perMonthMax: 12000 },
      oneTimeCost: 6000,
      campaignStatus: 'requested',
    })
    const hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
    const [row] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select hospital_id, expected_leads_min, expected_leads_max, one_time_cost, status
          from lead_generation_requests where id = ${r.id}`,
    )
    expect(row).toEqual({
      hospital_id: hospitalId,
      expected_leads_min: 200,
      expected_leads_max: 400,
      one_time_cost: 6000,
      status: 'requested',
    })
    const audit = await queryRows(
      t.db,
      sql`select action from audit_events where entity_id = ${r.id} and hospital_id = ${hospitalId}`,
    )
    expect(audit).toEqual([{ action: 'lead_generation.requested' }])
  })

  it('defaults the options and notes; the slider ends are accepted', async () => {
    const low = await created({ dailyBudget: 100_000 })
    expect(low).toMatchObject({
      hasCreative: false,
      needsCreative: false,
      hasVideo: false,
      needsVideoEditing: false,
      notes: null,
      oneTimeCost: 0,
      expectedLeads: { perDayMin: 20, perDayMax: 40, perMonthMin: 600, perMonthMax: 1200 },
    })
    const high = await created({ dailyBudget: 2_000_000, hasCreative: true, hasVideo: true })
    expect(high.expectedLeads).toEqual({
      perDayMin: 400,
      perDayMax: 400,
      perMonthMin: 12000,
      perMonthMax: 12000,
    })
    expect(high.oneTimeCost).toBe(0)
  })

  it('refuses client-sent estimates and costs as unknown keys', async () => {
    const before = await countRows()
    for (const extra of [
      { expectedLeads: 9999 },
      { oneTimeCost: 0 },
      { campaignStatus: 'active' },
      { hospitalId: await hospitalIdOf(t.db, 'smiledental') },
    ]) {
      const res = await request({ dailyBudget: 150_000, needsCreative: true, ...extra })
      expect(res.statusCode, JSON.stringify(extra)).toBe(400)
      expectError(res, 400, 'VALIDATION')
    }
    expect(await countRows()).toBe(before)
  })

  it('refuses budgets outside the slider or off its ₹500 steps with a field message', async () => {
    const before = await countRows()
    for (const dailyBudget of [
      0,
      99_900,
      50_000,
      2_050_000,
      2_000_100,
      125_000,
      100_050,
      150_000.5,
      -100_000,
      '150000',
      null,
      1e308,
    ]) {
      const res = await request({ dailyBudget })
      expect(issuePaths(res), String(dailyBudget)).toEqual(['dailyBudget'])
      expect(res.json<{ issues: { message: string }[] }>().issues[0]?.message).toMatch(
        /₹1,000 to ₹20,000 in steps of ₹500/,
      )
    }
    expect(issuePaths(await request({}))).toEqual(['dailyBudget'])
    expect(await countRows()).toBe(before)
  })

  it('refuses both creatives or both video choices at once', async () => {
    const before = await countRows()
    expect(
      issuePaths(await request({ dailyBudget: 100_000, hasCreative: true, needsCreative: true })),
    ).toEqual(['needsCreative'])
    expect(
      issuePaths(await request({ dailyBudget: 100_000, hasVideo: true, needsVideoEditing: true })),
    ).toEqual(['needsVideoEditing'])
    expect(issuePaths(await request({ dailyBudget: 100_000, notes: 'x'.repeat(2001) }))).toEqual([
      'notes',
    ])
    expect(issuePaths(await request({ dailyBudget: 100_000, hasVideo: 'yes' }))).toEqual([
      'hasVideo',
    ])
    expect(await countRows()).toBe(before)
  })

  it('is the hospital admin’s: 401 signed out, 403 to other roles and to the super admin', async () => {
    expectError(await request({ dailyBudget: 100_000 }, ''), 401, 'UNAUTHENTICATED')
    for (const [role, cookie] of [...staff, ['super admin', sa] as const]) {
      expect((await request({ dailyBudget: 100_000 }, cookie)).statusCode, role).toBe(403)
      expect((await call(cookie, 'GET', '/api/marketing-campaigns')).statusCode, role).toBe(403)
    }
  })

  it('random and hostile bodies never get a 5xx and never store garbage', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record(
            {
              dailyBudget: fc.oneof(
                fc.integer({ min: -10, max: 3_000_000 }),
                fc.double(),
                fc.string(),
                fc.constant(150_000),
              ),
              hasCreative: fc.oneof(fc.boolean(), fc.anything()),
              needsCreative: fc.oneof(fc.boolean(), fc.anything()),
              hasVideo: fc.boolean(),
              needsVideoEditing: fc.boolean(),
              notes: fc.oneof(fc.string(), fc.anything()),
            },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
        async (body) => {
          const res = await request(body as Record<string, unknown>)
          expect(res.statusCode).toBeLessThan(500)
        },
      ),
      { numRuns: 60 },
    )
    const bad = await queryRows(
      t.db,
      sql`select id from lead_generation_requests
          where (has_creative and needs_creative) or (has_video and needs_video_editing)
             or daily_budget % 50000 <> 0 or daily_budget not between 100000 and 2000000`,
    )
    expect(bad).toEqual([])
  })
})

describe('GET /api/marketing-campaigns', () => {
  it('lists the hospital’s own requests, newest first; another hospital sees none of them', async () => {
    const mine = await created({ dailyBudget: 300_000, notes: 'Newest one' })
    const list = (await call(admin, 'GET', '/api/marketing-campaigns')).json<LeadGenRequestList>()
    expect(list.items[0]?.id).toBe(mine.id)
    const times = list.items.map((i) => i.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
    const theirs = (
      await call(otherAdmin, 'GET', '/api/marketing-campaigns')
    ).json<LeadGenRequestList>()
    expect(theirs.items.map((i) => i.id)).not.toContain(mine.id)
    expect(theirs.items.every((i) => !list.items.some((m) => m.id === i.id))).toBe(true)
  })
})

describe('the platform side', () => {
  it('is the super admin’s alone: 401 signed out, 403 to every hospital role', async () => {
    const r = await created({ dailyBudget: 100_000 })
    expectError(await call(undefined, 'GET', '/api/admin/lead-generation-requests'), 401)
    for (const cookie of [admin, otherAdmin, ...staff.values()]) {
      expectError(
        await call(cookie, 'GET', '/api/admin/lead-generation-requests'),
        403,
        'FORBIDDEN',
      )
      expectError(await move(r.id, { status: 'approved' }, cookie), 403, 'FORBIDDEN')
    }
    const [row] = await queryRows(
      t.db,
      sql`select status from lead_generation_requests where id = ${r.id}`,
    )
    expect(row).toEqual({ status: 'requested' })
  })

  it('lists every hospital’s requests with the hospital’s name, filtered by status', async () => {
    const a = await created({ dailyBudget: 500_000 })
    const b = await created({ dailyBudget: 600_000 }, otherAdmin)
    const res = await call(sa, 'GET', '/api/admin/lead-generation-requests?status=requested')
    expect(res.statusCode).toBe(200)
    const items = res.json<AdminLeadGenRequestList>().items
    expect(items.find((i) => i.id === a.id)?.hospitalName).toMatch(/Sanjeevani/)
    expect(items.find((i) => i.id === b.id)?.hospitalName).toMatch(/Smile/)
    expect(items.every((i) => i.campaignStatus === 'requested')).toBe(true)
    expect(
      issuePaths(await call(sa, 'GET', '/api/admin/lead-generation-requests?status=lost')),
    ).toEqual(['status'])
    expect(issuePaths(await call(sa, 'GET', '/api/admin/lead-generation-requests?page=2'))).toEqual(
      ['query'],
    )
  })

  it('moves requested → approved → active ⇄ paused → completed, audited, emailing the admins', async () => {
    const r = await created({ dailyBudget: 200_000, needsCreative: true })
    const hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
    const steps = [
      ['approved', 'Budget confirmed on call with Dr. Kulkarni'],
      ['active', 'Ads live on Facebook and Instagram'],
      ['paused', 'Paused for Diwali week'],
      ['active', null],
      ['completed', 'Campaign ended'],
    ] as const
    for (const [status, note] of steps) {
      const res = await move(r.id, { status, note })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json<AdminLeadGenRequest>()).toMatchObject({
        id: r.id,
        campaignStatus: status,
        statusNote: note,
        hospitalId,
      })
    }
    const platform = await queryRows<{ summary: string }>(
      t.db,
      sql`select summary from platform_audit_events
          where entity_id = ${r.id} and action = 'lead_generation.status_changed' order by created_at`,
    )
    expect(platform).toHaveLength(5)
    expect(platform[0]?.summary).toMatch(/from requested to approved – Budget confirmed/)
    const own = await queryRows(
      t.db,
      sql`select action from audit_events where entity_id = ${r.id} and hospital_id = ${hospitalId}
          and action = 'platform.lead_generation.status_changed'`,
    )
    expect(own).toHaveLength(5)
    const mail = await queryRows<{ to_address: string; subject: string; text_body: string }>(
      t.db,
      sql`select to_address, subject, text_body from email_outbox
          where purpose = 'lead-generation-status' and text_body like '%Paused for Diwali week%'`,
    )
    expect(mail.map((m) => m.to_address)).toContain(demoEmail('admin'))
    expect(mail.every((m) => !m.to_address.includes('smiledental'))).toBe(true)
    expect(mail[0]?.subject).toBe('Your lead-generation campaign request is now paused')
  })

  it('refuses a move the states do not allow with 409, changing nothing', async () => {
    const r = await created({ dailyBudget: 100_000 })
    const audits = async () =>
      (await queryRows(t.db, sql`select id from platform_audit_events where entity_id = ${r.id}`))
        .length
    for (const status of ['active', 'paused', 'completed', 'requested'])
      expectError(await move(r.id, { status }), 409, 'CONFLICT')
    expect((await move(r.id, { status: 'approved' })).statusCode).toBe(200)
    expectError(await move(r.id, { status: 'approved' }), 409, 'CONFLICT')
    expectError(await move(r.id, { status: 'paused' }), 409, 'CONFLICT')
    expect(await audits()).toBe(1)
    const [row] = await queryRows(
      t.db,
      sql`select status from lead_generation_requests where id = ${r.id}`,
    )
    expect(row).toEqual({ status: 'approved' })
  })

  it('answers 404 for an unknown id and 400 for bad bodies and ids', async () => {
    expectError(
      await move('00000000-0000-4000-8000-000000000000', { status: 'approved' }),
      404,
      'NOT_FOUND',
    )
    expect(issuePaths(await move('not-a-uuid', { status: 'approved' }))).toEqual(['id'])
    const r = await created({ dailyBudget: 100_000 })
    expect(issuePaths(await move(r.id, { status: 'live' }))).toEqual(['status'])
    expect(issuePaths(await move(r.id, {}))).toEqual(['status'])
    expect(issuePaths(await move(r.id, { status: 'approved', note: 'x'.repeat(1001) }))).toEqual([
      'note',
    ])
    expect(issuePaths(await move(r.id, { status: 'approved', hospitalId: r.id }))).toEqual([''])
  })
})
