import { asc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import type { AppDb } from '../../src/server/db/client'
import { communications, leadSettings, leads } from '../../src/server/db/schema/leads'
import { patients } from '../../src/server/db/schema/patients'
import {
  demoHospitals,
  demoPatients,
  GENERATED_PATIENTS_PER_DEMO_HOSPITAL,
  LEAD_PATIENTS_PER_DEMO_HOSPITAL,
  LEADS_PER_DEMO_HOSPITAL,
  PATIENTS_PER_DEMO_HOSPITAL,
  seedDemo,
} from '../../src/server/db/seed/demo'
import { checkLeadRules } from '../../src/server/db/seed/seed-lead-rules'
import { withTenant } from '../../src/server/db/tenant'
import {
  openTestDatabase,
  queryRows,
  TEST_AUTH_SECRET,
  TEST_PASSWORD,
  type TestDatabase,
} from '../support/test-app'
import { DEMO_MISSED_CALL_LEADS } from '../../src/server/db/seed/calls'

/** Each demo hospital's leads: the generated ones and those its missed calls made. */
const DEMO_LEADS = LEADS_PER_DEMO_HOSPITAL + DEMO_MISSED_CALL_LEADS

// Issue 8: the demo seed gives each demo hospital about 300 leads over the last 60 days, with
// communications, converted leads linked to patients, and lead settings; a database seeded by
// the version before leads gets them on its next start, once.

type App = Awaited<ReturnType<typeof buildApp>>

let t: TestDatabase
let app: App
const db = () => t.database.db

beforeAll(async () => {
  t = await openTestDatabase()
  app = await buildApp({
    database: t.database,
    authSecret: TEST_AUTH_SECRET,
    logLevel: 'silent',
    authRateLimit: false,
  })
})
afterAll(async () => {
  await app?.app.close()
  await t?.drop()
})

async function hospitalIds(): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db(),
    sql`select id::text as id from hospitals where email in ${demoHospitals.map((h) => h.email)} order by email desc`,
  )
  return rows.map((r) => r.id)
}

/** One hospital's rows as its staff would see them: as app_user, under RLS. */
function tenantRows(database: AppDb, hospitalId: string) {
  return withTenant(database, { hospitalId, userId: null }, async (tx) => ({
    leads: await tx.select().from(leads).orderBy(asc(leads.createdAt)),
    communications: await tx.select().from(communications),
    patients: await tx.select().from(patients).orderBy(asc(patients.patientNumber)),
    settings: await tx.select().from(leadSettings),
  }))
}

async function expectLeadsComplete(now: Date, patientsEach: number) {
  for (const id of await hospitalIds()) {
    const rows = await tenantRows(db(), id)
    expect(rows.leads).toHaveLength(DEMO_LEADS)
    expect(rows.patients).toHaveLength(patientsEach)
    expect(rows.settings).toEqual([
      {
        hospitalId: id,
        followUpDays: 3,
        autoAssignLeads: false,
        priorityScoring: true,
        maxContactAttempts: 5,
        lastAssignedUserId: null,
      },
    ])
    // RLS: only this hospital's rows are visible.
    for (const r of [...rows.leads, ...rows.communications, ...rows.patients])
      expect(r.hospitalId).toBe(id)
    expect(checkLeadRules(rows, { now, expected: DEMO_LEADS })).toEqual([])
  }
}

describe('demo leads in a freshly seeded database', () => {
  let seededAt: Date
  beforeAll(async () => {
    seededAt = new Date()
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(true)
  })

  it('gives each demo hospital its leads, communications, converted patients and settings', async () => {
    await expectLeadsComplete(new Date(), PATIENTS_PER_DEMO_HOSPITAL)
    const [all] = await queryRows<{ leads: number; settings: number }>(
      db(),
      sql`select (select count(*) from leads)::int as leads, (select count(*) from lead_settings)::int as settings`,
    )
    expect(all).toEqual({
      leads: DEMO_LEADS * demoHospitals.length,
      settings: demoHospitals.length,
    })
    expect(seededAt.getTime()).toBeLessThanOrEqual(Date.now())
  })

  it('numbers the patients in the order they were registered, converted leads’ among them', async () => {
    for (const id of await hospitalIds()) {
      const rows = (await tenantRows(db(), id)).patients
      const numbers = rows.map((p) => Number(p.patientNumber.split('-').at(-1)))
      expect(numbers).toEqual(rows.map((_, i) => i + 1))
      const times = rows.map((p) => p.createdAt.getTime())
      expect(times).toEqual([...times].sort((a, b) => a - b))
    }
  })

  it('assigns leads to the hospital’s own staff, and shows no lead to a role without a tenant', async () => {
    const staff = await queryRows<{ id: string; hospital_id: string }>(
      db(),
      sql`select id, hospital_id::text as hospital_id from users where hospital_id is not null`,
    )
    for (const id of await hospitalIds()) {
      const own = new Set(staff.filter((s) => s.hospital_id === id).map((s) => s.id))
      const { leads: rows } = await tenantRows(db(), id)
      const assignees = rows.flatMap((l) => (l.assignedToUserId ? [l.assignedToUserId] : []))
      expect(assignees.length).toBeGreaterThan(LEADS_PER_DEMO_HOSPITAL / 2)
      expect(assignees.every((a) => own.has(a))).toBe(true)
    }
    const hidden = await db().transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', 'app_user', true)`)
      return queryRows<{ n: number }>(
        tx as unknown as AppDb,
        sql`select (select count(*) from leads)::int + (select count(*) from communications)::int + (select count(*) from lead_settings)::int as n`,
      )
    })
    expect(hidden).toEqual([{ n: 0 }])
  })

  it('gives back lost lead settings without touching the leads', async () => {
    const [id] = await hospitalIds()
    const before = await tenantRows(db(), id!)
    await db().execute(sql`delete from lead_settings where hospital_id = ${id}`)
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(true)
    expect(await tenantRows(db(), id!)).toEqual(before)
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(false)
  })

  it('completes a database the version before leads seeded (patients, no leads), once', async () => {
    // The earlier demo: the patient seed's patients numbered from 1, no leads, no settings.
    const now = new Date()
    await db().execute(sql`delete from leads`)
    await db().execute(sql`delete from lead_settings`)
    await db().execute(sql`delete from invoices`)
    await db().execute(sql`delete from patients`)
    await db().execute(sql`update patient_number_counters set next_value = 1`)
    for (const hospital of demoHospitals) {
      const [row] = await queryRows<{ id: string }>(
        db(),
        sql`select id::text as id from hospitals where email = ${hospital.email}`,
      )
      await db()
        .insert(patients)
        .values(demoPatients(hospital, row!.id, now))
    }
    const old = new Map<string, (typeof patients.$inferSelect)[]>()
    for (const id of await hospitalIds()) {
      const rows = (await tenantRows(db(), id)).patients
      expect(rows).toHaveLength(GENERATED_PATIENTS_PER_DEMO_HOSPITAL)
      old.set(id, rows)
    }

    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(true)
    await expectLeadsComplete(new Date(), PATIENTS_PER_DEMO_HOSPITAL)
    for (const id of await hospitalIds()) {
      const after = await tenantRows(db(), id)
      // The patients that were there are kept as they were; converted leads' come after them.
      expect(after.patients.slice(0, GENERATED_PATIENTS_PER_DEMO_HOSPITAL)).toEqual(old.get(id))
      expect(after.patients.slice(GENERATED_PATIENTS_PER_DEMO_HOSPITAL)).toHaveLength(
        LEAD_PATIENTS_PER_DEMO_HOSPITAL,
      )
      // Some leads turned out to be patients the clinic already had.
      const oldIds = new Set(old.get(id)!.map((p) => p.id))
      expect(
        after.leads.filter((l) => l.patientId && oldIds.has(l.patientId)).length,
      ).toBeGreaterThan(0)
    }
    const counts = () =>
      queryRows(
        db(),
        sql`select (select count(*) from leads)::int as leads, (select count(*) from communications)::int as comms, (select count(*) from patients)::int as patients`,
      )
    const once = await counts()
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(false)
    expect(await counts()).toEqual(once)
    const [settings] = await db()
      .select()
      .from(leadSettings)
      .where(eq(leadSettings.hospitalId, (await hospitalIds())[0]!))
    expect(settings?.followUpDays).toBe(3)
  })
})
