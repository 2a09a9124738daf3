import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Worker } from '../../src/server/jobs/worker'
import { signMetaBody } from '../../src/server/integrations/meta/signature'
import { META_FETCH_LEAD_JOB } from '../../src/server/modules/meta/meta-jobs'
import { metaConnectionView } from '../../src/shared/schemas/meta'
import {
  refusalKey,
  WEBHOOK_REFUSALS_PER_PAGE,
} from '../../src/server/modules/meta/webhook-refusals'
import { fakeLead, type FakeGraph, graphErrors, startFakeGraph } from '../support/fakes/meta-graph'
import { expectError } from '../support/http'
import { uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import { graphId, leadgenDelivery, metaCall, postWebhook } from '../support/meta'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// POST /api/webhooks/meta: signed leadgen deliveries become meta.fetch-lead jobs in one
// transaction; the worker (run here) fetches each lead from the fake Graph and stores it.

let graph: FakeGraph
let t: TestApp
let hospitalA: string
let hospitalB: string
const A = {
  page: graphId('7'),
  form: graphId('4'),
  token: 'EAAGtokenOfHospitalA0123456789',
  secret: 'app-secret-of-hospital-a-0001',
  verify: 'verify-token-hospital-a-000001',
}
const B = {
  page: graphId('7'),
  form: graphId('4'),
  token: 'EAAGtokenOfHospitalB0123456789',
  secret: 'app-secret-of-hospital-b-0002',
  verify: 'verify-token-hospital-b-000002',
}

beforeAll(async () => {
  graph = await startFakeGraph()
  t = await createTestApp({ metaGraph: { baseUrl: graph.url, version: graph.version } })
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  for (const [h, cookie] of [
    [A, await login(t.app, demoEmail('admin'))],
    [B, await login(t.app, demoEmail('admin', 'smiledental'))],
  ] as const) {
    graph.pages.set(h.page, {
      id: h.page,
      name: 'Page',
      token: h.token,
      appSecret: h.secret,
      forms: [{ id: h.form, name: 'Form', leads: [] }],
    })
    const res = await metaCall(t.app, cookie, 'PUT', '/api/integrations/meta', {
      pageId: h.page,
      pageAccessToken: h.token,
      appSecret: h.secret,
      verifyToken: h.verify,
    })
    expect(res.statusCode, res.body).toBe(200)
    // Saved is not enough: a delivery for the page is refused until Test Connection proves it.
    const early = await postWebhook(
      t.app,
      leadgenDelivery([{ pageId: h.page, leadgenId: '9001' }]),
      h.secret,
      {},
      '198.51.100.1',
    )
    expect(early.statusCode, early.body).toBe(403)
    const tested = await metaCall(t.app, cookie, 'POST', '/api/integrations/meta/test')
    expect(tested.statusCode, tested.body).toBe(200)
  }
})
afterAll(async () => {
  await t?.close()
  await graph?.close()
})

function addLead(h: typeof A, fields: Record<string, string>) {
  const lead = fakeLead(fields)
  graph.pages.get(h.page)?.forms[0]?.leads.push(lead)
  return lead
}

const count = async (query: ReturnType<typeof sql>) =>
  (await queryRows<{ n: number }>(t.db, query))[0]?.n ?? -1
const jobCount = () =>
  count(sql`select count(*)::int as n from jobs where name = ${META_FETCH_LEAD_JOB}`)
const leadsWithMetaId = (id: string) =>
  queryRows<{ hospital_id: string; name: string; source: string }>(
    t.db,
    sql`select hospital_id, name, source from leads where meta_lead_id = ${id}`,
  )

/** Runs the worker until no meta.fetch-lead job is queued or running. */
async function drainJobs() {
  const worker = new Worker({
    database: t.database,
    names: [META_FETCH_LEAD_JOB],
    pollMs: 20,
    backoff: () => 10,
    directUrl: undefined,
  })
  await worker.start()
  try {
    const deadline = Date.now() + 20_000
    for (;;) {
      const open = await count(
        sql`select count(*)::int as n from jobs where name = ${META_FETCH_LEAD_JOB} and status in ('queued', 'running', 'failed')`,
      )
      if (open === 0) return
      if (Date.now() > deadline) throw new Error('jobs did not finish')
      await new Promise((r) => setTimeout(r, 25))
    }
  } finally {
    await worker.stop()
  }
}

describe('handshake', () => {
  const hub = (token: string, mode = 'subscribe', challenge = '1158201444') =>
    t.app.inject({
      method: 'GET',
      url: `/api/webhooks/meta?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=${challenge}`,
    })

  it('echoes the challenge for a known verify token', async () => {
    const res = await hub(A.verify)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toBe('1158201444')
  })

  it('refuses a wrong token, another mode, or a challenge that is not a plain token', async () => {
    expectError(await hub('verify-token-hospital-a-000009'), 403)
    expectError(await hub(A.verify, 'unsubscribe'), 403)
    expectError(await hub(A.verify, 'subscribe', '<script>'), 403)
    expectError(await t.app.inject({ method: 'GET', url: '/api/webhooks/meta' }), 403)
  })
})

describe('deliveries', () => {
  it('a signed delivery (no Origin) is acknowledged and the job stores the lead', async () => {
    const lead = addLead(A, { full_name: 'Webhook Lead', phone_number: uniqueMobile(93_000) })
    const res = await postWebhook(
      t.app,
      leadgenDelivery([{ pageId: A.page, leadgenId: lead.id, formId: A.form }]),
      A.secret,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect(await leadsWithMetaId(lead.id)).toEqual([]) // fetched later, by the job
    await drainJobs()
    expect(await leadsWithMetaId(lead.id)).toEqual([
      { hospital_id: hospitalA, name: 'Webhook Lead', source: 'meta-facebook' },
    ])
  })

  it('a replayed delivery adds no job and no lead', async () => {
    const lead = addLead(A, { full_name: 'Replayed', phone_number: uniqueMobile(93_000) })
    const body = leadgenDelivery([{ pageId: A.page, leadgenId: lead.id }])
    expect((await postWebhook(t.app, body, A.secret)).statusCode).toBe(200)
    const jobs = await jobCount()
    expect((await postWebhook(t.app, body, A.secret)).statusCode).toBe(200)
    expect(await jobCount()).toBe(jobs)
    await drainJobs()
    expect((await postWebhook(t.app, body, A.secret)).statusCode).toBe(200)
    await drainJobs()
    expect(await leadsWithMetaId(lead.id)).toHaveLength(1)
  })

  it('retries when Graph fails once; 190 marks the connection and lapses the claim, the next success clears the mark', async () => {
    const lead = addLead(A, { full_name: 'Retried', phone_number: uniqueMobile(93_000) })
    const status = async () =>
      (
        await queryRows<{ status: string }>(
          t.db,
          sql`select status from meta_connections where hospital_id = ${hospitalA}`,
        )
      )[0]?.status
    graph.failNext(graphErrors.expiredToken)
    const res = await postWebhook(
      t.app,
      leadgenDelivery([{ pageId: A.page, leadgenId: lead.id }]),
      A.secret,
    )
    expect(res.statusCode).toBe(200)
    // One attempt, retried only in a minute: the connection needs attention meanwhile.
    const slow = new Worker({
      database: t.database,
      names: [META_FETCH_LEAD_JOB],
      pollMs: 20,
      backoff: () => 60_000,
      directUrl: undefined,
    })
    await slow.start()
    try {
      const deadline = Date.now() + 20_000
      while ((await status()) !== 'needs_attention') {
        if (Date.now() > deadline) throw new Error('the 190 did not mark the connection')
        await new Promise((r) => setTimeout(r, 25))
      }
    } finally {
      await slow.stop()
    }
    expect(await leadsWithMetaId(lead.id)).toEqual([])
    // The token no longer proves the page: its deliveries are refused (Meta retries them).
    const claimed = () =>
      count(sql`select count(*)::int as n from meta_pages where page_id = ${A.page}`)
    expect(await claimed()).toBe(0)
    const second = leadgenDelivery([{ pageId: A.page, leadgenId: `${lead.id}1` }])
    expectError(await postWebhook(t.app, second, A.secret, {}, '198.51.100.40'), 403)
    await t.db.execute(
      sql`update jobs set run_at = now() where name = ${META_FETCH_LEAD_JOB} and status <> 'done'`,
    )
    graph.failNext(graphErrors.rateLimited)
    await drainJobs()
    expect(await leadsWithMetaId(lead.id)).toHaveLength(1)
    expect(await status()).toBe('ok')
    // Until Test Connection proves the page again.
    const admin = await login(t.app, demoEmail('admin'))
    expect((await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test')).statusCode).toBe(
      200,
    )
    expect(await claimed()).toBe(1)
    expect((await postWebhook(t.app, second, A.secret)).statusCode).toBe(200)
  })

  it("hospital A's page never writes into B, even signed with B's secret", async () => {
    const lead = addLead(A, { full_name: 'Cross', phone_number: uniqueMobile(93_000) })
    const jobs = await jobCount()
    const body = leadgenDelivery([{ pageId: A.page, leadgenId: lead.id }])
    expectError(await postWebhook(t.app, body, B.secret), 403)
    const mixed = leadgenDelivery([
      { pageId: A.page, leadgenId: lead.id },
      { pageId: B.page, leadgenId: lead.id },
    ])
    expectError(await postWebhook(t.app, mixed, B.secret), 403)
    expect(await jobCount()).toBe(jobs)
    const ok = await postWebhook(
      t.app,
      leadgenDelivery([{ pageId: B.page, leadgenId: lead.id }]),
      B.secret,
    )
    expect(ok.statusCode).toBe(200)
    await drainJobs()
    // B's token cannot read A's lead at Graph: nothing is stored for B.
    expect(
      await count(
        sql`select count(*)::int as n from leads where hospital_id = ${hospitalB} and meta_lead_id = ${lead.id}`,
      ),
    ).toBe(0)
  })

  it('refuses bad deliveries with a 4xx and stores nothing', async () => {
    const lead = addLead(A, { full_name: 'Never', phone_number: uniqueMobile(93_000) })
    const good = leadgenDelivery([{ pageId: A.page, leadgenId: lead.id }])
    const raw = JSON.stringify(good)
    const jobs = await jobCount()
    const cases = [
      await postWebhook(t.app, good), // unsigned
      await postWebhook(t.app, good, 'wrong-secret'),
      await postWebhook(t.app, good, undefined, { 'x-hub-signature-256': 'sha256=zz' }),
      await postWebhook(t.app, `${raw} `, undefined, {
        'x-hub-signature-256': signMetaBody(raw, A.secret),
      }), // the signature of other bytes
      await postWebhook(
        t.app,
        leadgenDelivery([{ pageId: graphId('8'), leadgenId: lead.id }]),
        A.secret,
      ),
      await postWebhook(t.app, '{"object":"page","entry":[', A.secret), // not JSON
      await postWebhook(t.app, { object: 'user', entry: [] }, A.secret),
      await postWebhook(
        t.app,
        { object: 'page', entry: [{ changes: [{ field: 'leadgen', value: {} }] }] },
        A.secret,
      ),
      await postWebhook(t.app, `{"pad":"${'x'.repeat(300 * 1024)}"}`, A.secret), // too large
      await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/meta',
        headers: { 'content-type': 'text/plain' },
        payload: raw,
      }),
    ]
    for (const res of cases) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400)
      expect(res.statusCode, res.body).toBeLessThan(500)
    }
    expect(cases.map((r) => r.statusCode)).toEqual([
      401, 403, 403, 403, 403, 400, 400, 400, 413, 415,
    ])
    expect(await jobCount()).toBe(jobs)
    await drainJobs()
    expect(await leadsWithMetaId(lead.id)).toEqual([])
  })

  it('refused deliveries naming a page get 429 beyond its limit; accepted ones are never counted or slowed', async () => {
    const lead = addLead(A, { full_name: 'Flooded', phone_number: uniqueMobile(93_000) })
    const good = leadgenDelivery([{ pageId: A.page, leadgenId: lead.id }])
    const sender = '203.0.113.77'
    const hitsOf = async (key: string) =>
      (
        await queryRows<{ hits: number }>(
          t.db,
          sql`select hits from rate_limit_hits where key = ${key}`,
        )
      )[0]?.hits ?? 0
    // Earlier tests' refusals of this page count in the same window.
    const before = await hitsOf(refusalKey.page(A.page))
    const hospitalBefore = await hitsOf(refusalKey.hospital(hospitalA))
    for (let i = 0; i < WEBHOOK_REFUSALS_PER_PAGE * 2; i++) {
      // Accepted deliveries do not count towards any limit.
      expect((await postWebhook(t.app, good, A.secret, {}, sender)).statusCode).toBe(200)
    }
    expect(await hitsOf(refusalKey.page(A.page))).toBe(before)
    for (let i = before; i < WEBHOOK_REFUSALS_PER_PAGE; i++) {
      expect((await postWebhook(t.app, good, 'forged-secret', {}, sender)).statusCode).toBe(403)
    }
    const blocked = await postWebhook(t.app, good, 'forged-secret', {}, sender)
    expectError(blocked, 429, 'RATE_LIMITED')
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    // Counted against the page and its hospital, not the sender.
    expect(await hitsOf(refusalKey.page(A.page))).toBe(WEBHOOK_REFUSALS_PER_PAGE)
    expect(await hitsOf(refusalKey.hospital(hospitalA))).toBe(
      hospitalBefore + WEBHOOK_REFUSALS_PER_PAGE - before,
    )
    expect(await hitsOf(refusalKey.ip(sender))).toBe(0)
    const admin = await login(t.app, demoEmail('admin'))
    const attention = metaConnectionView.parse(
      (await metaCall(t.app, admin, 'GET', '/api/integrations/meta')).json(),
    )
    expect(attention.webhookError).toMatch(/fail the signature check: check the App Secret/)
    // The page's own correctly signed delivery, from the same address, still goes through...
    expect((await postWebhook(t.app, good, A.secret, {}, sender)).statusCode).toBe(200)
    // ...and proves the secret again: Settings no longer asks for attention.
    const cleared = metaConnectionView.parse(
      (await metaCall(t.app, admin, 'GET', '/api/integrations/meta')).json(),
    )
    expect([cleared.webhookError, cleared.status]).toEqual([null, 'ok'])
    await drainJobs()
    expect(await leadsWithMetaId(lead.id)).toHaveLength(1)
  })

  it('a browser POST from another site is still refused by the same-origin guard', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/meta',
      headers: {
        'content-type': 'application/json',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      payload: '{}',
    })
    expectError(res, 403)
  })
})

describe('meta_pages (platform routing table)', () => {
  it('app_platform reads every route; app_user sees and writes only its own hospital', async () => {
    const seen = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local role app_platform`)
      const all = await tx.execute(sql`select hospital_id from meta_pages`)
      await tx.execute(sql`reset role`)
      await tx.execute(
        sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospitalA}, true)`,
      )
      const own = await tx.execute(sql`select hospital_id from meta_pages`)
      const stolen = await tx.execute(
        sql`update meta_pages set hospital_id = ${hospitalA} where hospital_id = ${hospitalB} returning page_id`,
      )
      return {
        all: (all as unknown as { rows: unknown[] }).rows.length,
        own: (own as unknown as { rows: { hospital_id: string }[] }).rows,
        stolen: (stolen as unknown as { rows: unknown[] }).rows.length,
      }
    })
    expect(seen.all).toBe(2)
    expect(seen.own).toEqual([{ hospital_id: hospitalA }])
    expect(seen.stolen).toBe(0)
  })
})

describe('a new app secret', () => {
  it('is unproven until Test Connection succeeds with it; the old one is refused from the save on', async () => {
    const adminB = await login(t.app, demoEmail('admin', 'smiledental'))
    const lead = addLead(B, { full_name: 'Rotated', phone_number: uniqueMobile(93_000) })
    const body = leadgenDelivery([{ pageId: B.page, leadgenId: lead.id }])
    expect((await postWebhook(t.app, body, B.secret)).statusCode).toBe(200) // route cached
    const rotated = 'app-secret-of-hospital-b-0003'
    graph.pages.get(B.page)!.appSecret = rotated
    const saved = await metaCall(t.app, adminB, 'PUT', '/api/integrations/meta', {
      appSecret: rotated,
    })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(metaConnectionView.parse(saved.json()).webhookReady).toBe(false)
    // Not routed until proven: both secrets are refused (Meta retries).
    expectError(await postWebhook(t.app, body, B.secret, {}, '198.51.100.30'), 403)
    expectError(await postWebhook(t.app, body, rotated, {}, '198.51.100.31'), 403)
    const tested = await metaCall(t.app, adminB, 'POST', '/api/integrations/meta/test')
    expect(tested.statusCode, tested.body).toBe(200)
    expect((await postWebhook(t.app, body, rotated, {}, '198.51.100.31')).statusCode).toBe(200)
    expectError(await postWebhook(t.app, body, B.secret, {}, '198.51.100.30'), 403)
    await drainJobs()
    expect(await leadsWithMetaId(lead.id)).toEqual([
      { hospital_id: hospitalB, name: 'Rotated', source: 'meta-facebook' },
    ])
  })
})
