import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../src/server/app'
import { type Database, openDatabase } from '../../src/server/db/client'
import {
  demoHospitals,
  demoLogins,
  LEADS_PER_DEMO_HOSPITAL,
  PATIENTS_PER_DEMO_HOSPITAL,
  seedDemo,
} from '../../src/server/db/seed/demo'
import { DemoSeedConflict } from '../../src/server/db/seed/demo-state'
import { signIn } from '../support/login'
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

// Issue 16, "Start-up and shutdown": the demo seed is one transaction, idempotent, safe when
// two instances start together, and repairs an earlier version's partial demo.

// Each test seeds the whole demo (six doctors' appointments and their reminders among it).
vi.setConfig({ testTimeout: 120_000 })

const SUPER_ADMIN = 'superadmin@arogya.demo'
const TOTAL_PATIENTS = PATIENTS_PER_DEMO_HOSPITAL * demoHospitals.length

type App = Awaited<ReturnType<typeof buildApp>>

function appOn(database: Database): Promise<App> {
  return buildApp({
    database,
    authSecret: TEST_AUTH_SECRET,
    logLevel: 'silent',
    authRateLimit: false,
    signInThrottle: { ipCeiling: 10_000 },
  })
}

interface DemoRows {
  hospitals: { email: string; id: string }[]
  users: { email: string; id: string; hospital_id: string | null; passwords: number }[]
  patients: { email: string; n: number; first: string | null; last: string | null }[]
  counters: number
  /** Per demo hospital: leads, their communications, and its lead settings rows. */
  leads: { email: string; n: number; communications: number; settings: number }[]
}

/** What of the demo the database holds (as the connecting superuser: RLS does not apply). */
async function demoRows(db: Database['db']): Promise<DemoRows> {
  return {
    hospitals: await queryRows(
      db,
      sql`select email, id::text as id from hospitals where email like '%.demo' order by email`,
    ),
    users: await queryRows(
      db,
      sql`select u.email, u.id, u.hospital_id::text as hospital_id,
            (select count(*) from accounts a where a.user_id = u.id and a.provider_id = 'credential' and a.password is not null)::int as passwords
          from users u where u.email like '%.demo' order by u.email`,
    ),
    patients: await queryRows(
      db,
      sql`select h.email, count(p.id)::int as n, min(p.patient_number) as first, max(p.patient_number) as last
          from hospitals h left join patients p on p.hospital_id = h.id
          where h.email like '%.demo' group by h.email order by h.email`,
    ),
    counters: (
      await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from patient_number_counters`,
      )
    )[0]!.n,
    leads: await queryRows(
      db,
      sql`select h.email,
            (select count(*) from leads l where l.hospital_id = h.id)::int as n,
            (select count(*) from communications c where c.hospital_id = h.id)::int as communications,
            (select count(*) from lead_settings s where s.hospital_id = h.id)::int as settings
          from hospitals h where h.email like '%.demo' order by h.email`,
    ),
  }
}

/** Every demo hospital, every account with a password in its hospital, and their patients. */
function expectComplete(rows: DemoRows, patientsEach = PATIENTS_PER_DEMO_HOSPITAL) {
  expect(rows.hospitals.map((h) => h.email).sort()).toEqual(
    demoHospitals.map((h) => h.email).sort(),
  )
  expect(rows.users.map((u) => u.email).sort()).toEqual([...demoLogins()].sort())
  expect(rows.users.every((u) => u.passwords === 1)).toBe(true)
  for (const u of rows.users) {
    const key = u.email.split('@')[1]?.replace('.demo', '')
    const hospital = demoHospitals.find((h) => h.key === key)
    expect(u.hospital_id, u.email).toBe(
      hospital ? rows.hospitals.find((h) => h.email === hospital.email)?.id : null,
    )
  }
  expect(rows.patients.map((p) => p.n)).toEqual(demoHospitals.map(() => patientsEach))
  expect(rows.counters).toBe(demoHospitals.length)
  for (const l of rows.leads) {
    expect([l.email, l.n, l.settings]).toEqual([l.email, DEMO_LEADS, 1])
    expect(l.communications, l.email).toBeGreaterThan(LEADS_PER_DEMO_HOSPITAL)
  }
}

async function expectSignIns(app: App, emails: string[]) {
  for (const email of emails)
    expect((await signIn(app.app, email, TEST_PASSWORD)).statusCode, email).toBe(200)
}

async function exec(db: Database['db'], ...statements: ReturnType<typeof sql>[]) {
  for (const s of statements) await db.execute(s)
}

/** Removes demo rows the way an earlier, many-transaction seed could have left them. */
const remove = {
  /**
   * Its leads and invoices too: converted leads link patients (communications go with their
   * lead), and invoices are never deleted with their patient.
   */
  patientsOf: (email: string) =>
    sql`with h as (select id from hospitals where email = ${email}),
          gone as (delete from leads where hospital_id = (select id from h)),
          billed as (delete from invoices where hospital_id = (select id from h))
        delete from patients where hospital_id = (select id from h)`,
  counterOf: (email: string) =>
    sql`delete from patient_number_counters where hospital_id = (select id from hospitals where email = ${email})`,
  users: (emails: string[]) => sql`delete from users where email in ${emails}`,
  // Its audit trail too (the seed's backup configuration is created, and audited, as an
  // admin creates one).
  hospital: (email: string) =>
    sql`with gone as (delete from lead_settings where hospital_id in (select id from hospitals where email = ${email})),
          trail as (delete from audit_events where hospital_id in (select id from hospitals where email = ${email}))
        delete from hospitals where email = ${email}`,
}

describe('demo seed in one database', () => {
  let t: TestDatabase
  let app: App
  beforeAll(async () => {
    t = await openTestDatabase()
    app = await appOn(t.database)
  })
  afterAll(async () => {
    await app?.app.close()
    await t?.drop()
  })
  const db = () => t.database.db

  it('seeds everything once, and a second run changes nothing', async () => {
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(true)
    const first = await demoRows(db())
    expectComplete(first)
    expect(first.patients.map((p) => [p.first?.slice(-6), p.last?.slice(-6)])).toEqual(
      demoHospitals.map(() => ['000001', String(PATIENTS_PER_DEMO_HOSPITAL).padStart(6, '0')]),
    )
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(false)
    expect(await demoRows(db())).toEqual(first)
    await expectSignIns(app, demoLogins())
  })

  it('completes a database where an earlier start made only the super admin', async () => {
    const before = await demoRows(db())
    const [smh, sdc] = demoHospitals.map((h) => h.email) as [string, string]
    await exec(
      db(),
      remove.patientsOf(smh),
      remove.patientsOf(sdc),
      sql`delete from patient_number_counters`,
      remove.users(demoLogins().filter((e) => e !== SUPER_ADMIN)),
      remove.hospital(smh),
      remove.hospital(sdc),
    )
    expect((await demoRows(db())).users.map((u) => u.email)).toEqual([SUPER_ADMIN])
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(true)
    const after = await demoRows(db())
    expectComplete(after)
    // The super admin that was there is kept, not made again.
    const id = (rows: DemoRows) => rows.users.find((u) => u.email === SUPER_ADMIN)?.id
    expect(id(after)).toBe(id(before))
    await expectSignIns(app, [SUPER_ADMIN, 'viewer@smiledental.demo'])
  })

  it('completes one hospital with 3 of its accounts, keeping the rows it has', async () => {
    const [smh, sdc] = demoHospitals.map((h) => h.email) as [string, string]
    const kept = [SUPER_ADMIN, 'admin@sanjeevani.demo', 'doctor@sanjeevani.demo']
    await exec(
      db(),
      remove.patientsOf(smh),
      remove.patientsOf(sdc),
      sql`delete from patient_number_counters`,
      remove.users(demoLogins().filter((e) => !kept.includes(e))),
      remove.hospital(sdc),
    )
    const before = await demoRows(db())
    expect(before.users.map((u) => u.email).sort()).toEqual([...kept].sort())
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(true)
    const after = await demoRows(db())
    expectComplete(after)
    expect(after.hospitals.find((h) => h.email === smh)?.id).toBe(before.hospitals[0]?.id)
    for (const u of before.users) expect(after.users.find((a) => a.email === u.email)).toEqual(u)
    await expectSignIns(app, ['doctor@sanjeevani.demo', 'nurse@sanjeevani.demo'])
  })

  it('gives back a lost password, counter or patients, and never adds to patients that are there', async () => {
    const [smh, sdc] = demoHospitals.map((h) => h.email) as [string, string]
    await exec(
      db(),
      sql`delete from accounts where user_id = (select id from users where email = 'nurse@smiledental.demo')`,
      remove.patientsOf(sdc),
      remove.counterOf(sdc),
      // A patient the clinic removed stays removed: the hospital still has patients.
      sql`delete from patients where patient_number = (select max(patient_number) from patients p where hospital_id = (select id from hospitals where email = ${smh}) and not exists (select 1 from leads l where l.hospital_id = p.hospital_id and l.patient_id = p.id) and not exists (select 1 from invoices i where i.hospital_id = p.hospital_id and i.patient_id = p.id))`,
    )
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(true)
    const after = await demoRows(db())
    expect(after.users.every((u) => u.passwords === 1)).toBe(true)
    expect(after.patients.map((p) => [p.email, p.n])).toEqual([
      [smh, PATIENTS_PER_DEMO_HOSPITAL - 1],
      [sdc, PATIENTS_PER_DEMO_HOSPITAL],
    ])
    expect(after.counters).toBe(demoHospitals.length)
    // A new counter numbers the hospital's patients from 1 again.
    expect(after.patients.find((p) => p.email === sdc)?.first).toMatch(/-000001$/)
    await expectSignIns(app, ['nurse@smiledental.demo'])
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(false)
  })

  it('refuses, saying what to do and changing nothing, when a demo email is another hospital’s', async () => {
    const [smh, sdc] = demoHospitals.map((h) => h.email) as [string, string]
    await exec(
      db(),
      remove.patientsOf(sdc),
      sql`update users set hospital_id = (select id from hospitals where email = ${smh}) where email = 'admin@smiledental.demo'`,
    )
    const before = await demoRows(db())
    const error = await seedDemo(db(), app.auth, TEST_PASSWORD).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DemoSeedConflict)
    expect((error as Error).message).toMatch(/admin@smiledental\.demo belongs to another hospital/)
    expect((error as Error).message).toMatch(/SEED_DEMO=false/)
    expect(await demoRows(db())).toEqual(before)
    // Put right by hand, the next start completes the demo.
    await exec(
      db(),
      sql`update users set hospital_id = (select id from hospitals where email = ${sdc}) where email = 'admin@smiledental.demo'`,
    )
    expect(await seedDemo(db(), app.auth, TEST_PASSWORD)).toBe(true)
    expect((await demoRows(db())).patients.find((p) => p.email === sdc)?.n).toBe(
      PATIENTS_PER_DEMO_HOSPITAL,
    )
  })
})

describe('two instances starting together', () => {
  const serverUrl = process.env.TEST_DATABASE_URL
  const name = `arogya_seed_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  const opened: Database[] = []
  const apps: App[] = []

  async function admin(text: string) {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    await client.query(text).finally(() => client.end())
  }

  afterAll(async () => {
    for (const a of apps) await a.app.close()
    for (const d of new Set(opened)) await d.close()
    if (serverUrl) await admin(`drop database if exists ${name} with (force)`)
  })

  it('seed the demo once between them', async () => {
    if (serverUrl) {
      // Two pools on one PostgreSQL database, as two servers would have.
      await admin(`create database ${name}`)
      const url = new URL(serverUrl)
      url.pathname = `/${name}`
      for (let i = 0; i < 2; i++) opened.push(await openDatabase({ databaseUrl: url.toString() }))
    } else {
      const t = await openTestDatabase()
      opened.push(t.database, t.database)
    }
    for (const d of opened) apps.push(await appOn(d))
    const results = await Promise.all(
      apps.map((a, i) => seedDemo(opened[i]!.db, a.auth, TEST_PASSWORD)),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
    const rows = await demoRows(opened[0]!.db)
    expectComplete(rows)
    expect(rows.patients.reduce((sum, p) => sum + p.n, 0)).toBe(TOTAL_PATIENTS)
    await expectSignIns(apps[1]!, ['receptionist@sanjeevani.demo'])
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)(
  'PostgreSQL: seeding as a login role that is neither superuser nor owner',
  () => {
    const serverUrl = process.env.TEST_DATABASE_URL ?? ''
    const name = `arogya_seedrole_${Date.now().toString(36)}`
    const role = `arogya_seeder_${Date.now().toString(36)}`
    const admin = new pg.Client({ connectionString: serverUrl })
    const urlOf = (user?: string) => {
      const url = new URL(serverUrl)
      url.pathname = `/${name}`
      if (user) url.username = user
      return url.toString()
    }
    beforeAll(async () => {
      await admin.connect()
      await admin.query(`create database ${name}`)
      // Migrated by the owner first: the migrations make app_platform and app_user.
      await (await openDatabase({ databaseUrl: urlOf() })).close()
      await admin.query(`create role ${role} login nosuperuser nobypassrls nocreatedb nocreaterole`)
      await admin.query(`grant app_platform, app_user to ${role}`)
    })
    afterAll(async () => {
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.query(`drop role if exists ${role}`)
      await admin.end()
    })

    it('seeds (platform rows as app_platform, patients under RLS as app_user) and repairs', async () => {
      const database = await openDatabase({ databaseUrl: urlOf(role), migrationUrl: urlOf() })
      const owner = await openDatabase({ databaseUrl: urlOf() })
      const app = await appOn(database)
      try {
        expect(await seedDemo(database.db, app.auth, TEST_PASSWORD)).toBe(true)
        expectComplete(await demoRows(owner.db))
        expect(await seedDemo(database.db, app.auth, TEST_PASSWORD)).toBe(false)
        await exec(owner.db, remove.patientsOf(demoHospitals[1]!.email))
        expect(await seedDemo(database.db, app.auth, TEST_PASSWORD)).toBe(true)
        expectComplete(await demoRows(owner.db))
      } finally {
        await app.app.close()
        await database.close()
        await owner.close()
      }
    })
  },
)
