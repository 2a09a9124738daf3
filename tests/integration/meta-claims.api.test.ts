import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  metaConnectionView,
  metaPageClaimList,
  metaWebhookMessages,
  releasedMetaPage,
} from '../../src/shared/schemas/meta'
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

// Issue 24: a page's claim lapses when the claiming hospital's token stops proving it, another
// hospital takes it over only through a fresh proof (and the former holder is told), and the
// super admin sees the claims and can release one (docs/decisions/021).

let graph: FakeGraph
let t: TestApp
let adminA: string
let adminB: string
let superAdmin: string
let hospitalA: string
let hospitalB: string

const SECRET = 'claims-app-secret-000000001'

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
  await t?.close()
  await graph?.close()
})

/** A page on the fake Graph whose token both hospitals may hold (an agency, a former admin). */
function newPage(): FakeGraphPage {
  const id = graphId('7')
  const page = { id, name: `Page ${id}`, token: `EAAGclaims${id}`, appSecret: SECRET, forms: [] }
  graph.pages.set(id, page)
  return page
}
const credentials = (p: FakeGraphPage) => ({ page: p.id, token: p.token, secret: p.appSecret })

const holderOf = async (pageId: string) =>
  (
    await queryRows<{ hospital_id: string }>(
      t.db,
      sql`select hospital_id from meta_pages where page_id = ${pageId}`,
    )
  )[0]?.hospital_id ?? null
const viewOf = async (cookie: string) =>
  metaConnectionView.parse((await metaCall(t.app, cookie, 'GET', '/api/integrations/meta')).json())
const auditsOf = (hospitalId: string, action: string) =>
  queryRows<{ summary: string; actor_user_id: string | null }>(
    t.db,
    sql`select summary, actor_user_id from audit_events
        where hospital_id = ${hospitalId} and action = ${action} order by created_at`,
  )
const mailsTo = (address: string) =>
  queryRows<{ subject: string; text_body: string }>(
    t.db,
    sql`select subject, text_body from email_outbox
        where to_address = ${address} and purpose = 'meta-page-taken-over'`,
  )
const jobsOf = async (hospitalId: string) =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from jobs where name = 'meta.fetch-lead' and hospital_id = ${hospitalId}`,
    )
  )[0]?.n ?? -1

describe('takeover by a fresh proof', () => {
  it("moves the page's webhook, tells the former hospital in Settings, by email and in its audit", async () => {
    const page = newPage()
    expect((await connectAndProve(t.app, adminA, credentials(page))).statusCode).toBe(200)
    expect(await holderOf(page.id)).toBe(hospitalA)
    const mailsBefore = (await mailsTo(demoEmail('admin'))).length

    // Hospital B proves the same page (it holds a valid token for it): it takes the page over.
    const taken = await connectAndProve(t.app, adminB, credentials(page))
    expect(taken.statusCode, taken.body).toBe(200)
    expect(await holderOf(page.id)).toBe(hospitalB)
    const b = await viewOf(adminB)
    expect([b.webhookReady, b.status, b.webhookError]).toEqual([true, 'ok', null])
    const a = await viewOf(adminA)
    expect([a.webhookReady, a.status, a.webhookError]).toEqual([
      false,
      'needs_attention',
      metaWebhookMessages.takenOver,
    ])
    expect(a.webhookError).toMatch(/connected to another hospital/)

    // Both hospitals' audit trails say so; neither names the other hospital.
    const lost = await auditsOf(hospitalA, 'meta.page_lost')
    expect(lost.at(-1)?.summary).toContain(`Meta page ${page.id} was connected to another hospital`)
    const won = await auditsOf(hospitalB, 'meta.page_taken_over')
    expect(won.at(-1)?.summary).toContain(`Meta page ${page.id} verified and taken over`)
    expect(won.at(-1)?.actor_user_id).toBe(await userIdOf(t.db, demoEmail('admin', 'smiledental')))
    for (const row of [...lost, ...won]) expect(row.summary).not.toMatch(/Smile|Sanjeevani/)

    // A's admin is emailed (the sandbox outbox); B's admin is not.
    const mails = await mailsTo(demoEmail('admin'))
    expect(mails.length).toBe(mailsBefore + 1)
    expect(mails.at(-1)?.subject).toBe('Your Facebook page was connected to another hospital')
    expect(mails.at(-1)?.text_body).toContain(`Facebook page ${page.id}`)
    expect(await mailsTo(demoEmail('admin', 'smiledental'))).toEqual([])

    // Deliveries for the page now reach B only.
    const jobsA = await jobsOf(hospitalA)
    const jobsB = await jobsOf(hospitalB)
    const res = await postWebhook(
      t.app,
      leadgenDelivery([{ pageId: page.id, leadgenId: graphId('9') }]),
      SECRET,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect([await jobsOf(hospitalA), await jobsOf(hospitalB)]).toEqual([jobsA, jobsB + 1])

    // A proves it again (its token is still valid too): it takes it back, and B is told.
    expect((await metaCall(t.app, adminA, 'POST', '/api/integrations/meta/test')).statusCode).toBe(
      200,
    )
    expect(await holderOf(page.id)).toBe(hospitalA)
    expect((await viewOf(adminA)).webhookError).toBeNull()
    expect((await viewOf(adminB)).webhookError).toBe(metaWebhookMessages.takenOver)
    expect(await mailsTo(demoEmail('admin', 'smiledental'))).toHaveLength(1)
  })

  it('is not possible without a valid proof: a revoked token or another app secret takes nothing', async () => {
    const page = newPage()
    expect((await connectAndProve(t.app, adminA, credentials(page))).statusCode).toBe(200)
    const revoked = await connectAndProve(t.app, adminB, {
      page: page.id,
      token: 'EAAGrevokedOrNeverValid000000',
      secret: SECRET,
    })
    expectError(revoked, 400)
    const otherApp = await connectAndProve(t.app, adminB, {
      ...credentials(page),
      secret: 'x'.repeat(20),
    })
    expect(expectError(otherApp, 400).message).toMatch(/Invalid appsecret_proof/)
    expect(await holderOf(page.id)).toBe(hospitalA)
    expect((await viewOf(adminA)).webhookError).toBeNull()
  })
})

describe('a claim lapses when the token stops proving the page', () => {
  it('on Sync (190): the route goes, and another hospital then claims it without a takeover', async () => {
    const page = newPage()
    expect((await connectAndProve(t.app, adminA, credentials(page))).statusCode).toBe(200)
    graph.failNext(graphErrors.expiredToken)
    expectError(await metaCall(t.app, adminA, 'POST', '/api/leads/sync'), 400)
    expect(await holderOf(page.id)).toBeNull()
    const a = await viewOf(adminA)
    expect([a.webhookReady, a.status]).toEqual([false, 'needs_attention'])
    expect((await auditsOf(hospitalA, 'meta.page_claim_lapsed')).at(-1)?.summary).toContain(page.id)
    // The page's deliveries are refused now (Meta retries them).
    const body = leadgenDelivery([{ pageId: page.id, leadgenId: graphId('9') }])
    expectError(await postWebhook(t.app, body, SECRET), 403)

    const mailsBefore = (await mailsTo(demoEmail('admin'))).length
    expect((await connectAndProve(t.app, adminB, credentials(page))).statusCode).toBe(200)
    expect(await holderOf(page.id)).toBe(hospitalB)
    expect(await mailsTo(demoEmail('admin'))).toHaveLength(mailsBefore) // nothing was taken
    expect((await auditsOf(hospitalB, 'meta.page_verified')).at(-1)?.summary).toContain(page.id)
  })

  it('on Test Connection: when /me no longer answers the page, or Meta refuses the token', async () => {
    const page = newPage()
    expect((await connectAndProve(t.app, adminA, credentials(page))).statusCode).toBe(200)
    // Meta now says the token is another page's.
    const other = newPage()
    other.token = page.token
    page.token = 'EAAGmovedAway00000000000000'
    expectError(await metaCall(t.app, adminA, 'POST', '/api/integrations/meta/test'), 400)
    expect(await holderOf(page.id)).toBeNull()
    expect(await holderOf(other.id)).toBeNull()

    const second = newPage()
    expect((await connectAndProve(t.app, adminA, credentials(second))).statusCode).toBe(200)
    graph.failNext(graphErrors.expiredToken)
    expectError(await metaCall(t.app, adminA, 'POST', '/api/integrations/meta/test'), 400)
    expect(await holderOf(second.id)).toBeNull()
  })
})

describe('super admin: GET and DELETE /api/admin/meta-pages', () => {
  it('lists claims with hospital, times and refusals, and releases one (audited)', async () => {
    const page = newPage()
    expect((await connectAndProve(t.app, adminB, credentials(page))).statusCode).toBe(200)
    for (let i = 0; i < 6; i++) {
      const forged = leadgenDelivery([{ pageId: page.id, leadgenId: graphId('9') }])
      expectError(await postWebhook(t.app, forged, 'forged-secret-0000'), 403)
    }
    const res = await metaCall(t.app, superAdmin, 'GET', '/api/admin/meta-pages?limit=100')
    expect(res.statusCode, res.body).toBe(200)
    const list = metaPageClaimList.strict().parse(res.json())
    const claim = list.items.find((c) => c.pageId === page.id)
    expect(claim).toMatchObject({
      hospitalId: hospitalB,
      hospitalName: expect.stringMatching(/Smile/) as unknown,
      signatureFailures: 6,
      recentRefusals: 6,
      needsAttention: true,
    })
    expect(Date.parse(claim?.claimedAt ?? '')).toBeLessThanOrEqual(Date.now())
    expect(Date.parse(claim?.lastProvenAt ?? '')).toBeGreaterThan(Date.now() - 60_000)
    expect(list.total).toBeGreaterThanOrEqual(list.items.length)
    expectError(
      await metaCall(t.app, superAdmin, 'GET', '/api/admin/meta-pages?limit=0'),
      400,
      'VALIDATION',
    )
    expectError(
      await metaCall(t.app, superAdmin, 'GET', '/api/admin/meta-pages?x=1'),
      400,
      'VALIDATION',
    )

    const del = (cookie: string | undefined, pageId: string) =>
      metaCall(t.app, cookie, 'DELETE', `/api/admin/meta-pages/${pageId}`)
    // Only the super admin; a bad or unknown page id is 400 or 404.
    expectError(await del(adminB, page.id), 403)
    expectError(await del(undefined, page.id), 401)
    expectError(await del(superAdmin, 'not-a-page'), 400, 'VALIDATION')
    expectError(await del(superAdmin, graphId('8')), 404)
    expect(await holderOf(page.id)).toBe(hospitalB)

    const released = await del(superAdmin, page.id)
    expect(released.statusCode, released.body).toBe(200)
    expect(releasedMetaPage.strict().parse(released.json())).toEqual({
      pageId: page.id,
      hospitalId: hospitalB,
    })
    expect(await holderOf(page.id)).toBeNull()
    const b = await viewOf(adminB)
    expect([b.webhookReady, b.status, b.webhookError]).toEqual([
      false,
      'needs_attention',
      metaWebhookMessages.released,
    ])
    const audit = (await auditsOf(hospitalB, 'meta.page_released')).at(-1)
    expect(audit?.summary).toContain(page.id)
    expect(audit?.actor_user_id).toBe(await userIdOf(t.db, SUPER_ADMIN_EMAIL))
    expectError(await del(superAdmin, page.id), 404)
    // The hospital proves it again: routed, and the message is gone.
    expect((await metaCall(t.app, adminB, 'POST', '/api/integrations/meta/test')).statusCode).toBe(
      200,
    )
    expect((await viewOf(adminB)).webhookError).toBeNull()
  })

  it('is for super admins only', async () => {
    for (const email of [demoEmail('admin'), demoEmail('receptionist', 'smiledental')]) {
      const cookie = await login(t.app, email)
      expectError(await metaCall(t.app, cookie, 'GET', '/api/admin/meta-pages'), 403)
    }
    expectError(await metaCall(t.app, undefined, 'GET', '/api/admin/meta-pages'), 401)
  })
})
