import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { embeddedExtensions, type AppDb } from '../../src/server/db/client'
import { formatPatientNumber, patientNumberPrefix } from '../../src/shared/schemas/patients'
import { queryRows } from '../support/test-app'

// Migration 0005 numbers the patients a database already has, per hospital, in the order they
// were added, and gives every hospital its counter. On PostgreSQL it runs as an owner that is
// no superuser (as DATABASE_MIGRATION_URL does in production), where forced RLS applies.
const MIGRATION = '0005_patient_numbers'
const root = join(import.meta.dirname, '../../drizzle')
const serverUrl = process.env.TEST_DATABASE_URL

/** A copy of drizzle/ that stops before MIGRATION. */
function migrationsBefore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arogya-migrations-'))
  cpSync(root, dir, { recursive: true })
  const journalPath = join(dir, 'meta/_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((e) => e.tag === MIGRATION)
  expect(at).toBeGreaterThan(0)
  journal.entries = journal.entries.slice(0, at)
  writeFileSync(journalPath, JSON.stringify(journal))
  return dir
}

interface Subject {
  /** As the owner who runs the migrations. */
  db: AppDb
  /** As a superuser, to read past forced RLS. */
  inspect: AppDb
  migrate: (folder: string) => Promise<void>
  close: () => Promise<void>
}

async function openSubject(): Promise<Subject> {
  if (!serverUrl) {
    const client = await PGlite.create({ extensions: embeddedExtensions })
    const db = drizzlePglite(client) as unknown as AppDb
    return {
      db,
      inspect: db,
      migrate: (folder) => migratePglite(db as never, { migrationsFolder: folder }),
      close: () => client.close(),
    }
  }
  const suffix = `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const owner = `arogya_owner_${suffix}`
  const name = `arogya_migration_${suffix}`
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }
  // Roles are per cluster: make sure the app's roles exist, as an earlier deploy would have.
  await admin(`do $$ begin
    if not exists (select 1 from pg_roles where rolname = 'app_user') then
      create role app_user nologin nosuperuser nobypassrls; end if;
    if not exists (select 1 from pg_roles where rolname = 'app_platform') then
      create role app_platform nologin nosuperuser nobypassrls; end if;
  end $$`)
  await admin(`create role ${owner} login nosuperuser nobypassrls`)
  await admin(`grant app_user, app_platform to ${owner}`)
  await admin(`create database ${name} owner ${owner}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  url.username = owner
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 })
  const db = drizzlePg(pool) as unknown as AppDb
  const superUrl = new URL(serverUrl)
  superUrl.pathname = `/${name}`
  const superPool = new pg.Pool({ connectionString: superUrl.toString(), max: 1 })
  return {
    db,
    inspect: drizzlePg(superPool) as unknown as AppDb,
    migrate: (folder) => migratePg(db as never, { migrationsFolder: folder }),
    close: async () => {
      await pool.end()
      await superPool.end()
      await admin(`drop database if exists ${name} with (force)`)
      await admin(`drop role if exists ${owner}`)
    },
  }
}

const hospitalNames = [
  'Sanjeevani Multispeciality Hospital, Pune',
  'Apollo',
  'श्री अस्पताल',
  "Dr. Sharma's Eye Clinic, Nashik",
  'Institute of Child Health and Hospital for Children',
]

let subject: Subject
let folder: string
const hospitalIds: string[] = []

beforeAll(async () => {
  folder = migrationsBefore()
  subject = await openSubject()
  await subject.migrate(folder)
  for (const [i, name] of hospitalNames.entries()) {
    const [row] = await queryRows<{ id: string }>(
      subject.db,
      sql`insert into hospitals (name, email) values (${name}, ${`h${i}@example.com`}) returning id`,
    )
    hospitalIds.push(row?.id ?? '')
  }
  // Patients added on different days, out of insertion order; the last hospital has none.
  for (const [h, hospitalId] of hospitalIds.slice(0, 4).entries()) {
    await subject.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('app.hospital_id', ${hospitalId}, true)`)
      for (let p = 0; p < 3 + h; p++) {
        await tx.execute(
          sql`insert into patients (hospital_id, name, phone, created_at)
              values (${hospitalId}, ${`P${h}-${p}`}, '+919876543210',
                      now() - make_interval(days => ${(p * 7) % 5}))`,
        )
      }
    })
  }
  await subject.migrate(root)
}, 60_000)
afterAll(async () => {
  await subject?.close()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

describe(`migration ${MIGRATION} on existing data`, () => {
  it('derives each hospital’s prefix as patientNumberPrefix does', async () => {
    const counters = await queryRows<{ hospital_id: string; prefix: string; next_value: number }>(
      subject.inspect,
      sql`select hospital_id, prefix, next_value from patient_number_counters`,
    )
    expect(counters).toHaveLength(hospitalNames.length)
    for (const [i, id] of hospitalIds.entries()) {
      const counter = counters.find((c) => c.hospital_id === id)
      expect(counter?.prefix, hospitalNames[i]).toBe(patientNumberPrefix(hospitalNames[i] ?? ''))
      expect(counter?.next_value, hospitalNames[i]).toBe(i < 4 ? 3 + i + 1 : 1)
    }
    expect(counters.map((c) => c.prefix).sort()).toEqual(['APO', 'DSEC', 'ICHH', 'PT', 'SMH'])
  })

  it('numbers existing patients 1, 2, 3... per hospital in created_at, id order', async () => {
    for (const [h, hospitalId] of hospitalIds.slice(0, 4).entries()) {
      const rows = await queryRows<{ n: string }>(
        subject.inspect,
        sql`select patient_number as n from patients where hospital_id = ${hospitalId}
            order by created_at, id`,
      )
      const prefix = patientNumberPrefix(hospitalNames[h] ?? '')
      expect(rows.map((r) => r.n)).toEqual(
        Array.from({ length: 3 + h }, (_, i) => formatPatientNumber(prefix, i + 1)),
      )
    }
  })

  it('leaves patients under forced RLS, and numbers the next patient after them', async () => {
    const [flags] = await queryRows<{ rls: boolean; forced: boolean }>(
      subject.db,
      sql`select relrowsecurity as rls, relforcerowsecurity as forced from pg_class
          where relname = 'patients'`,
    )
    expect(flags).toEqual({ rls: true, forced: true })
    const added = await subject.db.transaction(async (tx) => {
      await tx.execute(
        sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospitalIds[1]}, true)`,
      )
      return (await tx.execute(
        sql`insert into patients (hospital_id, name, phone) values (${hospitalIds[1]}, 'New', '+919876543210') returning patient_number as n`,
      )) as unknown as { rows: { n: string }[] }
    })
    expect(added.rows[0]?.n).toBe('APO-000005')
    const [functions] = await queryRows<{ n: number }>(
      subject.db,
      sql`select count(*)::int as n from pg_proc where proname = 'patient_number_prefix'`,
    )
    expect(functions?.n).toBe(0)
  })
})
