import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SIGNATURE_FAILURES_FOR_ATTENTION } from '../../src/server/modules/meta/connection.service'
import { forgetPageRoutes } from '../../src/server/modules/meta/route-cache'
import { refusalKey } from '../../src/server/modules/meta/webhook-refusals'
import { changeQuotaKey } from '../../src/server/modules/meta/webhook-quota'
import { metaPageClaimList } from '../../src/shared/schemas/meta'
import {
  type FakeGraph,
  type FakeGraphPage,
  graphErrors,
  startFakeGraph,
} from '../support/fakes/meta-graph'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { connectAndProve, graphId, leadgenDelivery, metaCall, postWebhook } from '../support/meta'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-webhooks-meta mutation part's tests (issue 30) for the Meta connection, its
// super-admin view and the lead webhook: the exact answers, refusal counts, failure counts,
// quotas, claim times and audit rows of connection.service.ts, meta-admin.service.ts and
// webhook.service.ts that surviving mutants changed.
//
// Equivalent mutants (no caller can tell them apart), so not tested here:
// - webhook 121:7 (`typeof signature !== 'string'` → false): Node joins a repeated header
//   into one string, so the header is a string or undefined, and `!signature` catches undefined.
// - webhook 139:61, 139:91, 145:21, 145:55, 151:44 (`?.`), 154:53 (`?.`), 154:87, 160:24,
//   160:65 and 191:9 (`route` → true): these lines run only after every page of the delivery
//   was found in `routes` (line 134 refuses the rest), so `routes.get(id)` is never undefined
//   and the `?.`/`?? ''` fallbacks are never taken.
// - connection 251:9 (`row?.pageId` → true, `row.pageId`): recordGraphOutcome({ ok }) runs only
//   after a configured connection was read (page id set), so the row is there with its page;
//   only its deletion racing a Graph call could tell.
// - connection 252:12 (`[]` → ['Stryker was here']): the list only drops route-cache entries,
//   and no page id is that text (ids are digits).
// - meta-admin 58:14 (`total?.n`): `select count(*)` always returns one row.

let graph: FakeGraph
let t: TestApp
let adminA: string
let adminB: string
let superAdmin: string
let hospitalA: string
let hospitalB: string

beforeAll(async () => {
  graph = await startFakeGraph()
  t = await createTestApp({ metaGraph: { baseUrl: graph.url, version: graph.version } })
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  adminA = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  superAdmin = await loginSuperAdmin(t.app)
})
afterAll(async () => {
  vi.useRealTimers()
  await t?.close()
  await graph?.close()
})

/** A new page on the fake Graph, saved and proven by the hospital of `cookie` (its claim). */
async function claim(cookie: string, secret = `app-secret-${graphId('3')}`) {
  const id = graphId('7')
  const page: FakeGraphPage = {
    id,
    name: `Page ${id}`,
    token: `EAAGm${id}`,
    appSecret: secret,
    forms: [],
  }
  graph.pages.set(id, page)
  const res = await connectAndProve(t.app, cookie, { page: id, token: page.token, secret })
  expect(res.statusCode, res.body).toBe(200)
  return page
}

const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.db, query)
const hitsOf = async (key: string) =>
  (await rows<{ hits: number }>(sql`select hits from rate_limit_hits where key = ${key}`))[0]
    ?.hits ?? 0
const failuresOf = async (pageId: string) =>
  (
    await rows<{ failures: number; since: Date | null }>(
      sql`select signature_failures as failures, signature_failing_since as since
          from meta_pages where page_id = ${pageId}`,
    )
  )[0]
async function forged(page: FakeGraphPage, n: number) {
  for (let i = 0; i < n; i++) {
    const body = leadgenDelivery([{ pageId: page.id, leadgenId: graphId('9') }])
    expectError(await postWebhook(t.app, body, 'forged-secret-0000'), 403, 'FORBIDDEN')
  }
}
/** A signed delivery naming the page without any leadgen change (a `feed` subscription). */
const feedOnly = (pageId: string) => ({
  object: 'page',
  entry: [{ id: pageId, time: 1, changes: [{ field: 'feed', value: { item: 'status' } }] }],
})
const jobsFor = (leadgenId: string) =>
  rows<{ hospital_id: string }>(
    sql`select hospital_id from jobs where name = 'meta.fetch-lead' and payload->>'leadgenId' = ${leadgenId}`,
  )
const auditsOf = (hospitalId: string, action: string) =>
  rows<{
    entity_type: string
    entity_id: string | null
    actor_user_id: string | null
    summary: string
  }>(
    sql`select entity_type, entity_id, actor_user_id, summary from audit_events
        where hospital_id = ${hospitalId} and action = ${action} order by created_at`,
  )
/** Date.now() stands still (timers run): the route cache (5 s) cannot expire mid-test. */
async function withFrozenDate(fn: () => Promise<void>) {
  vi.useFakeTimers({ toFake: ['Date'] })
  try {
    await fn()
  } finally {
    vi.useRealTimers()
  }
}

describe('POST /api/webhooks/meta: refusals, and what they count against', () => {
  it('no signature or an empty one: 401 naming the header', async () => {
    const body = leadgenDelivery([{ pageId: graphId('8'), leadgenId: graphId('9') }])
    const cases = [
      await postWebhook(t.app, body),
      await postWebhook(t.app, body, undefined, { 'x-hub-signature-256': '' }),
    ]
    for (const res of cases) {
      expect(expectError(res, 401, 'UNAUTHENTICATED').message).toBe(
        'X-Hub-Signature-256 is missing',
      )
    }
  })

  it('a delivery naming no page: 400 "No page in the delivery"', async () => {
    for (const body of [
      { object: 'page', entry: [] },
      { object: 'page', entry: [{ time: 1 }] },
    ]) {
      const res = await postWebhook(t.app, body, 'any-secret-0000')
      expect(expectError(res, 400, 'BAD_REQUEST').message).toBe('No page in the delivery')
    }
  })

  it('an unclaimed page: 403, counted against that page and the sender IP', async () => {
    const unknown = graphId('8')
    const ip = '192.0.2.61'
    const body = leadgenDelivery([{ pageId: unknown, leadgenId: graphId('9') }])
    const res = await postWebhook(t.app, body, 'any-secret-0000', {}, ip)
    expect(expectError(res, 403, 'FORBIDDEN').message).toBe('Invalid signature')
    expect([await hitsOf(refusalKey.page(unknown)), await hitsOf(refusalKey.ip(ip))]).toEqual([
      1, 1,
    ])
  })

  it("a mixed delivery failing one hospital's secret counts only that hospital's page", async () => {
    const a = await claim(adminA)
    const b = await claim(adminB)
    const hospitalBefore = await hitsOf(refusalKey.hospital(hospitalB))
    const body = leadgenDelivery([
      { pageId: a.id, leadgenId: graphId('9') },
      { pageId: b.id, leadgenId: graphId('9') },
    ])
    expectError(await postWebhook(t.app, body, b.appSecret, {}, '192.0.2.62'), 403, 'FORBIDDEN')
    expect((await failuresOf(a.id))?.failures).toBe(1)
    expect((await failuresOf(b.id))?.failures).toBe(0)
    expect(await hitsOf(refusalKey.page(a.id))).toBe(1)
    expect(await hitsOf(refusalKey.page(b.id))).toBe(0)
    expect(await hitsOf(refusalKey.hospital(hospitalB))).toBe(hospitalBefore)
    expect(await hitsOf(refusalKey.ip('192.0.2.62'))).toBe(0)
  })
})

describe('POST /api/webhooks/meta: accepted deliveries', () => {
  it('a signed delivery without leadgen changes answers accepted 0 and clears the failure count', async () => {
    const page = await claim(adminB)
    await forged(page, 2)
    const failing = await failuresOf(page.id)
    expect(failing?.failures).toBe(2)
    expect(failing?.since).not.toBeNull()
    const res = await postWebhook(t.app, feedOnly(page.id), page.appSecret)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ received: true, accepted: 0 })
    expect(await failuresOf(page.id)).toEqual({ failures: 0, since: null })
  })

  it("this instance's cached route decides: a delivery with leads zeroes its count, failures counted elsewhere wait for a re-read", async () => {
    const page = await claim(adminA)
    await withFrozenDate(async () => {
      await forged(page, 1) // the route is cached here, with its failure (1)
      const lead = graphId('9')
      const res = await postWebhook(
        t.app,
        leadgenDelivery([{ pageId: page.id, leadgenId: lead }]),
        page.appSecret,
      )
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ received: true, accepted: 1 })
      expect(await jobsFor(lead)).toEqual([{ hospital_id: hospitalA }])
      expect((await failuresOf(page.id))?.failures).toBe(0)
      // Another instance counts failures this one has not seen: its cached route says 0, so a
      // change-less delivery has nothing to clear here...
      await t.db.execute(
        sql`update meta_pages set signature_failures = 3 where page_id = ${page.id}`,
      )
      expect((await postWebhook(t.app, feedOnly(page.id), page.appSecret)).json()).toEqual({
        received: true,
        accepted: 0,
      })
      expect((await failuresOf(page.id))?.failures).toBe(3)
    })
    // ...until the route is read again (PAGE_ROUTE_TTL_MS, or a claim moving on this instance).
    forgetPageRoutes(t.db, [page.id])
    expect((await postWebhook(t.app, feedOnly(page.id), page.appSecret)).statusCode).toBe(200)
    expect((await failuresOf(page.id))?.failures).toBe(0)
  })

  it("an enqueue failing for one hospital is a 500 that gives back only that hospital's quota", async () => {
    const secret = `shared-agency-secret-${graphId('3')}`
    const a = await claim(adminA, secret)
    const b = await claim(adminB, secret)
    const [leadA, leadB] = [graphId('9'), graphId('9')]
    const before = [
      await hitsOf(changeQuotaKey(hospitalA)),
      await hitsOf(changeQuotaKey(hospitalB)),
    ]
    await t.db.execute(
      sql.raw(`create function fail_lead() returns trigger language plpgsql as $$
        begin if new.payload->>'leadgenId' = '${leadB}' then raise exception 'enqueue failed'; end if;
        return new; end $$`),
    )
    await t.db.execute(
      sql.raw(
        'create trigger fail_lead before insert on jobs for each row execute function fail_lead()',
      ),
    )
    const body = leadgenDelivery([
      { pageId: a.id, leadgenId: leadA },
      { pageId: b.id, leadgenId: leadB },
    ])
    try {
      expectError(await postWebhook(t.app, body, secret), 500, 'INTERNAL')
    } finally {
      await t.db.execute(sql.raw('drop trigger fail_lead on jobs'))
      await t.db.execute(sql.raw('drop function fail_lead()'))
    }
    // A's transaction was committed (its job and its share of the quota stay); B's was not.
    expect(await jobsFor(leadA)).toEqual([{ hospital_id: hospitalA }])
    expect(await jobsFor(leadB)).toEqual([])
    expect(await hitsOf(changeQuotaKey(hospitalA))).toBe((before[0] ?? 0) + 1)
    expect(await hitsOf(changeQuotaKey(hospitalB))).toBe(before[1])
    // Meta retries the delivery: both changes count as accepted, A's job is not doubled.
    const again = await postWebhook(t.app, body, secret)
    expect(again.json()).toEqual({ received: true, accepted: 2 })
    expect(await jobsFor(leadA)).toHaveLength(1)
    expect(await jobsFor(leadB)).toEqual([{ hospital_id: hospitalB }])
  })
})

describe('connection: a successful Graph call re-proves the claim; a refusal lapses it', () => {
  it('Sync refreshes last_proven_at; a 190 lapses the claim with its audit row', async () => {
    const page = await claim(adminA)
    const proven = async () =>
      (
        await rows<{ recent: boolean }>(
          sql`select last_proven_at > now() - interval '1 minute' as recent
              from meta_pages where page_id = ${page.id}`,
        )
      )[0]?.recent
    await t.db.execute(
      sql`update meta_pages set last_proven_at = now() - interval '10 minutes' where page_id = ${page.id}`,
    )
    expect(await proven()).toBe(false)
    const synced = await metaCall(t.app, adminA, 'POST', '/api/leads/sync')
    expect(synced.statusCode, synced.body).toBe(200)
    expect(await proven()).toBe(true)

    const lapsedBefore = (await auditsOf(hospitalA, 'meta.page_claim_lapsed')).length
    graph.failNext(graphErrors.expiredToken)
    expectError(await metaCall(t.app, adminA, 'POST', '/api/leads/sync'), 400)
    expect(await proven()).toBeUndefined()
    const lapsed = await auditsOf(hospitalA, 'meta.page_claim_lapsed')
    expect(lapsed.slice(lapsedBefore)).toEqual([
      {
        entity_type: 'meta_connection',
        entity_id: null,
        actor_user_id: null,
        summary: `The saved page access token or app secret no longer proves Meta page ${page.id}: the claim lapsed, and its webhook deliveries are refused until Test Connection succeeds again`,
      },
    ])
  })
})

describe('super admin: GET and DELETE /api/admin/meta-pages', () => {
  const list = async (query: string) => {
    const res = await metaCall(t.app, superAdmin, 'GET', `/api/admin/meta-pages${query}`)
    expect(res.statusCode, res.body).toBe(200)
    return metaPageClaimList.strict().parse(res.json())
  }

  it('pages with limit and offset, newest claim first; attention from exactly 5 failures', async () => {
    const older = await claim(adminA)
    const newer = await claim(adminB)
    await forged(older, SIGNATURE_FAILURES_FOR_ATTENTION - 1)
    await forged(newer, SIGNATURE_FAILURES_FOR_ATTENTION)
    const first = await list('?limit=1')
    expect([first.items.map((c) => c.pageId), first.total]).toEqual([[newer.id], 2])
    const second = await list('?limit=1&offset=1')
    expect([second.items.map((c) => c.pageId), second.total]).toEqual([[older.id], 2])
    const all = await list('')
    expect(
      all.items.map((c) => [c.pageId, c.hospitalId, c.signatureFailures, c.needsAttention]),
    ).toEqual([
      [newer.id, hospitalB, 5, true],
      [older.id, hospitalA, 4, false],
    ])
  })

  it("release: 404 names the claim; the page's route is dropped at once here; audited", async () => {
    const missing = await metaCall(
      t.app,
      superAdmin,
      'DELETE',
      `/api/admin/meta-pages/${graphId('8')}`,
    )
    expect(expectError(missing, 404, 'NOT_FOUND').message).toBe('Meta page claim not found')

    const page = await claim(adminB)
    const delivery = () =>
      postWebhook(
        t.app,
        leadgenDelivery([{ pageId: page.id, leadgenId: graphId('9') }]),
        page.appSecret,
      )
    await withFrozenDate(async () => {
      expect((await delivery()).statusCode).toBe(200) // the route is cached here
      const res = await metaCall(t.app, superAdmin, 'DELETE', `/api/admin/meta-pages/${page.id}`)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ pageId: page.id, hospitalId: hospitalB })
      expect(expectError(await delivery(), 403, 'FORBIDDEN').message).toBe('Invalid signature')
    })
    expect((await auditsOf(hospitalB, 'meta.page_released')).at(-1)).toEqual({
      entity_type: 'meta_connection',
      entity_id: null,
      actor_user_id: await userIdOf(t.db, SUPER_ADMIN_EMAIL),
      summary: `A platform super admin released Meta page ${page.id}: its webhook deliveries no longer reach this hospital until Test Connection proves the page again`,
    })
  })
})
