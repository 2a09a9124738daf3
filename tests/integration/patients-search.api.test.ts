import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PATIENTS_PER_DEMO_HOSPITAL } from '../../src/server/db/seed/demo'
import { NEXT_CURSOR_HEADER } from '../../src/shared/schemas/common'
import type { Patient } from '../../src/shared/schemas/patients'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import { listPatients, patientsOf } from '../support/patients'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

let t: TestApp
let cookie: string
let hospitalId: string
let all: Patient[]
/** A seeded patient with an email, used as the search target. */
let p: Patient & { email: string }

beforeAll(async () => {
  t = await createTestApp()
  cookie = await login(t.app, demoEmail('viewer'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
  all = patientsOf(await listPatients(t.app, cookie, '?limit=500'))
  const withEmail = all.find((x): x is Patient & { email: string } => x.email !== null)
  if (!withEmail) throw new Error('no seeded patient with an email')
  p = withEmail
})
afterAll(async () => {
  await t?.close()
})

async function search(text: string): Promise<Patient[]> {
  return patientsOf(
    await listPatients(t.app, cookie, `?limit=500&search=${encodeURIComponent(text)}`),
  )
}

/** What the spec says a search matches: name or email case-insensitively, or phone digits. */
function matches(x: Patient, text: string): boolean {
  const needle = text.trim().toLowerCase()
  const digits = text.replace(/\D/g, '').replace(/^0+/, '')
  return (
    x.name.toLowerCase().includes(needle) ||
    (x.email ?? '').toLowerCase().includes(needle) ||
    x.phone.includes(text.trim()) ||
    (digits.length > 0 && /^[\d\s()+.-]+$/.test(text.trim()) && x.phone.includes(digits))
  )
}

describe('GET /api/patients', () => {
  it('lists the hospital’s seeded patients', () => {
    expect(all).toHaveLength(PATIENTS_PER_DEMO_HOSPITAL)
    expect(all.every((x) => x.hospitalId === hospitalId)).toBe(true)
  })

  it('orders newest first by default, then by id', async () => {
    const rows = await queryRows<{ id: string }>(
      t.db,
      sql`select id::text as id from patients where hospital_id = ${hospitalId} order by created_at desc, id desc`,
    )
    expect(all.map((x) => x.id)).toEqual(rows.map((r) => r.id))
  })

  it('orders by name, then id, in the database’s collation, with sort=name', async () => {
    const rows = await queryRows<{ id: string }>(
      t.db,
      sql`select id::text as id from patients where hospital_id = ${hospitalId} order by name, id`,
    )
    const byName = patientsOf(await listPatients(t.app, cookie, '?limit=500&sort=name'))
    expect(byName.map((x) => x.id)).toEqual(rows.map((r) => r.id))
  })

  it('pages through all patients with limit and cursor, without duplicates or gaps', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const query = `?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
      const res = await listPatients(t.app, cookie, query)
      const page = patientsOf(res)
      expect(page.length).toBeLessThanOrEqual(7)
      seen.push(...page.map((x) => x.id))
      const next = res.headers[NEXT_CURSOR_HEADER]
      cursor = typeof next === 'string' ? next : undefined
      pages++
    } while (cursor && pages < 50)
    expect(pages).toBe(Math.ceil(PATIENTS_PER_DEMO_HOSPITAL / 7))
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen).toEqual(all.map((x) => x.id))
  })

  it('sends no next cursor on the last page, and pages a search too', async () => {
    const exact = await listPatients(t.app, cookie, `?limit=${PATIENTS_PER_DEMO_HOSPITAL}`)
    expect(patientsOf(exact)).toHaveLength(PATIENTS_PER_DEMO_HOSPITAL)
    expect(exact.headers[NEXT_CURSOR_HEADER]).toBeUndefined()
    const letter = 'a'
    const expected = all.filter((x) => matches(x, letter)).map((x) => x.id)
    const first = await listPatients(t.app, cookie, `?search=${letter}&limit=5`)
    const second = await listPatients(
      t.app,
      cookie,
      `?search=${letter}&limit=500&cursor=${first.headers[NEXT_CURSOR_HEADER] as string}`,
    )
    expect([...patientsOf(first), ...patientsOf(second)].map((x) => x.id)).toEqual(expected)
  })

  it('rejects a bad limit, a forged cursor and unknown parameters with 400', async () => {
    expect(issuePaths(await listPatients(t.app, cookie, '?limit=0'))).toEqual(['limit'])
    expect(issuePaths(await listPatients(t.app, cookie, '?limit=501'))).toEqual(['limit'])
    expect(issuePaths(await listPatients(t.app, cookie, '?limit=ten'))).toEqual(['limit'])
    expect(issuePaths(await listPatients(t.app, cookie, '?cursor=not-a-cursor'))).toEqual([
      'cursor',
    ])
    const forged = Buffer.from(JSON.stringify({ name: "' or 1=1 --", id: 'x' })).toString(
      'base64url',
    )
    expect(issuePaths(await listPatients(t.app, cookie, `?cursor=${forged}`))).toEqual(['cursor'])
    const cursor = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const value of [
      { name: 'a\u0000b', id: crypto.randomUUID() },
      { name: 'a', id: '-'.repeat(36) },
      { name: 'a', id: 'g'.repeat(8) + crypto.randomUUID().slice(8) },
      { name: 42, id: crypto.randomUUID() },
      [],
    ]) {
      expect(
        issuePaths(await listPatients(t.app, cookie, `?cursor=${cursor(value)}`)),
        JSON.stringify(value),
      ).toEqual(['cursor'])
    }
    expect(issuePaths(await listPatients(t.app, cookie, '?search=a%00b'))).toEqual(['search'])
    // Invalid UTF-8 in the URL is decoded as replacement characters: a search like any other.
    expect(patientsOf(await listPatients(t.app, cookie, '?search=%ED%A0%80'))).toEqual([])
    expect(issuePaths(await listPatients(t.app, cookie, '?sort=oldest'))).toEqual(['sort'])
    expect(issuePaths(await listPatients(t.app, cookie, '?order=name'))).toEqual(['query'])
    expectError(await listPatients(t.app, cookie, `?search=${'x'.repeat(201)}`), 400, 'VALIDATION')
    expectError(await listPatients(t.app, cookie, '?search=a&search=b'), 400, 'VALIDATION')
  })
})

describe('search', () => {
  it('matches part of a name, whatever the letter case', async () => {
    const part = p.name.split(' ')[0]!.slice(0, 4)
    for (const text of [part, part.toUpperCase(), part.toLowerCase(), p.name.toUpperCase()]) {
      const found = await search(text)
      expect(
        found.map((x) => x.id),
        text,
      ).toContain(p.id)
      expect(
        found.every((x) => matches(x, text)),
        text,
      ).toBe(true)
      expect(
        found.map((x) => x.id),
        text,
      ).toEqual(all.filter((x) => matches(x, text)).map((x) => x.id))
    }
  })

  it('matches an email, whatever the letter case', async () => {
    for (const text of [p.email, p.email.toUpperCase(), p.email.split('@')[0]!]) {
      const found = await search(text)
      expect(
        found.map((x) => x.id),
        text,
      ).toContain(p.id)
      expect(
        found.every((x) => matches(x, text)),
        text,
      ).toBe(true)
    }
  })

  it('matches a phone by substring, including the ways people type it', async () => {
    const national = p.phone.slice(3)
    const typed = [
      p.phone,
      national,
      national.slice(-5),
      national.slice(2, 8),
      `${national.slice(0, 5)} ${national.slice(5)}`,
      `0${national}`,
      `+91 ${national.slice(0, 5)} ${national.slice(5)}`,
      `${national.slice(0, 5)}-${national.slice(5)}`,
    ]
    for (const text of typed) {
      const found = await search(text)
      expect(
        found.map((x) => x.id),
        text,
      ).toContain(p.id)
      expect(
        found.every((x) => matches(x, text)),
        text,
      ).toBe(true)
    }
  })

  it('finds nothing for text no patient has, and treats LIKE wildcards literally', async () => {
    expect(await search('zzqqxx')).toEqual([])
    expect(await search('%')).toEqual([])
    expect(await search('_')).toEqual([])
    expect(await search('\\')).toEqual([])
    expect(await search("'; drop table patients; --")).toEqual([])
    expect(await search('00000000000')).toEqual([])
    expect(patientsOf(await listPatients(t.app, cookie, '?limit=500'))).toHaveLength(
      PATIENTS_PER_DEMO_HOSPITAL,
    )
  })

  it('treats an empty or blank search as no search', async () => {
    expect((await search('')).length).toBe(PATIENTS_PER_DEMO_HOSPITAL)
    expect((await search('   ')).length).toBe(PATIENTS_PER_DEMO_HOSPITAL)
  })
})
