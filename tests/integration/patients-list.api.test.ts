import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PAGE_SIZE, NEXT_CURSOR_HEADER, PAGE_SIZE } from '../../src/shared/schemas/common'
import { type PatientSort, TOTAL_COUNT_HEADER } from '../../src/shared/schemas/patients'
import { expectError } from '../support/http'
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
// Issue 16: one page size (30 by default, at most 100); the count only when asked (count=1).
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

/** The list in SQL; a search is a prefix of any word of the name, of the email or number. */
async function idsInSql(sort: PatientSort, search?: string): Promise<string[]> {
  const filter = search
    ? sql`and ((' ' || lower(name)) like ${`% ${search.toLowerCase()}%`} or lower(email) like ${`${search.toLowerCase()}%`} or patient_number like ${`${search.toUpperCase()}%`})`
    : sql``
  const rows = await queryRows<{ id: string }>(
    t.db,
    sql`select id::text as id from patients where hospital_id = ${hospitalId} ${filter} order by ${orderBy[sort]}`,
  )
  return rows.map((r) => r.id)
}

/**
 * Every page of a list, following x-next-cursor, as the web client asks for them: the count
 * with the first page only. Checks the first page's x-total-count against all pages, and
 * that only full pages have a next cursor.
 */
async function allPages(query: string, pageSize: number): Promise<string[]> {
  const seen: string[] = []
  let total: unknown
  let cursor: string | undefined
  let pages = 0
  do {
    const res = await listPatients(
      t.app,
      cookie,
      `?${query}&limit=${pageSize}${cursor ? `&cursor=${cursor}` : '&count=1'}`,
    )
    const page = patientsOf(res)
    if (pages === 0) total = res.headers[TOTAL_COUNT_HEADER]
    else expect(res.headers[TOTAL_COUNT_HEADER]).toBeUndefined()
    seen.push(...page.map((p) => p.id))
    const next = res.headers[NEXT_CURSOR_HEADER]
    cursor = typeof next === 'string' ? next : undefined
    expect(page.length).toBe(cursor ? pageSize : page.length)
    expect(page.length).toBeLessThanOrEqual(pageSize)
    pages++
  } while (cursor && pages < 100)
  expect(total).toBe(String(seen.length))
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
        patientsOf(await listPatients(t.app, cookie, `?limit=100&sort=${sort}`)).map((p) => p.id),
      ).toEqual(expected)
      for (const size of [1, 7, 30, 64]) {
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
      const res = await listPatients(t.app, cookie, `?sort=${sort}&cursor=${theirs?.id}&count=1`)
      expect(patientsOf(res)).toEqual([])
      expect(res.headers[NEXT_CURSOR_HEADER]).toBeUndefined()
      expect(res.headers[TOTAL_COUNT_HEADER]).toBe(String((await idsInSql('name')).length))
    }
  })
})

describe('page size', () => {
  it('is 30 by default, the web client’s page (PAGE_SIZE)', async () => {
    expect(PAGE_SIZE).toBe(30)
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where hospital_id = ${hospitalId}`,
    )
    expect(row?.n).toBeGreaterThan(PAGE_SIZE)
    for (const query of ['', '?sort=name']) {
      const res = await listPatients(t.app, cookie, query)
      expect(patientsOf(res), query).toHaveLength(PAGE_SIZE)
      expect(res.headers[NEXT_CURSOR_HEADER], query).toBeDefined()
    }
  })

  it('is at most 100 (MAX_PAGE_SIZE): more is a 400 that names the field', async () => {
    expect(MAX_PAGE_SIZE).toBe(100)
    expect((await listPatients(t.app, cookie, '?limit=100')).statusCode).toBe(200)
    for (const limit of ['101', '500', '100000']) {
      const res = expectError(
        await listPatients(t.app, cookie, `?limit=${limit}`),
        400,
        'VALIDATION',
      )
      expect(res.issues, limit).toEqual([{ path: 'limit', message: 'limit must be at most 100' }])
    }
  })
})

describe('x-total-count', () => {
  it('is sent only when asked with count=1', async () => {
    for (const query of ['', '?count=0', '?search=Later', '?sort=name&limit=3']) {
      const res = await listPatients(t.app, cookie, query)
      expect(res.statusCode, query).toBe(200)
      expect(res.headers[TOTAL_COUNT_HEADER], query).toBeUndefined()
    }
    for (const value of ['2', 'true', 'yes'])
      expectError(await listPatients(t.app, cookie, `?count=${value}`), 400, 'VALIDATION')
  })

  it('counts every patient of the hospital without a search, whatever the page size', async () => {
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where hospital_id = ${hospitalId}`,
    )
    for (const query of [
      '?count=1',
      '?limit=1&count=1',
      '?limit=100&count=1',
      '?sort=name&limit=3&count=1',
    ]) {
      const res = await listPatients(t.app, cookie, query)
      expect(res.headers[TOTAL_COUNT_HEADER], query).toBe(String(row?.n))
    }
  })

  it('counts the matches of a search over all pages, and 0 for none', async () => {
    const res = await listPatients(t.app, cookie, '?search=Later&limit=1&count=1')
    expect(patientsOf(res)).toHaveLength(1)
    expect(res.headers[TOTAL_COUNT_HEADER]).toBe('3')
    expect(res.headers[NEXT_CURSOR_HEADER]).toBeDefined()
    const none = await listPatients(t.app, cookie, '?search=zzqqxx&count=1')
    expect(none.headers[TOTAL_COUNT_HEADER]).toBe('0')
  })

  it('counts only the caller’s hospital', async () => {
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where hospital_id <> ${hospitalId}`,
    )
    const res = await listPatients(t.app, smileCookie, '?limit=1&count=1')
    expect(res.headers[TOTAL_COUNT_HEADER]).toBe(String(row?.n))
    const later = await listPatients(t.app, smileCookie, '?search=Later&count=1')
    expect(later.headers[TOTAL_COUNT_HEADER]).toBe('0')
  })
})
