import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withPlatform, withTenant } from '../../src/server/db/tenant'
import { AppError } from '../../src/server/http/app-error'
import { findLead, PHONE_TAKEN, updateLead } from '../../src/server/modules/leads/leads.service'
import { assertAssignable, userNames } from '../../src/server/modules/leads/staff.service'
import {
  getPatient,
  patientLimit,
  updatePatient,
} from '../../src/server/modules/patients/patients.service'
import { uniqueMobile } from '../support/leads'
import { auditRowsFor } from '../support/patients'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services' cross-tenant look-ups at their edges (mutation testing, docs/decisions/024,
// stryker/cross-tenant-ignorer.mjs): who a lead may be assigned to, whose names are shown,
// what another hospital's id answers, and what the audit trail says about a change.

let t: TestApp
let a: string
let b: string
let adminA: string
let nurseA: string
let adminB: string

beforeAll(async () => {
  t = await createTestApp()
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
  adminA = await userIdOf(t.db, demoEmail('admin'))
  nurseA = await userIdOf(t.db, demoEmail('nurse'))
  adminB = await userIdOf(t.db, demoEmail('admin', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
})

const ASSIGN_MESSAGE = 'Choose an active staff member of this hospital'

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

/** Runs `fn` with the nurse's user row changed, then puts it back. */
async function withNurse(change: ReturnType<typeof sql>, fn: () => Promise<void>) {
  const [before] = await queryRows<Record<string, unknown>>(
    t.db,
    sql`select is_active, banned, is_super_admin, role from users where id = ${nurseA}`,
  )
  await t.db.execute(sql`update users set ${change} where id = ${nurseA}`)
  try {
    await fn()
  } finally {
    await t.db.execute(
      sql`update users set is_active = ${before?.is_active}, banned = ${before?.banned},
                 is_super_admin = ${before?.is_super_admin}, role = ${before?.role}
          where id = ${nurseA}`,
    )
  }
}

describe('assertAssignable', () => {
  it('accepts an active staff member of the hospital, and no one', async () => {
    await expect(assertAssignable(t.db, a, nurseA)).resolves.toBeUndefined()
    await expect(assertAssignable(t.db, a, null)).resolves.toBeUndefined()
    await expect(assertAssignable(t.db, a, undefined)).resolves.toBeUndefined()
  })

  it("refuses another hospital's user with a 400 on the field", async () => {
    const error = await refusal(assertAssignable(t.db, a, adminB))
    expect(error.code).toBe('VALIDATION')
    expect(error.message).toBe(`Invalid input: assignedToUserId: ${ASSIGN_MESSAGE}`)
    expect(error.issues).toEqual([{ path: 'assignedToUserId', message: ASSIGN_MESSAGE }])
    await refusal(assertAssignable(t.db, a, randomUUID()))
  })

  it('refuses an inactive, a suspended and a super-admin account of the hospital', async () => {
    for (const change of [
      sql`is_active = false`,
      sql`banned = true`,
      sql`is_super_admin = true`,
      sql`role = 'super_admin'`,
    ]) {
      await withNurse(change, async () => {
        expect((await refusal(assertAssignable(t.db, a, nurseA))).code).toBe('VALIDATION')
      })
    }
    await expect(assertAssignable(t.db, a, nurseA)).resolves.toBeUndefined()
  })
})

describe('userNames', () => {
  it("names the hospital's own users only, once each, and asks nothing for no ids", async () => {
    const names = await userNames(t.db, a, [nurseA, null, adminB, nurseA, adminA, ''])
    expect([...names.keys()].sort()).toEqual([adminA, nurseA].sort())
    expect(names.get(nurseA)).toEqual(expect.any(String))
    expect((await userNames(t.db, a, [null, ''])).size).toBe(0)
    expect((await userNames(t.db, b, [nurseA])).size).toBe(0)
  })
})

describe('patients', () => {
  async function patientOf(hospitalId: string, name: string): Promise<string> {
    const [row] = await withPlatform(t.db, (tx) =>
      queryRows<{ id: string }>(
        tx,
        sql`insert into patients (hospital_id, name, phone)
            values (${hospitalId}, ${name}, ${`+91${uniqueMobile(93_000)}`}) returning id`,
      ),
    )
    return row?.id ?? ''
  }

  it("answers 404 for another hospital's patient, on reading and on changing it", async () => {
    const ofB = await patientOf(b, 'Patient of B')
    const read = await refusal(getPatient({ db: t.db, hospitalId: a, userId: adminA, id: ofB }))
    expect(read.code).toBe('NOT_FOUND')
    expect(read.message).toBe('Patient not found')
    const change = await refusal(
      updatePatient({
        db: t.db,
        hospitalId: a,
        userId: adminA,
        id: ofB,
        values: { name: 'Taken over' },
      }),
    )
    expect(change.message).toBe('Patient not found')
    const [still] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from patients where id = ${ofB}`,
    )
    expect(still?.name).toBe('Patient of B')
    expect(await auditRowsFor(t.db, ofB)).toEqual([])
  })

  it('audits a change with the fields changed, the actor and the hospital', async () => {
    const id = await patientOf(a, 'Audited Patient')
    const updated = await updatePatient({
      db: t.db,
      hospitalId: a,
      userId: adminA,
      impersonatorUserId: null,
      id,
      values: { name: 'Audited Patient Two', address: 'n' },
    })
    expect(updated.name).toBe('Audited Patient Two')
    const got = await getPatient({ db: t.db, hospitalId: a, userId: adminA, id })
    expect(got.id).toBe(id)
    expect(await auditRowsFor(t.db, id)).toEqual([
      {
        hospital_id: a,
        actor_user_id: adminA,
        action: 'patient.updated',
        entity_type: 'patient',
        entity_id: id,
        summary: 'Updated name, address of patient Audited Patient Two',
      },
    ])
  })

  it("reads the plan's patient limit of the hospital named, null when unlimited or unknown", async () => {
    await withPlatform(t.db, (tx) =>
      tx.execute(sql`update hospitals set max_patients = 1234 where id = ${b}`),
    )
    try {
      expect(await patientLimit(t.db, b)).toBe(1234)
      expect(await patientLimit(t.db, randomUUID())).toBeNull()
    } finally {
      await withPlatform(t.db, (tx) =>
        tx.execute(sql`update hospitals set max_patients = null where id = ${b}`),
      )
    }
    expect(await patientLimit(t.db, b)).toBeNull()
  })
})

describe('leads', () => {
  async function leadOf(hospitalId: string, name: string, status = 'new'): Promise<string> {
    const [row] = await withPlatform(t.db, async (tx) => {
      // A converted lead points at its patient (leads_converted_patient_check).
      const [patient] =
        status === 'converted'
          ? await queryRows<{ id: string }>(
              tx,
              sql`insert into patients (hospital_id, name, phone)
                  values (${hospitalId}, ${name}, ${`+91${uniqueMobile(95_000)}`}) returning id`,
            )
          : []
      return queryRows<{ id: string }>(
        tx,
        sql`insert into leads (hospital_id, name, phone, source, status, patient_id)
            values (${hospitalId}, ${name}, ${`+91${uniqueMobile(94_000)}`}, 'manual', ${status},
                    ${patient?.id ?? null})
            returning id`,
      )
    })
    return row?.id ?? ''
  }

  it("answers 404 for another hospital's lead, read or changed", async () => {
    const ofB = await leadOf(b, 'Lead of B')
    const change = await refusal(
      updateLead({ db: t.db, hospitalId: a, userId: adminA, id: ofB, values: { notes: 'x' } }),
    )
    expect(change.code).toBe('NOT_FOUND')
    expect(change.message).toBe('Lead not found')
    for (const lock of [false, true]) {
      const read = await refusal(
        withTenant(t.db, { hospitalId: a, userId: adminA }, (tx) => findLead(tx, ofB, lock)),
      )
      expect(read.message).toBe('Lead not found')
    }
    const own = await leadOf(a, 'Lead of A')
    const found = await withTenant(t.db, { hospitalId: a, userId: adminA }, (tx) =>
      findLead(tx, own, true),
    )
    expect(found.name).toBe('Lead of A')
  })

  it('keeps a converted lead at converted, and names the lead that has a phone already', async () => {
    const converted = await leadOf(a, 'Converted Lead', 'converted')
    const status = await refusal(
      updateLead({
        db: t.db,
        hospitalId: a,
        userId: adminA,
        id: converted,
        values: { status: 'new' },
      }),
    )
    expect(status.code).toBe('CONFLICT')
    expect(status.message).toBe(
      'This lead was converted to a patient; its status can no longer change',
    )
    const kept = await updateLead({
      db: t.db,
      hospitalId: a,
      userId: adminA,
      id: converted,
      values: { notes: 'still editable' },
    })
    expect(kept.status).toBe('converted')

    const first = await leadOf(a, 'First Holder')
    const second = await leadOf(a, 'Second Lead')
    const [phone] = await queryRows<{ phone: string }>(
      t.db,
      sql`select phone from leads where id = ${first}`,
    )
    const taken = await refusal(
      updateLead({
        db: t.db,
        hospitalId: a,
        userId: adminA,
        id: second,
        values: { phone: phone?.phone },
      }),
    )
    expect(taken.code).toBe('CONFLICT')
    expect(taken.message).toBe(`${PHONE_TAKEN} (First Holder)`)
    expect(taken.issues).toEqual([{ path: 'phone', message: `${PHONE_TAKEN} (First Holder)` }])
    // A phone no other lead has is taken as it is.
    const fresh = `+91${uniqueMobile(96_000)}`
    await expect(
      updateLead({ db: t.db, hospitalId: a, userId: adminA, id: second, values: { phone: fresh } }),
    ).resolves.toMatchObject({ id: second, phone: fresh })
    // Its own phone again is no conflict.
    await expect(
      updateLead({
        db: t.db,
        hospitalId: a,
        userId: adminA,
        id: first,
        values: { phone: phone?.phone },
      }),
    ).resolves.toMatchObject({ id: first })
  })

  it('audits a change with its fields and a status change, and refuses an assignee of B', async () => {
    const id = await leadOf(a, 'Audited Lead')
    await updateLead({
      db: t.db,
      hospitalId: a,
      userId: adminA,
      id,
      values: { status: 'contacted', notes: 'called' },
    })
    await updateLead({
      db: t.db,
      hospitalId: a,
      userId: adminA,
      id,
      values: { status: 'contacted' },
    })
    const rows = await auditRowsFor(t.db, id)
    expect(rows.map((r) => r.summary)).toEqual([
      'Updated status, notes of lead Audited Lead (status new → contacted)',
      'Updated status of lead Audited Lead',
    ])
    expect(rows[0]).toMatchObject({
      hospital_id: a,
      actor_user_id: adminA,
      action: 'lead.updated',
      entity_type: 'lead',
    })
    const assign = await refusal(
      updateLead({
        db: t.db,
        hospitalId: a,
        userId: adminA,
        id,
        values: { assignedToUserId: adminB },
      }),
    )
    expect(assign.code).toBe('VALIDATION')
  })
})
