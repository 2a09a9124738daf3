import { readFile } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { faqSuggestions } from '../../src/shared/faq-suggestions'
import type { AddSuggestedResult, Faq, FaqList } from '../../src/shared/schemas/faqs'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 40 item 9: 'Add All' must not publish staff how-tos to patients. A FAQ is either for
// patients (isPublic: the public page /h/<slug>/faq) or staff-only help; the pre-built ones are
// staff-only; migration 0045 makes the pre-built rows of earlier releases staff-only.

let t: TestApp
let adminA: string
let adminB: string
let hospitalA: string
let slugA: string
let slugB: string

beforeAll(async () => {
  t = await createTestApp()
  adminA = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  const hospitalB = await hospitalIdOf(t.db, 'smiledental')
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

const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, body?: unknown) => {
  const headers = method === 'GET' ? { cookie } : browserHeaders(cookie)
  if (method !== 'GET' && body === undefined)
    delete (headers as Record<string, string>)['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

const publicPage = async (slug: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/h/${slug}/faq` })
  expect(res.statusCode).toBe(200)
  return res.body
}
const list = async (cookie: string) => (await call('GET', '/api/faqs', cookie)).json<FaqList>()

describe('Add All and the public page', () => {
  it('adds the 8 pre-built how-tos staff-only: the public page shows none of them', async () => {
    const res = await call('POST', '/api/faqs/suggested', adminB)
    expect(res.statusCode, res.body).toBe(201)
    const added = res.json<AddSuggestedResult>()
    expect(added.added).toBe(8)
    expect(added.faqs.every((f) => !f.isPublic)).toBe(true)
    expect((await list(adminB)).faqs.map((f) => f.isPublic)).toEqual(
      faqSuggestions.map(() => false),
    )
    const page = await publicPage(slugB)
    for (const s of faqSuggestions) expect(page).not.toContain(s.question)
  })

  it('an admin makes one public: then (and only then) the public page shows it', async () => {
    const payment = (await list(adminB)).faqs.find((f) => f.question.startsWith('Which payment'))!
    const res = await call('PUT', `/api/faqs/${payment.id}`, adminB, { isPublic: true })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<Faq>().isPublic).toBe(true)
    const page = await publicPage(slugB)
    expect(page).toContain('Which payment methods can patients use?')
    expect(page).not.toContain('How do I add a new patient?')
  })

  it("the demo hospital's public page shows its patient FAQs and hides the staff help", async () => {
    const faqs = (await list(adminA)).faqs
    expect(faqs.filter((f) => f.isPublic).length).toBeGreaterThan(0)
    const page = await publicPage(slugA)
    for (const f of faqs) {
      if (f.isPublic) expect(page).toContain(f.question.replace(/'/g, '&#39;'))
      else expect(page).not.toContain(f.question.replace(/'/g, '&#39;'))
    }
    for (const s of faqSuggestions) expect(page).not.toContain(s.question)
  })

  it('no pre-built answer names a button the app does not have or promises what it does not do', () => {
    const all = faqSuggestions.map((s) => s.answer).join('\n')
    expect(all).not.toMatch(/Add Patient(?! to System)/)
    expect(all).not.toMatch(/offered that record/)
    expect(faqSuggestions.find((s) => s.key === 'add-patient')?.answer).toMatch(/New Patient/)
  })
})

describe('migration 0045_faq_visibility', () => {
  it("makes earlier pre-built rows staff-only, corrects untouched answers, keeps the clinic's own", async () => {
    const before = (await readFile('drizzle/0045_faq_visibility.sql', 'utf8')).match(
      /\(E'add-patient', E'How do I add a new patient\?',\n {3}E'((?:[^']|'')*)'/,
    )?.[1]
    expect(before).toMatch(/click Add Patient/)
    const oldAnswer = before!.replace(/''/g, "'").replace(/\\n/g, '\n')
    // As an earlier release left them: public, one untouched, one rewritten by the clinic.
    await t.db.execute(sql`update faqs set is_public = true, answer = ${oldAnswer}
      where hospital_id = ${hospitalA} and suggestion_key = 'add-patient'`)
    await t.db.execute(sql`update faqs set is_public = true, answer = 'Our own words.'
      where hospital_id = ${hospitalA} and suggestion_key = 'team-members'`)
    await t.db.execute(sql`insert into faqs (hospital_id, question, answer, is_public)
      values (${hospitalA}, 'Do you have parking?', 'Yes, behind the clinic.', true)`)
    const migration = await readFile('drizzle/0045_faq_visibility.sql', 'utf8')
    for (const statement of migration.split('--> statement-breakpoint'))
      await t.db.execute(sql.raw(statement))
    const rows = await queryRows<{ q: string; answer: string; is_public: boolean; key: string }>(
      t.db,
      sql`select question as q, answer, is_public, suggestion_key as key from faqs
        where hospital_id = ${hospitalA}`,
    )
    const byKey = (key: string) => rows.find((r) => r.key === key)!
    expect(byKey('add-patient')).toMatchObject({
      is_public: false,
      answer: faqSuggestions.find((s) => s.key === 'add-patient')!.answer,
    })
    expect(byKey('team-members')).toMatchObject({ is_public: false, answer: 'Our own words.' })
    expect(rows.find((r) => r.q === 'Do you have parking?')?.is_public).toBe(true)
    expect(rows.filter((r) => r.key === null && r.is_public).length).toBeGreaterThan(1)
  })
})
