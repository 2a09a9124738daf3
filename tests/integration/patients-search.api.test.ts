import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PATIENTS_PER_DEMO_HOSPITAL } from '../../src/server/db/seed/demo'
import { NEXT_CURSOR_HEADER } from '../../src/shared/schemas/common'
import type { Patient } from '../../src/shared/schemas/patients'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import { createPatient, listPatients, manualPatientPayload, patientsOf } from '../support/patients'
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
  all = patientsOf(await listPatients(t.app, cookie, '?limit=100'))
  const withEmail = all.find((x): x is Patient & { email: string } => x.email !== null)
  if (!withEmail) throw new Error('no seeded patient with an email')
  p = withEmail
})
afterAll(async () => {
  await t?.close()
})

async function search(text: string): Promise<Patient[]> {
  return patientsOf(
    await listPatients(t.app, cookie, `?limit=100&search=${encodeURIComponent(text)}`),
  )
}

/**
 * What a search matches (docs/decisions/011), any letter case: a prefix of the name from any
 * of its first four words, of the email or of the patient number; for phone-like text, a
 * prefix of the number's digits or of the phone's digits, with or without the country code,
 * and (issue 26) 3 or more digits anywhere in the phone's digits.
 */
function matches(x: Patient, text: string): boolean {
  const needle = text.trim().replace(/\s+/g, ' ').toLowerCase()
  const words = x.name.trim().replace(/\s+/g, ' ').toLowerCase().split(' ')
  const fromWord = words.slice(0, 4).map((_, i) => words.slice(i).join(' '))
  const digits = text.replace(/\D/g, '')
  const national = digits.replace(/^0+/, '') || digits
  const phoneLike = /^[\d\s()+.-]+$/.test(text.trim()) && digits.length > 0
  const phoneDigits = x.phone.replace(/\D/g, '')
  return (
    fromWord.some((w) => w.startsWith(needle)) ||
    (x.email ?? '').startsWith(needle) ||
    x.patientNumber.startsWith(needle.toUpperCase()) ||
    (phoneLike &&
      ((x.patientNumber.split('-').at(-1) ?? '').startsWith(digits) ||
        (digits.length >= 3 && phoneDigits.includes(digits)) ||
        phoneDigits.startsWith(national) ||
        phoneDigits.startsWith(`91${national}`)))
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
    const byName = patientsOf(await listPatients(t.app, cookie, '?limit=100&sort=name'))
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
      `?search=${letter}&limit=100&cursor=${first.headers[NEXT_CURSOR_HEADER] as string}`,
    )
    expect([...patientsOf(first), ...patientsOf(second)].map((x) => x.id)).toEqual(expected)
  })

  it('rejects a bad limit, a forged cursor and unknown parameters with 400', async () => {
    expect(issuePaths(await listPatients(t.app, cookie, '?limit=0'))).toEqual(['limit'])
    expect(issuePaths(await listPatients(t.app, cookie, '?limit=101'))).toEqual(['limit'])
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
  it('matches the start of any word of a name, whatever the letter case', async () => {
    const [first, last] = p.name.split(' ') as [string, string]
    const part = first.slice(0, 4)
    for (const text of [
      part,
      part.toUpperCase(),
      part.toLowerCase(),
      p.name.toUpperCase(),
      last,
      last.slice(0, 3).toLowerCase(),
      `${first} ${last.slice(0, 2)}`,
      `  ${first}   ${last}  `,
    ]) {
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

  it('does not match the inside of a word (search is by prefix since 011)', async () => {
    const word = p.name.split(' ')[1]!
    const inside = word.slice(1)
    const found = await search(inside)
    expect(found.map((x) => x.id)).not.toContain(p.id)
    expect(found.map((x) => x.id)).toEqual(all.filter((x) => matches(x, inside)).map((x) => x.id))
  })

  it('matches a phone by its first digits or any run of 3+, including the ways people type it', async () => {
    const national = p.phone.slice(3)
    const typed = [
      p.phone,
      national,
      national.slice(0, 5),
      `0${national.slice(0, 4)}`,
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
        found.map((x) => x.id),
        text,
      ).toEqual(all.filter((x) => matches(x, text)).map((x) => x.id))
    }
    // Digits from the middle or the end of the number match too (issue 26); two do not.
    for (const text of [national.slice(-5), national.slice(2, 8), national.slice(-4)]) {
      const found = (await search(text)).map((x) => x.id)
      expect(found, text).toContain(p.id)
      expect(found, text).toEqual(all.filter((x) => matches(x, text)).map((x) => x.id))
    }
    const two = national.slice(-2)
    expect((await search(two)).map((x) => x.id)).toEqual(
      all.filter((x) => matches(x, two)).map((x) => x.id),
    )
  })

  it('finds nothing for text no patient has, and treats LIKE wildcards literally', async () => {
    expect(await search('zzqqxx')).toEqual([])
    expect(await search('%')).toEqual([])
    expect(await search('_')).toEqual([])
    expect(await search('\\')).toEqual([])
    expect(await search("'; drop table patients; --")).toEqual([])
    expect(await search('00000000000')).toEqual([])
    expect(patientsOf(await listPatients(t.app, cookie, '?limit=100'))).toHaveLength(
      PATIENTS_PER_DEMO_HOSPITAL,
    )
  })

  it('treats an empty or blank search as no search', async () => {
    expect((await search('')).length).toBe(PATIENTS_PER_DEMO_HOSPITAL)
    expect((await search('   ')).length).toBe(PATIENTS_PER_DEMO_HOSPITAL)
  })
})

describe('search by words of longer names', () => {
  it('matches from each of the first four words on, not from a fifth', async () => {
    const desk = await login(t.app, demoEmail('receptionist'))
    const name = 'Smt. Lakshmi Devi Qwertyan Zxcvbward'
    const res = await createPatient(t.app, desk, manualPatientPayload({ name, email: null }))
    expect(res.statusCode).toBe(201)
    const id = res.json<Patient>().id
    for (const text of ['smt', 'Lakshmi De', 'devi qwert', 'QWERTYAN', 'qwertyan zx']) {
      expect(
        (await search(text)).map((x) => x.id),
        text,
      ).toContain(id)
    }
    // The fifth word alone, and words out of order, are not a prefix of any suffix of four.
    for (const text of ['zxcvbward', 'qwertyan devi']) {
      expect(
        (await search(text)).map((x) => x.id),
        text,
      ).not.toContain(id)
    }
  })
})
