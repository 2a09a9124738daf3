import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { metaConnectionView, metaSyncResult, metaTestResult } from '../../src/shared/schemas/meta'
import {
  fakeLead,
  type FakeGraph,
  type FakeGraphPage,
  graphErrors,
  startFakeGraph,
} from '../support/fakes/meta-graph'
import { expectError } from '../support/http'
import { e164, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import { graphId, metaCall } from '../support/meta'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Meta lead ads on the server (docs/decisions/016): the connection, Test Connection and Sync,
// against a local fake of the Graph API that checks every request's shape.

let graph: FakeGraph
let t: TestApp
let admin: string
let receptionist: string
let viewer: string
let adminB: string
let hospitalA: string

const TOKEN = 'EAAGtestPageAccessToken1234567890abcdWXYZ'
const APP_SECRET = 'f00dfeedcafe0123456789abcdef9876'
const VERIFY = 'verify-token-for-sanjeevani-2026'

beforeAll(async () => {
  graph = await startFakeGraph()
  t = await createTestApp({ metaGraph: { baseUrl: graph.url, version: graph.version } })
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  viewer = await login(t.app, demoEmail('viewer'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
})
afterAll(async () => {
  await t?.close()
  await graph?.close()
})

function addPage(forms: FakeGraphPage['forms'], overrides: Partial<FakeGraphPage> = {}) {
  const page: FakeGraphPage = {
    id: graphId('7'),
    name: 'Sanjeevani Hospital',
    token: TOKEN,
    appSecret: APP_SECRET,
    forms,
    ...overrides,
  }
  graph.pages.clear()
  graph.pages.set(page.id, page)
  return page
}

async function connect(cookie: string, body: Record<string, unknown>) {
  const res = await metaCall(t.app, cookie, 'PUT', '/api/integrations/meta', body)
  expect(res.statusCode, res.body).toBe(200)
  return metaConnectionView.strict().parse(res.json())
}

async function sync(cookie = receptionist) {
  const res = await metaCall(t.app, cookie, 'POST', '/api/leads/sync')
  expect(res.statusCode, res.body).toBe(200)
  return metaSyncResult.strict().parse(res.json())
}

const routeOf = async (pageId: string) =>
  (
    await queryRows<{ hospital_id: string }>(
      t.db,
      sql`select hospital_id from meta_pages where page_id = ${pageId}`,
    )
  )[0]?.hospital_id

const viewOf = async (cookie: string) =>
  (await metaCall(t.app, cookie, 'GET', '/api/integrations/meta')).json() as unknown

const leadsWhere = (condition: ReturnType<typeof sql>) =>
  queryRows<Record<string, string | null>>(
    t.db,
    sql`select name, phone, email, source, service_interest, campaign, meta_lead_id, meta_form_id, hospital_id
        from leads where ${condition}`,
  )

describe('connection', () => {
  it('starts empty, saves, and never returns or stores a secret in the clear', async () => {
    const empty = await metaCall(t.app, adminB, 'GET', '/api/integrations/meta')
    expect(empty.statusCode).toBe(200)
    expect(metaConnectionView.strict().parse(empty.json())).toMatchObject({
      pageId: null,
      pageAccessToken: { set: false },
      status: 'ok',
    })
    const page = addPage([])
    const view = await connect(admin, {
      pageId: page.id,
      pageAccessToken: TOKEN,
      appSecret: APP_SECRET,
      verifyToken: VERIFY,
    })
    expect(view).toEqual({
      pageId: page.id,
      pageAccessToken: { set: true, last4: 'WXYZ' },
      appSecret: { set: true, last4: '9876' },
      verifyToken: { set: true, last4: '2026' },
      status: 'ok',
      lastError: null,
      webhookError: null,
      lastSyncAt: null,
      webhookReady: false,
    })
    const read = await metaCall(t.app, admin, 'GET', '/api/integrations/meta')
    for (const secret of [TOKEN, APP_SECRET, VERIFY]) expect(read.body).not.toContain(secret)
    const [row] = await queryRows<Record<string, string>>(
      t.db,
      sql`select * from meta_connections where hospital_id = ${hospitalA}`,
    )
    const stored = JSON.stringify(row)
    for (const secret of [TOKEN, APP_SECRET, VERIFY]) expect(stored).not.toContain(secret)
    expect(row?.page_access_token_enc).toMatch(/^v1:test:/)
    // Saved is not proved: the page's webhook reaches the hospital only after Test Connection.
    expect(await routeOf(page.id)).toBeUndefined()
    expect((await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test')).statusCode).toBe(
      200,
    )
    expect(await routeOf(page.id)).toBe(hospitalA)
    expect(metaConnectionView.parse(await viewOf(admin)).webhookReady).toBe(true)
  })

  it('routes a page only for its own token, and withdraws the route when page or token change', async () => {
    const page = addPage([])
    const other: FakeGraphPage = {
      id: graphId('7'),
      name: 'Somebody Else Clinic',
      token: 'EAAGtokenOfAnotherPage000000000',
      appSecret: APP_SECRET,
      forms: [],
    }
    graph.pages.set(other.id, other)
    // The token of another page, saved with this page's ID: refused, nothing routed.
    await connect(admin, { pageId: page.id, pageAccessToken: other.token, appSecret: APP_SECRET })
    const wrong = expectError(
      await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test'),
      400,
    )
    expect(wrong.message).toBe(
      `This page access token belongs to the page "Somebody Else Clinic" (ID ${other.id}), not to page ${page.id}. Paste the token of page ${page.id}, or change the page ID.`,
    )
    expect(await routeOf(page.id)).toBeUndefined()
    expect(await routeOf(other.id)).toBeUndefined()
    // Its own token: routed.
    await connect(admin, { pageAccessToken: TOKEN })
    expect((await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test')).statusCode).toBe(
      200,
    )
    expect(await routeOf(page.id)).toBe(hospitalA)
    // A new verify token keeps the route and changes the handshake's digest.
    await connect(admin, { verifyToken: 'a-brand-new-verify-token-0042' })
    expect(await routeOf(page.id)).toBe(hospitalA)
    const hello = await t.app.inject({
      method: 'GET',
      url: `/api/webhooks/meta?hub.mode=subscribe&hub.verify_token=a-brand-new-verify-token-0042&hub.challenge=42`,
    })
    expect(hello.statusCode).toBe(200)
    expect(hello.body).toBe('42')
    // Another token (even for the same page) must be proved again.
    const saved = await connect(admin, { pageAccessToken: `${TOKEN}2` })
    expect(saved.webhookReady).toBe(false)
    expect(await routeOf(page.id)).toBeUndefined()
    await connect(admin, { pageAccessToken: TOKEN })
    await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test')
    expect(await routeOf(page.id)).toBe(hospitalA)
    // Another page ID withdraws it too.
    await connect(admin, { pageId: graphId('7') })
    expect(await routeOf(page.id)).toBeUndefined()
  })

  it('leaves a secret left out unchanged, clears one sent empty', async () => {
    const page = addPage([])
    await connect(admin, { pageId: page.id, pageAccessToken: TOKEN, appSecret: APP_SECRET })
    const kept = await connect(admin, { pageId: page.id })
    expect(kept.pageAccessToken).toEqual({ set: true, last4: 'WXYZ' })
    const cleared = await connect(admin, { verifyToken: '' })
    expect(cleared.verifyToken).toEqual({ set: false })
    expect(cleared.appSecret.set).toBe(true)
  })

  it('refuses bad input; another hospital takes a connected page only by proving it', async () => {
    const page = addPage([])
    await connect(admin, { pageId: page.id, pageAccessToken: TOKEN, appSecret: APP_SECRET })
    await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test')
    expectError(
      await metaCall(t.app, admin, 'PUT', '/api/integrations/meta', { pageId: 'abc' }),
      400,
      'VALIDATION',
    )
    expectError(
      await metaCall(t.app, admin, 'PUT', '/api/integrations/meta', { other: 1 }),
      400,
      'VALIDATION',
    )
    expectError(
      await metaCall(t.app, admin, 'PUT', '/api/integrations/meta', { pageAccessToken: 'a b' }),
      400,
      'VALIDATION',
    )
    // Another hospital saving the page takes nothing; with a token of another app's secret,
    // Test Connection fails and still takes nothing (meta-claims.api.test.ts: takeovers).
    await connect(adminB, {
      pageId: page.id,
      pageAccessToken: TOKEN,
      appSecret: 'the-secret-of-another-app-0000',
    })
    expect(await routeOf(page.id)).toBe(hospitalA)
    expectError(await metaCall(t.app, adminB, 'POST', '/api/integrations/meta/test'), 400)
    expect(await routeOf(page.id)).toBe(hospitalA)
    expect(metaConnectionView.parse(await viewOf(adminB)).webhookReady).toBe(false)
    expect(metaConnectionView.parse(await viewOf(admin)).webhookReady).toBe(true)
    await connect(adminB, { pageId: '', pageAccessToken: '', appSecret: '' })
  })

  it('is for administrators only', async () => {
    for (const cookie of [receptionist, viewer]) {
      expectError(await metaCall(t.app, cookie, 'GET', '/api/integrations/meta'), 403)
      expectError(
        await metaCall(t.app, cookie, 'PUT', '/api/integrations/meta', { pageId: '1' }),
        403,
      )
      expectError(await metaCall(t.app, cookie, 'POST', '/api/integrations/meta/test'), 403)
    }
    expectError(await metaCall(t.app, undefined, 'GET', '/api/integrations/meta'), 401)
  })
})

describe('Test Connection', () => {
  it('answers the page name, with the token in the header and a correct proof', async () => {
    const page = addPage([], { name: 'Sanjeevani Multispeciality' })
    await connect(admin, { pageId: page.id, pageAccessToken: TOKEN, appSecret: APP_SECRET })
    const before = graph.requests.length
    const res = await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test')
    expect(res.statusCode, res.body).toBe(200)
    expect(metaTestResult.strict().parse(res.json())).toEqual({
      ok: true,
      pageName: 'Sanjeevani Multispeciality',
    })
    const request = graph.requests[before]
    expect(request?.path).toBe('/v21.0/me')
    expect(request?.query.get('fields')).toBe('id,name')
    expect(request?.authorization).toBe(`Bearer ${TOKEN}`)
    expect(request?.query.get('access_token')).toBeNull()
    expect(graph.shapeErrors).toEqual([])
  })

  it("gives Meta's text for an expired token (190) and marks the connection", async () => {
    const page = addPage([])
    await connect(admin, { pageId: page.id, pageAccessToken: TOKEN, appSecret: APP_SECRET })
    graph.failNext(graphErrors.expiredToken)
    const body = expectError(
      await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test'),
      400,
    )
    expect(body.message).toBe(`Meta API Error: ${graphErrors.expiredToken.body.error.message}`)
    const view = metaConnectionView.parse(
      (await metaCall(t.app, admin, 'GET', '/api/integrations/meta')).json(),
    )
    expect(view.status).toBe('needs_attention')
    expect(view.lastError).toContain('Session has expired')
    // A new token clears it.
    const fixed = await connect(admin, { pageAccessToken: TOKEN })
    expect(fixed.status).toBe('ok')
  })

  it('maps rate limits to 429 and other Graph errors to 502 with their text', async () => {
    const page = addPage([])
    await connect(admin, { pageId: page.id, pageAccessToken: TOKEN, appSecret: APP_SECRET })
    graph.failNext(graphErrors.rateLimited)
    expectError(await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test'), 429)
    graph.failNext(graphErrors.unknownObject)
    const body = expectError(
      await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test'),
      502,
    )
    expect(body.message).toMatch(/^Meta API Error: Unsupported get request/)
  })

  it('proves the app secret: Graph refusing the appsecret_proof is a clear 400, and nothing is routed', async () => {
    const page = addPage([])
    await connect(admin, { pageId: page.id, pageAccessToken: TOKEN, appSecret: APP_SECRET })
    expect((await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test')).statusCode).toBe(
      200,
    )
    expect(await routeOf(page.id)).toBe(hospitalA)
    // A new app secret is unproven: the route goes at once, until Test Connection proves it.
    const saved = await connect(admin, { appSecret: 'not-the-real-app-secret-000' })
    expect(saved.webhookReady).toBe(false)
    expect(await routeOf(page.id)).toBeUndefined()
    const body = expectError(
      await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test'),
      400,
    )
    expect(body.message).toBe(
      "Meta API Error: Invalid appsecret_proof provided in the API argument. The App Secret is not the secret of the Meta app this page access token was made for: copy it from the app's dashboard (App settings → Basic), save it and run Test Connection again.",
    )
    const view = metaConnectionView.parse(await viewOf(admin))
    expect([view.status, view.lastError, view.webhookReady]).toEqual([
      'needs_attention',
      body.message,
      false,
    ])
    expect(await routeOf(page.id)).toBeUndefined()
    // The right one: proven, routed, and the mark is gone.
    await connect(admin, { appSecret: APP_SECRET })
    expect((await metaCall(t.app, admin, 'POST', '/api/integrations/meta/test')).statusCode).toBe(
      200,
    )
    expect(await routeOf(page.id)).toBe(hospitalA)
    expect(metaConnectionView.parse(await viewOf(admin)).status).toBe('ok')
    // We always send the proof; a wrong one is Meta's answer, not a shape error of ours.
    expect(graph.shapeErrors).toEqual([])
  })
})

describe('Sync', () => {
  it('names the missing configuration', async () => {
    await connect(admin, { pageId: '', pageAccessToken: '', appSecret: '' })
    let body = expectError(await metaCall(t.app, receptionist, 'POST', '/api/leads/sync'), 400)
    expect(body.message).toBe('Meta page ID is not set. Set it in Settings → Integrations.')
    await connect(admin, { pageId: graphId('7') })
    body = expectError(await metaCall(t.app, receptionist, 'POST', '/api/leads/sync'), 400)
    expect(body.message).toBe(
      'Meta page access token is not set. Set it in Settings → Integrations.',
    )
    await connect(admin, { pageAccessToken: TOKEN })
    body = expectError(await metaCall(t.app, receptionist, 'POST', '/api/leads/sync'), 400)
    expect(body.message).toBe('Meta app secret is not set. Set it in Settings → Integrations.')
  })

  it('maps the records, follows paging, merges a known phone, is idempotent on re-run', async () => {
    const known = uniqueMobile(92_000)
    const made = await metaCall(t.app, receptionist, 'POST', '/api/leads', {
      name: 'Walk-in Patient',
      phone: known,
      email: null,
      serviceInterest: null,
      campaign: null,
      notes: null,
      priority: 'medium',
      source: 'walk-in',
    })
    expect(made.statusCode, made.body).toBe(201)
    const full = fakeLead(
      {
        full_name: 'Meera Iyer',
        email: 'Meera@Example.com',
        phone_number: uniqueMobile(92_000),
        service_interest: 'IVF',
      },
      { campaign_name: 'Diwali IVF camp' },
    )
    const nameless = fakeLead({ phone_number: `+91 ${uniqueMobile(92_000)}`, message: 'Knee pain' })
    const insta = fakeLead(
      { full_name: 'Ravi', phone_number: uniqueMobile(92_000) },
      { platform: 'ig', ad_name: 'Reel 3' },
    )
    const bad = fakeLead({ full_name: 'No Phone', phone_number: '12' })
    const merge = fakeLead({
      full_name: 'Walk-in Again',
      phone_number: known,
      email: 'walkin@example.com',
    })
    const page = addPage([
      { id: graphId('4'), name: 'IVF form', leads: [full, nameless, insta] },
      { id: graphId('4'), name: 'Ortho form', leads: [bad, merge] },
    ])
    await connect(admin, { pageId: page.id, pageAccessToken: TOKEN, appSecret: APP_SECRET })
    const before = graph.requests.length
    expect(await sync()).toEqual({ processed: 5, created: 3, duplicates: 1, errors: 1 })
    expect(graph.shapeErrors).toEqual([])
    const leadPages = graph.requests.slice(before).filter((r) => r.path.endsWith('/leads'))
    expect(leadPages.length).toBe(3) // 2 + 1 on the first form, 2 on the second
    for (const r of graph.requests.slice(before)) expect(r.query.get('access_token')).toBeNull()

    const [a] = await leadsWhere(sql`meta_lead_id = ${full.id}`)
    expect(a).toMatchObject({
      name: 'Meera Iyer',
      email: 'meera@example.com',
      source: 'meta-facebook',
      service_interest: 'IVF',
      campaign: 'Diwali IVF camp',
      meta_form_id: page.forms[0]?.id,
      hospital_id: hospitalA,
    })
    const [b] = await leadsWhere(sql`meta_lead_id = ${nameless.id}`)
    expect(b).toMatchObject({
      name: `Lead ${nameless.id.slice(-6)}`,
      service_interest: 'Knee pain',
    })
    const [c] = await leadsWhere(sql`meta_lead_id = ${insta.id}`)
    expect(c).toMatchObject({
      source: 'meta-instagram',
      service_interest: 'General Inquiry',
      campaign: 'Reel 3',
    })
    const merged = await leadsWhere(sql`phone = ${e164(known)}`)
    expect(merged).toHaveLength(1)
    expect(merged[0]).toMatchObject({
      name: 'Walk-in Patient',
      email: 'walkin@example.com',
      meta_lead_id: merge.id,
    })

    const view = metaConnectionView.parse(
      (await metaCall(t.app, admin, 'GET', '/api/integrations/meta')).json(),
    )
    expect(view.lastSyncAt).not.toBeNull()
    // Again: nothing new, nothing twice (the lead since the last sync minus an overlap).
    expect(await sync()).toEqual({ processed: 5, created: 0, duplicates: 4, errors: 1 })
    const [notes] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from communications c join leads l on l.id = c.lead_id
          where l.phone = ${e164(known)} and c.type = 'system'`,
    )
    expect(notes?.n).toBe(1)
  })

  it('a viewer may not sync; an expired token marks the connection', async () => {
    expectError(await metaCall(t.app, viewer, 'POST', '/api/leads/sync'), 403)
    const page = addPage([{ id: graphId('4'), name: 'F', leads: [] }])
    await connect(admin, { pageId: page.id, pageAccessToken: TOKEN, appSecret: APP_SECRET })
    graph.failNext(graphErrors.expiredToken)
    const body = expectError(await metaCall(t.app, receptionist, 'POST', '/api/leads/sync'), 400)
    expect(body.message).toMatch(/^Meta API Error: Error validating access token/)
    const view = metaConnectionView.parse(
      (await metaCall(t.app, admin, 'GET', '/api/integrations/meta')).json(),
    )
    expect(view.status).toBe('needs_attention')
    expectError(await metaCall(t.app, receptionist, 'POST', '/api/leads/sync', { extra: 1 }), 400)
  })
})
