import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { faqSuggestions } from '../../src/shared/faq-suggestions'
import type { AddSuggestedResult, Faq, FaqList } from '../../src/shared/schemas/faqs'
import { hostileValue } from '../support/hostile'
import { expectError, expectNoInternals, issuePaths } from '../support/http'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 28, FAQ Management: /api/faqs (list, create, update, delete, reorder, Add All) and the
// public page /h/:slug/faq. Sanjeevani is seeded with 3 patient FAQs (public) and the 8
// pre-built staff how-tos (staff-only, issue 40 item 9); Smile Dental has none.

let t: TestApp
let hospitalA: string
let hospitalB: string
let slugA: string
let slugB: string
const a = new Map<DemoRole, string>()
let adminB: string

beforeAll(async () => {
  t = await createTestApp()
  for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const)
    a.set(role, await login(t.app, demoEmail(role)))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  const slugs = await queryRows<{ id: string; slug: string }>(
    t.db,
    sql`select id, slug from hospitals where id in (${hospitalA}, ${hospitalB})`,
  )
  slugA = slugs.find((s) => s.id === hospitalA)!.slug
  slugB = slugs.find((s) => s.id === hospitalB)!.slug
})
afterAll(async () => {
  await t?.close()
})

const admin = () => a.get('admin')!

/** The browser's headers; no JSON content type when there is no body. */
function writeHeaders(cookie: string | undefined, body: unknown): Record<string, string> {
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return headers
}

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  cookie?: string,
  body?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: method === 'GET' ? (cookie ? { cookie } : {}) : writeHeaders(cookie, body),
    ...(body === undefined
      ? {}
      : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  })

async function list(cookie: string, query = ''): Promise<FaqList> {
  const res = await call('GET', `/api/faqs${query}`, cookie)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<FaqList>()
}

async function create(cookie: string, body: Record<string, unknown>): Promise<Faq> {
  const res = await call('POST', '/api/faqs', cookie, body)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<Faq>()
}

const faqCount = async (hospitalId: string) =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.db,
        sql`select count(*)::text as n from faqs where hospital_id = ${hospitalId}`,
      )
    )[0]?.n,
  )

const auditCount = async (hospitalId: string) =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.db,
        sql`select count(*)::text as n from audit_events where hospital_id = ${hospitalId} and entity_type = 'faq'`,
      )
    )[0]?.n,
  )

describe('GET /api/faqs', () => {
  it('lists the seeded FAQs in sortOrder to every staff role, with the public path', async () => {
    for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const body = await list(a.get(role)!)
      expect(body.total).toBeGreaterThanOrEqual(8)
      expect(body.publicPath).toBe(`/h/${slugA}/faq`)
      const orders = body.faqs.map((f) => f.sortOrder)
      expect(orders).toEqual([...orders].sort((x, y) => x - y))
    }
  })

  it('searches question and answer (wildcards literal) and filters by category', async () => {
    const upi = await list(admin(), '?q=upi')
    expect(upi.faqs.map((f) => f.question)).toContain('Which payment methods can patients use?')
    expect((await list(admin(), '?q=%25')).faqs).toEqual([])
    const billing = await list(admin(), '?category=billing')
    expect(billing.faqs.length).toBeGreaterThan(0)
    expect(billing.faqs.every((f) => f.category === 'billing')).toBe(true)
    expect(billing.total).toBeGreaterThan(billing.faqs.length)
  })

  it('refuses a bad filter with 400, the signed-out with 401', async () => {
    expect(issuePaths(await call('GET', '/api/faqs?category=gossip', admin()))).toEqual([
      'category',
    ])
    expect(issuePaths(await call('GET', `/api/faqs?q=${'x'.repeat(101)}`, admin()))).toEqual(['q'])
    expect(issuePaths(await call('GET', '/api/faqs?sort=1', admin()))).toEqual(['query'])
    expectError(await call('GET', '/api/faqs'), 401)
  })

  it('a hospital without FAQs gets an empty list', async () => {
    const body = await list(adminB)
    expect(body).toMatchObject({ faqs: [], total: 0, publicPath: `/h/${slugB}/faq` })
  })
})

describe('create, update and delete', () => {
  it('creates with the spec defaults, updates and deletes, each audited', async () => {
    const audits = await auditCount(hospitalA)
    const created = await create(admin(), {
      question: 'Do you accept Ayushman Bharat cards?',
      answer: 'Yes, at the front desk.',
    })
    expect(created).toMatchObject({ category: 'general', sortOrder: 0, isPublic: true })
    const res = await call('PUT', `/api/faqs/${created.id}`, a.get('receptionist'), {
      category: 'billing',
      isPublic: false,
      sortOrder: 42,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<Faq>()).toMatchObject({ category: 'billing', isPublic: false, sortOrder: 42 })
    const del = await call('DELETE', `/api/faqs/${created.id}`, admin())
    expect(del.statusCode).toBe(204)
    expectError(await call('DELETE', `/api/faqs/${created.id}`, admin()), 404)
    expect(await auditCount(hospitalA)).toBe(audits + 3)
    const actions = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where entity_id = ${created.id} order by created_at`,
    )
    expect(actions.map((r) => r.action)).toEqual(['faq.created', 'faq.updated', 'faq.deleted'])
  })

  it('requires question and answer with the messages, refuses unknown fields and bad values', async () => {
    const before = await faqCount(hospitalA)
    const res = await call('POST', '/api/faqs', admin(), { question: ' ', answer: '' })
    const body = expectError(res, 400, 'VALIDATION')
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'question', message: 'Question is required' },
        { path: 'answer', message: 'Answer is required' },
      ]),
    )
    expect(
      issuePaths(
        await call('POST', '/api/faqs', admin(), { question: 'Q', answer: 'A', extra: 1 }),
      ),
    ).toEqual([''])
    expect(
      issuePaths(
        await call('POST', '/api/faqs', admin(), {
          question: 'Q',
          answer: 'A',
          category: 'gossip',
        }),
      ),
    ).toEqual(['category'])
    expect(
      issuePaths(
        await call('POST', '/api/faqs', admin(), { question: 'Q', answer: 'A', sortOrder: 1.5 }),
      ),
    ).toEqual(['sortOrder'])
    expect(
      issuePaths(
        await call('POST', '/api/faqs', admin(), { question: 'Q', answer: 'A', sortOrder: '3' }),
      ),
    ).toEqual(['sortOrder'])
    expect(
      issuePaths(
        await call('POST', '/api/faqs', admin(), { question: 'Q'.repeat(301), answer: 'A' }),
      ),
    ).toEqual(['question'])
    expect(
      issuePaths(
        await call('POST', '/api/faqs', admin(), { question: 'Q', answer: 'A'.repeat(5001) }),
      ),
    ).toEqual(['answer'])
    expect(
      issuePaths(await call('PUT', `/api/faqs/${(await list(admin())).faqs[0]!.id}`, admin(), {})),
    ).toEqual([''])
    expect(
      issuePaths(await call('PUT', '/api/faqs/not-a-uuid', admin(), { question: 'Q' })),
    ).toEqual(['id'])
    expectError(await call('POST', '/api/faqs', admin(), '{"question":'), 400)
    expect(await faqCount(hospitalA)).toBe(before)
  })

  it('refuses HTML or script in a question or answer with a clear 400, storing nothing', async () => {
    const before = await faqCount(hospitalA)
    for (const body of [
      { question: 'Hi <script>alert(1)</script>', answer: 'A' },
      { question: 'Q', answer: 'Fine\n\n<img src=x onerror=alert(1)>' },
      { question: 'Q', answer: '</p><b>bold</b>' },
    ]) {
      const res = await call('POST', '/api/faqs', admin(), body)
      const error = expectError(res, 400, 'VALIDATION')
      expect(error.message).toMatch(/HTML tags are not allowed/)
    }
    expect(await faqCount(hospitalA)).toBe(before)
  })

  it('stores "<" that is not a tag as text, and a javascript: link as text', async () => {
    const created = await create(admin(), {
      question: 'Is the fee < ₹500 & "fair"?',
      answer: 'Yes: a < b.\n\n[click](javascript:alert(1)) or [site](https://example.in)',
    })
    expect(created.answer).toBe(
      'Yes: a < b.\n\n[click](javascript:alert(1)) or [site](https://example.in)',
    )
    const page = await t.app.inject({ method: 'GET', url: `/h/${slugA}/faq?q=fair` })
    expect(page.body).toContain('Is the fee &lt; ₹500 &amp; &quot;fair&quot;?')
    expect(page.body).toContain('[click](javascript:alert(1))')
    expect(page.body).not.toContain('href="javascript:')
    expect(page.body).toContain(
      '<a href="https://example.in/" rel="noopener noreferrer nofollow">site</a>',
    )
    await call('DELETE', `/api/faqs/${created.id}`, admin())
  })

  it('refuses doctors, nurses and viewers with 403, changing nothing', async () => {
    const [first] = (await list(admin())).faqs
    const before = await faqCount(hospitalA)
    for (const role of ['doctor', 'nurse', 'viewer'] as const) {
      const cookie = a.get(role)
      expectError(await call('POST', '/api/faqs', cookie, { question: 'Q', answer: 'A' }), 403)
      expectError(await call('PUT', `/api/faqs/${first!.id}`, cookie, { question: 'Taken' }), 403)
      expectError(await call('DELETE', `/api/faqs/${first!.id}`, cookie), 403)
      expectError(await call('PUT', '/api/faqs/order', cookie, { ids: [] }), 403)
      expectError(await call('POST', '/api/faqs/suggested', cookie), 403)
    }
    expect(await faqCount(hospitalA)).toBe(before)
    expect((await list(admin())).faqs[0]).toEqual(first)
  })

  it("answers 404 for another hospital's FAQ and changes nothing", async () => {
    const [first] = (await list(admin())).faqs
    expectError(await call('PUT', `/api/faqs/${first!.id}`, adminB, { question: 'Mine now' }), 404)
    expectError(await call('DELETE', `/api/faqs/${first!.id}`, adminB), 404)
    expectError(await call('PUT', '/api/faqs/order', adminB, { ids: [first!.id] }), 400)
    expect((await list(admin())).faqs[0]).toEqual(first)
    expect(await faqCount(hospitalB)).toBe(0)
  })
})

describe('PUT /api/faqs/order', () => {
  it('saves the new order in one go, audited', async () => {
    const ids = (await list(admin())).faqs.map((f) => f.id)
    const reversed = [...ids].reverse()
    const res = await call('PUT', '/api/faqs/order', a.get('receptionist'), { ids: reversed })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<FaqList>().faqs.map((f) => f.id)).toEqual(reversed)
    expect((await list(admin())).faqs.map((f) => f.id)).toEqual(reversed)
    expect((await list(admin())).faqs.map((f) => f.sortOrder)).toEqual(reversed.map((_, i) => i))
    await call('PUT', '/api/faqs/order', admin(), { ids })
  })

  it('refuses a list that is not exactly the hospital FAQs', async () => {
    const ids = (await list(admin())).faqs.map((f) => f.id)
    const before = (await list(admin())).faqs
    for (const bad of [
      ids.slice(1),
      [...ids, '00000000-0000-4000-8000-000000000000'],
      [...ids.slice(1), ids[1]],
      [...ids.slice(1), '00000000-0000-4000-8000-000000000000'],
    ]) {
      expect(issuePaths(await call('PUT', '/api/faqs/order', admin(), { ids: bad }))).toEqual([
        'ids',
      ])
    }
    expect(issuePaths(await call('PUT', '/api/faqs/order', admin(), { ids: 'all' }))).toEqual([
      'ids',
    ])
    expect(issuePaths(await call('PUT', '/api/faqs/order', admin(), { ids: ['x'] }))).toEqual([
      'ids.0',
    ])
    expect((await list(admin())).faqs).toEqual(before)
  })
})

describe('POST /api/faqs/suggested (Add All)', () => {
  it('adds the 8 pre-built FAQs once, however often it is called', async () => {
    const first = await call('POST', '/api/faqs/suggested', adminB)
    expect(first.statusCode, first.body).toBe(201)
    expect(first.json<AddSuggestedResult>().added).toBe(8)
    const again = await call('POST', '/api/faqs/suggested', adminB)
    expect(again.statusCode).toBe(200)
    expect(again.json<AddSuggestedResult>()).toEqual({ added: 0, faqs: [] })
    const both = await Promise.all([
      call('POST', '/api/faqs/suggested', adminB),
      call('POST', '/api/faqs/suggested', adminB),
    ])
    for (const res of both) expect(res.statusCode).toBe(200)
    const body = await list(adminB)
    expect(body.faqs.map((f) => f.question)).toEqual(faqSuggestions.map((s) => s.question))
    expect(await faqCount(hospitalB)).toBe(8)
    expectError(await call('POST', '/api/faqs/suggested', adminB, { all: true }), 400)
  })
})

describe('GET /h/:slug/faq (public page)', () => {
  it("shows only the hospital's public FAQs, grouped by category, without signing in", async () => {
    const res = await t.app.inject({ method: 'GET', url: `/h/${slugA}/faq` })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers['cache-control']).toMatch(/public, max-age=60/)
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/)
    expect(res.body).toContain(
      '<title>Frequently asked questions · Sanjeevani Multispeciality Hospital, Pune</title>',
    )
    expect(res.body).toContain('What should I bring to my appointment?')
    expect(res.body).toContain('<h2 id="cat-billing">Billing</h2>')
    // The staff how-tos are staff-only, and Smile Dental's own never show here.
    expect(res.body).not.toContain('How do I add a new patient?')
    expect(res.body).not.toContain('How do I add team members')
    expect(res.body).not.toContain('<script')
    expectNoInternals(res)
  })

  it('searches with ?q= and says so; escapes the query', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/h/${slugA}/faq?q=${encodeURIComponent('upi')}`,
    })
    expect(res.body).toContain('Which payment methods do you accept?')
    expect(res.body).not.toContain('Which payment methods can patients use?')
    expect(res.body).toMatch(/1 answer for “upi”/)
    const hostile = await t.app.inject({
      method: 'GET',
      url: `/h/${slugA}/faq?q=${encodeURIComponent('"><script>alert(1)</script>\u0000')}`,
    })
    expect(hostile.statusCode).toBe(200)
    expect(hostile.body).not.toContain('<script>alert')
    expect(hostile.body).toContain('&lt;script&gt;')
    expect(hostile.body).toContain('No questions match your search.')
  })

  it('is 404 for an unknown or malformed slug, and keeps hospitals apart', async () => {
    for (const slug of ['no-such-clinic', 'UPPER', '..%2F..', 'a'.repeat(61)]) {
      const res = await t.app.inject({ method: 'GET', url: `/h/${slug}/faq` })
      expect(res.statusCode, slug).toBe(404)
      expect(res.body).toContain('FAQ page not found')
    }
    // Smile Dental (Add All above made the same questions): its page lists its own, all 8.
    const b = await t.app.inject({ method: 'GET', url: `/h/${slugB}/faq` })
    expect(b.statusCode).toBe(200)
    expect(b.body).toContain('Smile Dental Clinic, Bengaluru')
    expect(b.body).not.toContain('Sanjeevani')
  })
})

describe('hostile bodies', () => {
  it('never answer 5xx and never store garbage', async () => {
    const id = (await list(admin())).faqs[0]!.id
    const body = fc.oneof(
      hostileValue,
      fc.record(
        {
          question: hostileValue,
          answer: hostileValue,
          category: hostileValue,
          sortOrder: hostileValue,
          isPublic: hostileValue,
        },
        { requiredKeys: [] },
      ),
    )
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom('POST /api/faqs', 'PUT /api/faqs/id', 'PUT /api/faqs/order'),
        async (b, target) => {
          const [method, path] = target.split(' ') as ['POST' | 'PUT', string]
          const res = await call(method, path.replace('/id', `/${id}`), adminB, JSON.stringify(b))
          expect(res.statusCode, res.body).toBeLessThan(500)
          expectNoInternals(res)
        },
      ),
      { numRuns: 60 },
    )
    const rows = await queryRows<{ question: string; answer: string }>(
      t.db,
      sql`select question, answer from faqs where hospital_id = ${hospitalB}`,
    )
    for (const r of rows) {
      expect(r.question.trim().length).toBeGreaterThan(0)
      expect(r.question).not.toMatch(/<[a-z!?/]/i)
      expect(r.answer).not.toMatch(/<[a-z!?/]/i)
    }
  })
})
