import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  refusalKey,
  WEBHOOK_GARBAGE_PER_IP,
  WEBHOOK_REFUSALS_PER_PAGE,
} from '../../src/server/modules/meta/webhook-refusals'
import { changeQuotaKey } from '../../src/server/modules/meta/webhook-quota'
import { metaConnectionView, metaWebhookMessages } from '../../src/shared/schemas/meta'
import { type FakeGraph, startFakeGraph } from '../support/fakes/meta-graph'
import { expectError } from '../support/http'
import { login } from '../support/login'
import {
  connectAndProve,
  graphId,
  leadgenDelivery,
  manyChanges,
  metaCall,
  postWebhook,
} from '../support/meta'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 24: one hospital's broken or hostile page must not slow down another's leads, and no
// hospital may flood the job queue through the webhook (docs/decisions/021).

/** Small, so the quota is reached in a few deliveries. */
const PER_MINUTE = 20
/** Meta sends every hospital's deliveries from the same few addresses. */
const META_IP = '173.252.88.10'

let graph: FakeGraph
let t: TestApp
let adminA: string
let adminB: string
let hospitalA: string
let hospitalB: string
const A = {
  page: graphId('7'),
  token: 'EAAGfairTokenOfA0123456789',
  secret: 'fair-secret-of-a-0001',
}
const B = {
  page: graphId('7'),
  token: 'EAAGfairTokenOfB0123456789',
  secret: 'fair-secret-of-b-0002',
}

beforeAll(async () => {
  graph = await startFakeGraph()
  t = await createTestApp({
    metaGraph: { baseUrl: graph.url, version: graph.version },
    metaWebhookChangesPerMinute: PER_MINUTE,
  })
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  adminA = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  for (const [h, cookie] of [
    [A, adminA],
    [B, adminB],
  ] as const) {
    graph.pages.set(h.page, {
      id: h.page,
      name: 'Page',
      token: h.token,
      appSecret: h.secret,
      forms: [],
    })
    const tested = await connectAndProve(t.app, cookie, h)
    expect(tested.statusCode, tested.body).toBe(200)
  }
})
afterAll(async () => {
  await t?.close()
  await graph?.close()
})

const count = async (query: ReturnType<typeof sql>) =>
  (await queryRows<{ n: number }>(t.db, query))[0]?.n ?? -1
const jobsOf = (hospitalId: string) =>
  count(
    sql`select count(*)::int as n from jobs where name = 'meta.fetch-lead' and hospital_id = ${hospitalId}`,
  )
const hitsOf = async (key: string) =>
  (
    await queryRows<{ hits: number }>(
      t.db,
      sql`select hits from rate_limit_hits where key = ${key}`,
    )
  )[0]?.hits ?? 0
const viewOf = async (cookie: string) =>
  metaConnectionView.parse((await metaCall(t.app, cookie, 'GET', '/api/integrations/meta')).json())
const deliver = (h: typeof A, n: number, secret = h.secret, ip = META_IP) =>
  postWebhook(t.app, leadgenDelivery(manyChanges(h.page, n)), secret, {}, ip)

describe('refusals are counted per page and hospital, not per sender', () => {
  it("a refusal storm for B's page leaves A's signed deliveries from the same IP at 200", async () => {
    const jobsA = await jobsOf(hospitalA)
    const jobsB = await jobsOf(hospitalB)
    const answers: number[] = []
    for (let i = 0; i < 40; i++) {
      // B's page: deliveries signed with another app's secret (its webhook is another app's).
      answers.push((await deliver(B, 1, 'secret-of-another-app-0009')).statusCode)
      if (i % 10 === 9) expect((await deliver(A, 1)).statusCode).toBe(200)
    }
    expect(answers.slice(0, WEBHOOK_REFUSALS_PER_PAGE)).toEqual(
      Array(WEBHOOK_REFUSALS_PER_PAGE).fill(403),
    )
    expect(answers.slice(WEBHOOK_REFUSALS_PER_PAGE)).toEqual(
      Array(40 - WEBHOOK_REFUSALS_PER_PAGE).fill(429),
    )
    const limited = await deliver(B, 1, 'secret-of-another-app-0009')
    expectError(limited, 429, 'RATE_LIMITED')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    // A is never slowed: every one of its deliveries went through, and it is not counted.
    expect((await deliver(A, 1)).statusCode).toBe(200)
    expect(await jobsOf(hospitalA)).toBe(jobsA + 5)
    expect(await jobsOf(hospitalB)).toBe(jobsB)
    expect(await hitsOf(refusalKey.page(B.page))).toBe(WEBHOOK_REFUSALS_PER_PAGE)
    expect(await hitsOf(refusalKey.page(A.page))).toBe(0)
    expect(await hitsOf(refusalKey.ip(META_IP))).toBe(0)
    // B's Settings ask for attention; A's do not.
    const b = await viewOf(adminB)
    expect([b.status, b.webhookError, b.webhookReady]).toEqual([
      'needs_attention',
      metaWebhookMessages.signatureFailing,
      true,
    ])
    const a = await viewOf(adminA)
    expect([a.status, a.webhookError]).toEqual(['ok', null])
    // Even B's correctly signed deliveries still go through while its page is over the limit.
    expect((await deliver(B, 1)).statusCode).toBe(200)
    expect((await viewOf(adminB)).webhookError).toBeNull()
  })

  it('a signed delivery without leadgen changes (feed) is acknowledged and counts as no refusal', async () => {
    const feed = {
      object: 'page',
      entry: [
        {
          id: A.page,
          time: Math.floor(Date.now() / 1000),
          changes: [{ field: 'feed', value: { item: 'status', verb: 'add', post_id: '1_2' } }],
        },
      ],
    }
    const before = await hitsOf(refusalKey.page(A.page))
    const jobs = await jobsOf(hospitalA)
    const res = await postWebhook(t.app, feed, A.secret, {}, META_IP)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ received: true, accepted: 0 })
    expect(await hitsOf(refusalKey.page(A.page))).toBe(before)
    expect(await jobsOf(hospitalA)).toBe(jobs)
    // Unsigned, or for a page nobody has claimed, it is refused.
    expectError(await postWebhook(t.app, feed, undefined, {}, META_IP), 401)
    const unknown = { ...feed, entry: [{ ...feed.entry[0], id: graphId('8') }] }
    expectError(await postWebhook(t.app, unknown, A.secret, {}, META_IP), 403)
  })

  it('garbage is limited per IP as a last resort, never blocking a signed delivery of a routed page', async () => {
    const flooder = '203.0.113.99'
    for (let i = 0; i < WEBHOOK_GARBAGE_PER_IP; i++) {
      const res = await postWebhook(t.app, '{"object":"page","entry":[', A.secret, {}, flooder)
      expect(res.statusCode).toBe(400)
    }
    expectError(await postWebhook(t.app, '{"not":"meta"}', A.secret, {}, flooder), 429)
    // A delivery naming a page nobody claimed is refused from that IP too, with no count.
    const stray = leadgenDelivery([{ pageId: graphId('8'), leadgenId: '1' }])
    expectError(await postWebhook(t.app, stray, A.secret, {}, flooder), 429)
    // A's signed delivery from the same address goes through.
    expect((await deliver(A, 1, A.secret, flooder)).statusCode).toBe(200)
    expect(await hitsOf(refusalKey.ip(flooder))).toBe(WEBHOOK_GARBAGE_PER_IP)
  })
})

describe('accepted changes per minute per hospital (quota)', () => {
  it('refuses a delivery over the quota with 429 naming the limit, and stores none of it', async () => {
    // Start each hospital's minute afresh (earlier tests took some of it).
    await t.db.execute(sql`delete from rate_limit_hits where key like 'meta-webhook-changes:%'`)
    const jobs = await jobsOf(hospitalA)
    expect((await deliver(A, 15)).statusCode).toBe(200)
    expect(await jobsOf(hospitalA)).toBe(jobs + 15)
    const over = await deliver(A, 6)
    const body = expectError(over, 429, 'RATE_LIMITED')
    expect(body.message).toContain(`quota of ${PER_MINUTE} accepted lead changes a minute`)
    expect(body.message).toContain('META_WEBHOOK_CHANGES_PER_MINUTE')
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(await jobsOf(hospitalA)).toBe(jobs + 15) // all or nothing
    expect(await hitsOf(changeQuotaKey(hospitalA))).toBe(15)
    // What still fits is taken; the other hospital has its own quota.
    expect((await deliver(A, 5)).statusCode).toBe(200)
    expect(await jobsOf(hospitalA)).toBe(jobs + 20)
    expect((await deliver(B, 10)).statusCode).toBe(200)
    // A quota refusal is not a signature problem: nothing asks for attention.
    expect((await viewOf(adminA)).webhookError).toBeNull()
  })

  it('is one atomic count in PostgreSQL: concurrent deliveries never overrun it together', async () => {
    await t.db.execute(sql`delete from rate_limit_hits where key like 'meta-webhook-changes:%'`)
    const jobs = await jobsOf(hospitalB)
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(B, 3)))
    const codes = answers.map((r) => r.statusCode).sort()
    // 6 deliveries of 3 fit in 20; the other 4 are refused whole.
    expect(codes).toEqual([...Array(6).fill(200), ...Array(4).fill(429)])
    expect(await jobsOf(hospitalB)).toBe(jobs + 18)
    expect(await hitsOf(changeQuotaKey(hospitalB))).toBe(18)
  })

  it('caps the changes of one delivery (413), whatever the quota left', async () => {
    await t.db.execute(sql`delete from rate_limit_hits where key like 'meta-webhook-changes:%'`)
    const jobs = await jobsOf(hospitalA)
    const res = await deliver(A, PER_MINUTE + 1)
    expect(expectError(res, 413, 'PAYLOAD_TOO_LARGE').message).toContain(
      `at most ${PER_MINUTE} leadgen changes`,
    )
    // The flood: one signed delivery of about 240 KB with 3,000 changes, refused whole.
    const changes = (from: number) =>
      Array.from({ length: 1_000 }, (_, i) => ({
        field: 'leadgen',
        value: { leadgen_id: String(9_000_000 + from + i), page_id: A.page },
      }))
    const flood = {
      object: 'page',
      entry: [0, 1_000, 2_000].map((from) => ({ id: A.page, changes: changes(from) })),
    }
    expect(JSON.stringify(flood).length).toBeLessThan(256 * 1024)
    expectError(await postWebhook(t.app, flood, A.secret, {}, META_IP), 413)
    expect(await jobsOf(hospitalA)).toBe(jobs)
    expect(await hitsOf(changeQuotaKey(hospitalA))).toBe(0)
  })
})
