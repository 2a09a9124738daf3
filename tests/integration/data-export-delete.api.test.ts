import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Worker } from '../../src/server/jobs/worker'
import { encryptStream } from '../../src/server/modules/backups/backup-crypto'
import { DATA_EXPORT_JOB } from '../../src/server/modules/data-export/export-job'
import { getStorage, resetStorageForTests, tenantKey } from '../../src/server/storage/storage'
import { download, startExport, waitForExport } from '../support/data-export'
import { fullPatient } from '../support/data-rights'
import { call } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import { createPatient, manualPatientPayload } from '../support/patients'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  TEST_PASSWORD,
  type TestApp,
} from '../support/test-app'

// Settings → Data → Delete All Data (issue 27): the hospital's name and the admin's password,
// then every tenant table's rows of that hospital go in one transaction, recorded in the
// platform audit log; the other hospital, the users and the hospital row stay.

let t: TestApp
let admin: string
let a: string
let b: string
let hospitalName: string

// Stored files (backups) go to a folder of this file's own.
const previousDataDir = process.env.DATA_DIR
const dataDir = mkdtempSync(join(tmpdir(), 'arogya-delete-all-'))

beforeAll(async () => {
  process.env.DATA_DIR = dataDir
  resetStorageForTests()
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
  await fullPatient(t, admin, a)
  await fullPatient(t, await login(t.app, demoEmail('admin', 'smiledental')), b)
  await t.db
    .execute(sql`insert into consent_records (hospital_id, channel, contact_address, action, method)
    values (${a}, 'sms', '+919812345678', 'opt_out', 'keyword'),
           (${a}, 'sms', '+919812345679', 'opt_in', 'form')`)
  const [row] = await queryRows<{ name: string }>(
    t.db,
    sql`select name from hospitals where id = ${a}`,
  )
  hospitalName = row?.name ?? ''
}, 180_000)
afterAll(async () => {
  await t?.close()
  if (previousDataDir === undefined) delete process.env.DATA_DIR
  else process.env.DATA_DIR = previousDataDir
  resetStorageForTests()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Rows per tenant table (forced RLS, a hospital_id column) for one hospital, as the owner sees them. */
async function tableCounts(hospitalId: string): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(
    t.db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and c.relforcerowsecurity
          and exists (select 1 from pg_attribute h where h.attrelid = c.oid and h.attname = 'hospital_id')
        order by 1`,
  )
  const counts: Record<string, number> = {}
  for (const { name } of tables) {
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from ${sql.identifier(name)} where hospital_id = ${hospitalId}`,
    )
    counts[name] = row?.n ?? -1
  }
  return counts
}

const erase = (cookie: string | undefined, body: unknown) =>
  call(t.app, cookie, 'POST', '/api/data/delete-all', body)

describe('refused', () => {
  it('for a wrong name, a wrong password, bad bodies and non-admins, deleting nothing', async () => {
    // Signed in first: a sign-in is a Live Monitoring activity (issue 29), not a deletion.
    const staff: string[] = []
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const)
      staff.push(await login(t.app, demoEmail(role)))
    const before = await tableCounts(a)
    expect(before.patients).toBeGreaterThan(50)
    const wrongName = await erase(admin, {
      confirmName: 'Some Other Hospital',
      password: TEST_PASSWORD,
    })
    expect(wrongName.statusCode, wrongName.body).toBe(400)
    expect(wrongName.json().issues).toEqual([
      { path: 'confirmName', message: 'Type the hospital’s name exactly as shown to confirm' },
    ])
    // The name of another hospital is not this one's.
    const [other] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from hospitals where id = ${b}`,
    )
    expect(
      (await erase(admin, { confirmName: other?.name, password: TEST_PASSWORD })).statusCode,
    ).toBe(400)
    const wrongPassword = await erase(admin, {
      confirmName: hospitalName,
      password: 'not-the-password',
    })
    expect(wrongPassword.statusCode, wrongPassword.body).toBe(403)
    expect(wrongPassword.json().message).toBe('The password is not correct')
    for (const body of [
      {},
      { confirmName: hospitalName },
      { password: TEST_PASSWORD },
      { confirmName: hospitalName, password: TEST_PASSWORD, everything: true },
      { confirmName: 42, password: TEST_PASSWORD },
      'delete',
    ]) {
      expect((await erase(admin, body)).statusCode, JSON.stringify(body)).toBe(400)
    }
    for (const cookie of staff) {
      const res = await erase(cookie, { confirmName: hospitalName, password: TEST_PASSWORD })
      expect(res.statusCode).toBe(403)
    }
    expect(
      (await erase(undefined, { confirmName: hospitalName, password: TEST_PASSWORD })).statusCode,
    ).toBe(401)
    expect(await tableCounts(a)).toEqual(before)
  })
})

describe('done', () => {
  it("erases this hospital's tenant data only, and records it in the platform audit log", async () => {
    // A stored file of each hospital, named by a backup log row: A's goes with its data.
    const storage = getStorage()
    const fileOf: Record<string, string> = {}
    for (const h of [a, b]) {
      const key = tenantKey(h, 'backups', randomUUID())
      await storage.put(key, Readable.from([Buffer.from('backup bytes')]), {
        maxBytes: 1000,
        contentType: 'application/octet-stream',
      })
      await t.db.execute(
        sql`insert into backup_logs (hospital_id, status, backup_type, data_types, storage_key, finished_at)
            values (${h}, 'success', 'offline', '{leads}', ${key}, now())`,
      )
      fileOf[h] = key
    }
    // An export of the hospital's data, downloadable, and an uploaded backup (issue 39, 12).
    const worker = new Worker({
      database: t.database,
      names: [DATA_EXPORT_JOB],
      pollMs: 20,
      progressMs: 0,
      backoff: () => 10,
    })
    await worker.start()
    const exportId = await startExport(t.app, admin, 'data')
    expect((await waitForExport(t.app, admin, exportId)).at(-1)?.status).toBe('done')
    await worker.stop()
    expect((await download(t.app, admin, exportId)).res.statusCode).toBe(200)
    expect(await readdir(join(dataDir, 'exports', a))).toHaveLength(1)
    const encrypt = encryptStream(a)
    const encrypted = buffer(encrypt)
    encrypt.end(Buffer.from('an uploaded backup'))
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/backup/uploads',
      headers: { ...browserHeaders(admin), 'content-type': 'application/octet-stream' },
      payload: await encrypted,
    })
    expect(uploaded.statusCode, uploaded.body).toBe(201)
    const [upload] = await queryRows<{ key: string }>(
      t.db,
      sql`select storage_key as key from backup_uploads where hospital_id = ${a}`,
    )
    const beforeA = await tableCounts(a)
    const beforeB = await tableCounts(b)
    const [users] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from users where hospital_id = ${a}`,
    )
    // The name as typed: spacing around it does not matter, the name itself does.
    const res = await erase(admin, { confirmName: `  ${hospitalName} `, password: TEST_PASSWORD })
    expect(res.statusCode, res.body).toBe(200)
    const result = res.json() as { counts: Record<string, number>; total: number; kept: string[] }
    expect(result.counts.patients).toBe(beforeA.patients)
    expect(result.counts.leads).toBe(beforeA.leads)
    // The erased rows' files are gone (the uploaded backup's too); the other hospital's stays.
    await expect(storage.get(fileOf[a]!)).rejects.toThrow()
    await expect(storage.get(upload!.key)).rejects.toThrow()
    // The export is no longer downloadable, and its file is gone.
    expect((await download(t.app, admin, exportId)).res.statusCode).toBe(404)
    expect(await readdir(join(dataDir, 'exports', a)).catch(() => [])).toEqual([])
    await storage.get(fileOf[b]!).then((stream) => stream.destroy())
    expect(result.total).toBe(Object.values(result.counts).reduce((x, y) => x + y, 0))
    expect(result.kept.sort()).toEqual(
      [
        'audit_events',
        // Issue 39: the erased patients (ids only) outlive everything, so a backup restored
        // later never brings one back.
        'erased_patients',
        'hospital_settings',
        'invoice_counters',
        // Issue 28: a lead-generation request is the hospital's order with the platform (no
        // DELETE grant), so it stays like the invoice counters.
        'lead_generation_requests',
        'lead_settings',
        'patient_number_counters',
      ].sort(),
    )

    const afterA = await tableCounts(a)
    for (const [table, n] of Object.entries(afterA)) {
      if (table === 'consent_records') continue
      if (result.kept.includes(table)) continue
      if (['jobs', 'onboarding_tasks'].includes(table)) continue
      expect(n, table).toBe(0)
      expect(result.counts[table], table).toBe(beforeA[table])
    }
    // Opt-outs stay as the suppression list; the opt-in went.
    const consents = await queryRows<{ action: string }>(
      t.db,
      sql`select action from consent_records where hospital_id = ${a}`,
    )
    expect(consents.length).toBeGreaterThan(0)
    expect(consents.every((c) => c.action === 'opt_out')).toBe(true)
    // The other hospital is untouched.
    expect(await tableCounts(b)).toEqual(beforeB)
    // Users and the hospital row stay; the admin is still signed in.
    const [usersAfter] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from users where hospital_id = ${a}`,
    )
    expect(usersAfter?.n).toBe(users?.n)
    const patients = await call(t.app, admin, 'GET', '/api/patients')
    expect(patients.statusCode).toBe(200)
    // Who, when and the counts, in the platform audit log and the hospital's own trail.
    const [platform] = await queryRows<{
      actor_user_id: string
      summary: string
      created_at: Date
    }>(
      t.db,
      sql`select actor_user_id, summary, created_at from platform_audit_events
          where hospital_id = ${a} and action = 'hospital.data_erased'`,
    )
    const [adminUser] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from users where email = ${demoEmail('admin')}`,
    )
    expect(platform?.actor_user_id).toBe(adminUser?.id)
    expect(platform?.summary).toContain(`patients ${beforeA.patients}`)
    expect(platform?.summary).toContain(`${result.total} rows`)
    const own = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where hospital_id = ${a} and action = 'platform.hospital.data_erased'`,
    )
    expect(own).toHaveLength(1)
    // The super admin's Activities tab lists it under its own action.
    const superAdmin = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from platform_audit_events where action = 'hospital.data_erased'`,
    )
    expect(superAdmin[0]?.n).toBe(1)
  })

  it('lets the hospital carry on: a new patient gets the next number, never a reused one', async () => {
    const res = await createPatient(
      t.app,
      admin,
      manualPatientPayload({ name: 'Fresh Start', phone: '9876501234' }),
    )
    expect(res.statusCode, res.body).toBe(201)
    const number = (res.json() as { patientNumber: string }).patientNumber
    expect(Number(number.split('-')[1])).toBeGreaterThan(50)
  })
})
