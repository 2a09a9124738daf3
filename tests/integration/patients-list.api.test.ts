import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NEXT_CURSOR_HEADER } from '../../src/shared/schemas/common'
import { type PatientSort, TOTAL_COUNT_HEADER } from '../../src/shared/schemas/patients'
import { login } from '../support/login'
import { createPatient, listPatients, manualPatientPayload, patientsOf } from '../support/patients'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 7: GET /api/patients?search=&sort=recent|name&limit=&cursor=, with x-total-count.
let t: TestApp
let cookie: string
let smileCookie: string
let hospitalId: string

beforeAll(async () => {
  t = await createTestApp()
  cookie = await login(t.app, demoEmail('receptionist'))
  smileCookie = await login(t.app, demoEmail('viewer', 'smiledental'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
  // Added one after another, so their created_at differ (the seed's 60 share one).
  for (const name of ['Zubin Later', 'Aarti Later', 'Meena Later'])
    expect((await createPatient(t.app, cookie, manualPatientPayload({ name }))).statusCode).toBe(
      201,
    )
})
afterAll(async () => {
  await t?.close()
})

const orderBy: Record<PatientSort, ReturnType<typeof sql>> = {
  recent: sql`created_at desc, id desc`,
  name: sql`name, id`,
}

async function idsInSql(sort: PatientSort, search?: string): Promise<string[]> {
  const filter = search
    ? sql`and (name ilike ${`%${search}%`} or email ilike ${`%${search}%`} or patient_number ilike ${`%${search}%`} or phone like ${`%${search}%`})`
    : sql``
  const rows = await queryRows<{ id: string }>(
    t.db,
    sql`select id::text as id from patients where hospital_id = ${hospitalId} ${filter} order by ${orderBy[sort]}`,
  )
  return rows.map((r) => r.id)
}

/** Every page of a list, following x-next-cursor; checks x-total-count on each page. */
async function allPages(query: string, pageSize: number): Promise<string[]> {
  const seen: string[] = []
  const totals = new Set<string>()
  let cursor: string | undefined
  let pages = 0
  do {
    const res = await listPatients(
      t.app,
      cookie,
      `?${query}&limit=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`,
    )
    const page = patientsOf(res)
    expect(page.length).toBeLessThanOrEqual(pageSize)
    seen.push(...page.map((p) => p.id))
    totals.add(String(res.headers[TOTAL_COUNT_HEADER]))
    const next = res.headers[NEXT_CURSOR_HEADER]
    cursor = typeof next === 'string' ? next : undefined
    pages++
  } while (cursor && pages < 100)
  expect([...totals]).toEqual([String(seen.length)])
  return seen
}

describe('sort', () => {
  it('puts the patient just added on top by default', async () => {
    const added = await createPatient(t.app, cookie, manualPatientPayload({ name: 'Newest Yet' }))
    const [first] = patientsOf(await listPatients(t.app, cookie, '?limit=1'))
    expect(first?.id).toBe(added.json<{ id: string }>().id)
    const [recent] = patientsOf(await listPatients(t.app, cookie, '?limit=1&sort=recent'))
    expect(recent?.id).toBe(first?.id)
  })

  it.each(['recent', 'name'] as const)(
    'orders sort=%s as the database does, and pages it without duplicates or gaps',
    async (sort) => {
      const expected = await idsInSql(sort)
      expect(
        patientsOf(await listPatients(t.app, cookie, `?limit=500&sort=${sort}`)).map((p) => p.id),
      ).toEqual(expected)
      for (const size of [1, 7, 64]) {
        const seen = await allPages(`sort=${sort}`, size)
        expect(new Set(seen).size).toBe(seen.length)
        expect(seen).toEqual(expected)
      }
    },
  )

  it.each(['recent', 'name'] as const)('pages a search with sort=%s', async (sort) => {
    for (const search of ['a', 'Later', 'SMH-00001']) {
      const expected = await idsInSql(sort, search)
      expect(expected.length, search).toBeGreaterThan(0)
      const seen = await allPages(`sort=${sort}&search=${encodeURIComponent(search)}`, 4)
      expect(seen, search).toEqual(expected)
    }
  })

  it('ends the list at a cursor naming another hospital’s patient', async () => {
    const [theirs] = patientsOf(await listPatients(t.app, smileCookie, '?limit=1'))
    for (const sort of ['recent', 'name']) {
      const res = await listPatients(t.app, cookie, `?sort=${sort}&cursor=${theirs?.id}`)
      expect(patientsOf(res)).toEqual([])
      expect(res.headers[NEXT_CURSOR_HEADER]).toBeUndefined()
      expect(res.headers[TOTAL_COUNT_HEADER]).toBe(String((await idsInSql('name')).length))
    }
  })
})

describe('x-total-count', () => {
  it('counts every patient of the hospital without a search, whatever the page size', async () => {
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where hospital_id = ${hospitalId}`,
    )
    for (const query of ['', '?limit=1', '?limit=500', '?sort=name&limit=3']) {
      const res = await listPatients(t.app, cookie, query)
      expect(res.headers[TOTAL_COUNT_HEADER], query).toBe(String(row?.n))
    }
  })

  it('counts the matches of a search over all pages, and 0 for none', async () => {
    const res = await listPatients(t.app, cookie, '?search=Later&limit=1')
    expect(patientsOf(res)).toHaveLength(1)
    expect(res.headers[TOTAL_COUNT_HEADER]).toBe('3')
    expect(res.headers[NEXT_CURSOR_HEADER]).toBeDefined()
    const none = await listPatients(t.app, cookie, '?search=zzqqxx')
    expect(none.headers[TOTAL_COUNT_HEADER]).toBe('0')
  })

  it('counts only the caller’s hospital', async () => {
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where hospital_id <> ${hospitalId}`,
    )
    const res = await listPatients(t.app, smileCookie, '?limit=1')
    expect(res.headers[TOTAL_COUNT_HEADER]).toBe(String(row?.n))
    const later = await listPatients(t.app, smileCookie, '?search=Later')
    expect(later.headers[TOTAL_COUNT_HEADER]).toBe('0')
  })
})
