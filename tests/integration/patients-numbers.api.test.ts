import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PATIENTS_PER_DEMO_HOSPITAL } from '../../src/server/db/seed/demo'
import { formatPatientNumber, patient, TOTAL_COUNT_HEADER } from '../../src/shared/schemas/patients'
import { expectError } from '../support/http'
import { login } from '../support/login'
import {
  countRows,
  createPatient,
  listPatients,
  manualPatientPayload,
  patientsOf,
} from '../support/patients'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 7: every patient gets a per-hospital sequential number (UHID/MRN), SMH-000123.
let t: TestApp
let sanjeevani: string
let smile: string
let sanjeevaniCookie: string
let smileCookie: string

beforeAll(async () => {
  t = await createTestApp()
  sanjeevani = await hospitalIdOf(t.db, 'sanjeevani')
  smile = await hospitalIdOf(t.db, 'smiledental')
  sanjeevaniCookie = await login(t.app, demoEmail('receptionist'))
  smileCookie = await login(t.app, demoEmail('receptionist', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
})

/** The number part of 'SMH-000123'. */
const valueOf = (patientNumber: string) => Number(patientNumber.split('-').at(-1))

async function add(cookie: string, name: string): Promise<string> {
  const res = await createPatient(t.app, cookie, { name, phone: '98450 12345' })
  expect(res.statusCode, res.body).toBe(201)
  return patient.strict().parse(res.json()).patientNumber
}

async function numbersOf(hospitalId: string): Promise<string[]> {
  const rows = await queryRows<{ n: string }>(
    t.db,
    sql`select patient_number as n from patients where hospital_id = ${hospitalId} order by patient_number`,
  )
  return rows.map((r) => r.n)
}

describe('patient numbers', () => {
  it('numbers the seeded patients 1 to 60 per hospital, with the prefix of its name', async () => {
    const expected = (prefix: string) =>
      Array.from({ length: PATIENTS_PER_DEMO_HOSPITAL }, (_, i) =>
        formatPatientNumber(prefix, i + 1),
      )
    expect(await numbersOf(sanjeevani)).toEqual(expected('SMH'))
    expect(await numbersOf(smile)).toEqual(expected('SDC'))
    const counters = await queryRows<{ hospital_id: string; prefix: string; next_value: number }>(
      t.db,
      sql`select hospital_id, prefix, next_value from patient_number_counters order by prefix`,
    )
    expect(counters).toEqual([
      { hospital_id: smile, prefix: 'SDC', next_value: PATIENTS_PER_DEMO_HOSPITAL + 1 },
      { hospital_id: sanjeevani, prefix: 'SMH', next_value: PATIENTS_PER_DEMO_HOSPITAL + 1 },
    ])
  })

  it('gives 50 concurrent adds 50 distinct, consecutive numbers', async () => {
    const before = await countRows(t.db, 'patients')
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createPatient(t.app, sanjeevaniCookie, manualPatientPayload({ name: `Rush ${i}` })),
      ),
    )
    for (const res of responses) expect(res.statusCode, res.body).toBe(201)
    const numbers = responses.map((res) => patient.strict().parse(res.json()).patientNumber)
    for (const n of numbers) expect(n).toMatch(/^SMH-\d{6}$/)
    expect(new Set(numbers).size).toBe(50)
    const values = numbers.map(valueOf).sort((a, b) => a - b)
    const first = values[0] ?? NaN
    expect(values).toEqual(Array.from({ length: 50 }, (_, i) => first + i))
    expect(first).toBe(PATIENTS_PER_DEMO_HOSPITAL + 1)
    expect(await countRows(t.db, 'patients')).toBe(before + 50)
    // What each response said is what was stored.
    const stored = await queryRows<{ n: string }>(
      t.db,
      sql`select patient_number as n from patients where hospital_id = ${sanjeevani} and name like 'Rush %'`,
    )
    expect(stored.map((r) => r.n).sort()).toEqual([...numbers].sort())
  })

  it('keeps one sequence per hospital', async () => {
    const a = await add(sanjeevaniCookie, 'Sequence A')
    const b = await add(smileCookie, 'Sequence B')
    expect(b).toBe(formatPatientNumber('SDC', PATIENTS_PER_DEMO_HOSPITAL + 1))
    expect(a.startsWith('SMH-')).toBe(true)
    expect(await add(smileCookie, 'Sequence B2')).toBe(
      formatPatientNumber('SDC', PATIENTS_PER_DEMO_HOSPITAL + 2),
    )
    expect(await add(sanjeevaniCookie, 'Sequence A2')).toBe(
      formatPatientNumber('SMH', valueOf(a) + 1),
    )
  })

  it('burns no number on a refused or rolled-back add', async () => {
    const last = valueOf(await add(smileCookie, 'Before Failures'))
    // Refused by validation, and by the plan limit.
    expect(
      (await createPatient(t.app, smileCookie, { name: 'Bad', phone: '1234567890' })).statusCode,
    ).toBe(400)
    const [count] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where hospital_id = ${smile}`,
    )
    await queryRows(
      t.db,
      sql`update hospitals set max_patients = ${count?.n ?? 0} where id = ${smile}`,
    )
    try {
      expectError(
        await createPatient(t.app, smileCookie, { name: 'Over', phone: '98450 12345' }),
        409,
        'CONFLICT',
      )
    } finally {
      await queryRows(t.db, sql`update hospitals set max_patients = null where id = ${smile}`)
    }
    // Rolled back after the number was taken: the audit row cannot be written.
    await t.db.execute(sql`alter table audit_events rename to audit_events_away`)
    try {
      expectError(
        await createPatient(t.app, smileCookie, { name: 'Rolled Back', phone: '98450 12345' }),
        500,
        'INTERNAL',
      )
    } finally {
      await t.db.execute(sql`alter table audit_events_away rename to audit_events`)
    }
    expect(await add(smileCookie, 'After Failures')).toBe(formatPatientNumber('SDC', last + 1))
  })

  it('cannot be chosen, changed or seen across hospitals', async () => {
    const created = await createPatient(
      t.app,
      smileCookie,
      manualPatientPayload({ patientNumber: 'SDC-999999' }),
    )
    expect(expectError(created, 400, 'VALIDATION').message).toMatch(/patientNumber/)
    const [row] = patientsOf(await listPatients(t.app, smileCookie, '?limit=1'))
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/patients/${row?.id}`,
      headers: {
        cookie: smileCookie,
        host: 'localhost',
        origin: 'http://localhost',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ patientNumber: 'SDC-000001' }),
    })
    expectError(patch, 400, 'VALIDATION')
    const search = await listPatients(t.app, smileCookie, '?search=SMH-000001&count=1')
    expect(patientsOf(search)).toEqual([])
    expect(search.headers[TOTAL_COUNT_HEADER]).toBe('0')
  })

  it('continues past 999999 with more digits', async () => {
    await queryRows(
      t.db,
      sql`update patient_number_counters set next_value = 999999 where hospital_id = ${smile}`,
    )
    expect(await add(smileCookie, 'Six Nines')).toBe('SDC-999999')
    expect(await add(smileCookie, 'Seven Digits')).toBe('SDC-1000000')
  })
})

describe('search by patient number', () => {
  it('finds a patient by the full number in any case, or by its digits', async () => {
    const target = formatPatientNumber('SMH', 12)
    for (const text of [target, target.toLowerCase(), '000012', 'SMH-00001']) {
      const res = await listPatients(
        t.app,
        sanjeevaniCookie,
        `?limit=100&count=1&search=${encodeURIComponent(text)}`,
      )
      const found = patientsOf(res)
      expect(
        found.map((p) => p.patientNumber),
        text,
      ).toContain(target)
      expect(res.headers[TOTAL_COUNT_HEADER], text).toBe(String(found.length))
    }
    const exact = patientsOf(await listPatients(t.app, sanjeevaniCookie, `?search=${target}`))
    expect(exact.map((p) => p.patientNumber)).toEqual([target])
  })
})
