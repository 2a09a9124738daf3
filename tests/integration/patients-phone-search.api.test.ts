import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Tx } from '../../src/server/db/client'
import type { Patient } from '../../src/shared/schemas/patients'
import { login } from '../support/login'
import {
  createPatient,
  listPatients,
  manualPatientPayload,
  patchPatient,
  patientsOf,
} from '../support/patients'
import { createTestApp, demoEmail, hospitalIdOf, type TestApp } from '../support/test-app'

/*
 * Issue 26's search regression: any run of 3 or more digits typed in the patient search (and
 * the booking picker, which calls the same GET /api/patients?search=) matches anywhere in the
 * phone, inside the caller's hospital only, through the trigram index of drizzle/0018.
 */

let t: TestApp
let desk: string
let dentalDesk: string
let sanjeevani: string
let smileDental: string
/** Sanjeevani's patient: +91 97310 58264. */
let kavita: Patient
/** SmileDental's patient: +91 88604 71952. */
let farhan: Patient

beforeAll(async () => {
  t = await createTestApp()
  desk = await login(t.app, demoEmail('receptionist'))
  dentalDesk = await login(t.app, demoEmail('receptionist', 'smiledental'))
  sanjeevani = await hospitalIdOf(t.db, 'sanjeevani')
  smileDental = await hospitalIdOf(t.db, 'smiledental')
  const a = await createPatient(
    t.app,
    desk,
    manualPatientPayload({ name: 'Kavita Deshpande', email: null, phone: '97310 58264' }),
  )
  expect(a.statusCode, a.body).toBe(201)
  kavita = a.json<Patient>()
  const b = await createPatient(
    t.app,
    dentalDesk,
    manualPatientPayload({ name: 'Farhan Qureshi', email: null, phone: '+91 88604 71952' }),
  )
  expect(b.statusCode, b.body).toBe(201)
  farhan = b.json<Patient>()
})
afterAll(async () => {
  await t?.close()
})

async function search(cookie: string, text: string): Promise<Patient[]> {
  return patientsOf(
    await listPatients(t.app, cookie, `?limit=100&search=${encodeURIComponent(text)}`),
  )
}
const ids = (rows: Patient[]) => rows.map((x) => x.id)

describe('phone search by any run of 3 or more digits', () => {
  it('stores the phones the tests rely on', () => {
    expect(kavita.phone).toBe('+919731058264')
    expect(farhan.phone).toBe('+918860471952')
  })

  it('finds a patient by the last 4 digits of the mobile', async () => {
    const found = await search(desk, '8264')
    expect(ids(found)).toContain(kavita.id)
    // Every row found has the run somewhere in its phone (or starts with it elsewhere).
    for (const x of found) expect(x.phone.replace(/\D/g, ''), x.name).toContain('8264')
  })

  it('finds a patient by a run from the middle of the number, and by 3 digits', async () => {
    for (const text of ['10582', '310 58', '0582', '826', '731']) {
      expect(ids(await search(desk, text)), text).toContain(kavita.id)
    }
  })

  it('accepts the ways people type a number: spaces, dashes, brackets, +91', async () => {
    for (const text of [
      '058 264',
      '058-264',
      '(0) 58264',
      '97310-58264',
      '+91 97310 58264',
      '+91-97310-58264',
      '+919731058264',
      '09731058264',
      '  8264  ',
    ]) {
      expect(ids(await search(desk, text)), text).toContain(kavita.id)
    }
  })

  it('does not match 2 digits anywhere but at the start of the number', async () => {
    // '58' is inside Kavita's number but starts neither 9731058264 nor 919731058264.
    const found = await search(desk, '58')
    expect(ids(found)).not.toContain(kavita.id)
    for (const x of found) {
      const digits = x.phone.replace(/\D/g, '')
      const number = x.patientNumber.split('-').at(-1) ?? ''
      expect(
        digits.startsWith('58') || digits.startsWith('9158') || number.startsWith('58'),
        `${x.name} ${x.phone} ${x.patientNumber}`,
      ).toBe(true)
    }
    // The start of the number still matches with 2 digits (decision 011's prefixes).
    expect(ids(await search(desk, '97'))).toContain(kavita.id)
  })

  it('matches digits only in text that looks like a phone', async () => {
    for (const text of ['x8264', '8264a', '82%64', '82_64', 'Kavita 8264']) {
      expect(ids(await search(desk, text)), text).not.toContain(kavita.id)
    }
  })

  it('never finds another hospital’s patient', async () => {
    for (const text of ['71952', '1952', '604 71', '+91 88604 71952']) {
      const fromSanjeevani = await search(desk, text)
      expect(ids(fromSanjeevani), text).not.toContain(farhan.id)
      expect(fromSanjeevani.every((x) => x.hospitalId === sanjeevani)).toBe(true)
      expect(ids(await search(dentalDesk, text)), text).toContain(farhan.id)
    }
    const fromSmileDental = await search(dentalDesk, '8264')
    expect(ids(fromSmileDental)).not.toContain(kavita.id)
    expect(fromSmileDental.every((x) => x.hospitalId === smileDental)).toBe(true)
  })

  it('finds a number again after it changes, and not by its old digits', async () => {
    const created = await createPatient(
      t.app,
      desk,
      manualPatientPayload({ name: 'Ramesh Kulkarni', email: null, phone: '96235 40718' }),
    )
    expect(created.statusCode, created.body).toBe(201)
    const ramesh = created.json<Patient>()
    expect(ids(await search(desk, '40718'))).toContain(ramesh.id)
    const patched = await patchPatient(t.app, desk, ramesh.id, { phone: '96235 93106' })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(ids(await search(desk, '93106'))).toContain(ramesh.id)
    expect(ids(await search(desk, '40718'))).not.toContain(ramesh.id)
  })
})

async function plan(tx: Tx, text: string): Promise<string> {
  const rows = (
    (await tx.execute(
      sql`explain select id from patients where phone_digits like ${`%${text}%`}`,
    )) as unknown as { rows: { 'QUERY PLAN': string }[] }
  ).rows
  return rows.map((r) => r['QUERY PLAN']).join('\n')
}

class RolledBack extends Error {}

/**
 * The plan of a phone-run search as app_user in the hospital, with 3,000 more patients there
 * (added, analysed and rolled back in one transaction, so the planner sees a real clinic).
 */
async function planAtSize(hospitalId: string, text: string): Promise<string> {
  let seen = ''
  await t.db
    .transaction(async (tx) => {
      await tx.execute(
        sql`insert into patients (hospital_id, name, phone)
            select ${hospitalId}::uuid, 'Bulk Patient ' || i,
                   '+9170' || lpad(((i * 7919) % 100000000)::text, 8, '0')
              from generate_series(1, 3000) as i`,
      )
      await tx.execute(sql`analyze patients`)
      await tx.execute(
        sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospitalId}, true)`,
      )
      seen = await plan(tx as unknown as Tx, text)
      throw new RolledBack()
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error
    })
  return seen
}

describe('phone search cost (decision 011 kept)', () => {
  it('fetches a rare run through the trigram index, inside the hospital’s range, under RLS', async () => {
    const text = await planAtSize(sanjeevani, '8264')
    expect(text).toMatch(/patients_hospital_phone_digits_trgm_idx/)
    expect(text).toMatch(
      /Index Cond: \(\(hospital_id = .+\) AND \(phone_digits ~~ '%8264%'::text\)\)/,
    )
    // Rolled back: the clinic is as it was.
    expect(await search(desk, 'Bulk Patient')).toEqual([])
  })

  it('keeps the index free of a pending list (fastupdate off)', async () => {
    const rows = (
      (await t.db.execute(
        sql`select reloptions from pg_class where relname = 'patients_hospital_phone_digits_trgm_idx'`,
      )) as unknown as { rows: { reloptions: string[] | null }[] }
    ).rows
    expect(rows[0]?.reloptions).toEqual(['fastupdate=off'])
  })
})
