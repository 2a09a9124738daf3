import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BackupLog, RestoreRun } from '../../src/shared/schemas/backup'
import { Worker } from '../../src/server/jobs/worker'
import {
  BACKUP_RESTORE_JOB,
  BACKUP_RUN_JOB,
} from '../../src/server/modules/backups/backups.service'
import { resetStorageForTests } from '../../src/server/storage/storage'
import { type Fixture, fullPatient } from '../support/data-rights'
import { call } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  TEST_PASSWORD,
  type TestApp,
} from '../support/test-app'

// Issue 39, item 4: erasure survives restore. A patient erased after a backup was taken stays
// erased when that older backup is restored (replace, merge, from an uploaded file, after
// Delete All Data): a scan of every tenant table of the hospital, each row cast to text,
// finds none of the erased values.

let t: TestApp
let worker: Worker
let dataDir: string
let admin: string
let a: string
let f: Fixture
let backup: BackupLog
/** A lead of the same person, not yet converted when the backup was taken. */
let earlyLeadId: string
const previousDataDir = process.env.DATA_DIR

const ADDRESS = 'Flat 7B, Residency Road, Chennai 600002'
const CONTACT = 'Ravi Iyer (brother) +91 98400 11223'
/** The person's other mobile, on the early lead. */
const earlyPhone = () => `+9197${f.phone.slice(5)}`

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-erasure-restore-'))
  process.env.DATA_DIR = dataDir
  resetStorageForTests()
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
  f = await fullPatient(t, admin, a)
  await t.db.execute(
    sql`update patients set address = ${ADDRESS}, emergency_contact = ${CONTACT} where id = ${f.id}`,
  )
  const [lead] = await queryRows<{ id: string }>(
    t.db,
    sql`insert into leads (hospital_id, name, phone, email, source, status, notes)
        values (${a}, ${f.name}, ${earlyPhone()}, ${f.leadEmail}, 'google-ads', 'new',
          'Walked in asking for the physiotherapist')
        returning id`,
  )
  earlyLeadId = lead!.id
  worker = new Worker({
    database: t.database,
    names: [BACKUP_RUN_JOB, BACKUP_RESTORE_JOB],
    pollMs: 20,
    progressMs: 0,
    backoff: () => 10,
  })
  await worker.start()
  // The backup is taken before the erasure; then the early lead is converted and erased too.
  backup = await fullBackup()
  await t.db.execute(
    sql`update leads set patient_id = ${f.id}, status = 'converted' where id = ${earlyLeadId}`,
  )
  const erased = await t.app.inject({
    method: 'POST',
    url: `/api/patients/${f.id}/erase`,
    headers: browserHeaders(admin),
    payload: JSON.stringify({ confirmName: f.name }),
  })
  expect(erased.statusCode, erased.body).toBe(200)
}, 240_000)

afterAll(async () => {
  await worker?.stop()
  await t?.close()
  process.env.DATA_DIR = previousDataDir
  resetStorageForTests()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

async function fullBackup(): Promise<BackupLog> {
  const res = await call(t.app, admin, 'POST', '/api/backup/run-now', {})
  expect(res.statusCode, res.body).toBe(202)
  const id = (res.json() as { log: BackupLog }).log.id
  for (let i = 0; i < 3000; i++) {
    const log = (await call(t.app, admin, 'GET', `/api/backup/logs/${id}`)).json() as {
      log: BackupLog
    }
    if (log.log.status !== 'running') {
      expect(log.log.status, log.log.error ?? '').toBe('success')
      return log.log
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the backup did not finish')
}

async function restore(
  source: { logId: string } | { uploadId: string },
  mode: 'replace' | 'merge',
): Promise<RestoreRun> {
  const res = await call(t.app, admin, 'POST', '/api/backup/restore', { source, mode })
  expect(res.statusCode, res.body).toBe(202)
  const id = (res.json() as { restore: RestoreRun }).restore.id
  for (let i = 0; i < 3000; i++) {
    const run = (await call(t.app, admin, 'GET', `/api/backup/restores/${id}`)).json() as {
      restore: RestoreRun
    }
    if (run.restore.status !== 'running') {
      expect(run.restore.status, run.restore.error ?? '').toBe('success')
      return run.restore
    }
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the restore did not finish')
}

async function downloadBackup(): Promise<Buffer> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/backup/logs/${backup.id}/download`,
    headers: { cookie: admin },
  })
  expect(res.statusCode).toBe(200)
  return res.rawPayload
}

async function uploadBackup(bytes: Buffer): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/backup/uploads',
    headers: { ...browserHeaders(admin), 'content-type': 'application/octet-stream' },
    payload: bytes,
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { uploadId: string }).uploadId
}

/** The erased person's values, as they were typed or stored. */
const erasedValues = () => [
  f.name,
  f.phone,
  f.phone.slice(3),
  earlyPhone(),
  f.email,
  f.leadEmail,
  ADDRESS,
  CONTACT,
  'Complains of migraine since March',
  'Travelling to Chennai',
  'Asked about knee replacement cost',
  'Walked in asking for the physiotherapist',
  'Your MRI report is ready',
  'Reminder for tomorrow 10 am',
  'Called about the knee',
]

/**
 * Records the erasure keeps on purpose (patient-erase.service.ts, docs/decisions/027): consent
 * records keep the withdrawn addresses (the opt-out suppression list and the proof of consent),
 * and the append-only audit trail keeps what staff did (no role may rewrite it). A restore
 * writes neither.
 */
const KEPT_RECORDS = new Set(['consent_records', 'audit_events'])

/**
 * Every other tenant table of the hospital (forced RLS and a hospital_id column), each row
 * cast to text and searched for every erased value: "table: value" for each hit.
 */
async function scan(): Promise<string[]> {
  const tables = await queryRows<{ name: string }>(
    t.db,
    sql`select c.relname as name from pg_class c
          join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
        where c.relkind in ('r', 'p') and c.relforcerowsecurity
          and exists (select 1 from pg_attribute h where h.attrelid = c.oid
                      and h.attname = 'hospital_id' and not h.attisdropped)
        order by 1`,
  )
  expect(tables.length).toBeGreaterThan(20)
  const hits: string[] = []
  for (const { name } of tables) {
    if (KEPT_RECORDS.has(name)) continue
    const rows = await queryRows<{ row: string }>(
      t.db,
      sql`select x::text as row from ${sql.identifier(name)} x where x.hospital_id = ${a}`,
    )
    for (const { row } of rows) {
      const lower = row.toLowerCase()
      for (const value of erasedValues()) {
        if (lower.includes(value.toLowerCase())) hits.push(`${name}: ${value}`)
      }
    }
  }
  return [...new Set(hits)]
}

describe('erasure survives restore', () => {
  it('leaves no erased value anywhere after the erase, and keeps only ids in the list', async () => {
    expect(await scan()).toEqual([])
    const list = await queryRows<{ row: string }>(
      t.db,
      sql`select x::text as row from erased_patients x where hospital_id = ${a}`,
    )
    expect(list).toHaveLength(1)
    expect(list[0]!.row).toContain(f.id)
    expect(list[0]!.row).toContain(f.leadId)
    expect(list[0]!.row).toContain(earlyLeadId)
  })

  it('re-applies the erasure when the older backup is restored in replace mode', async () => {
    const run = await restore({ logId: backup.id }, 'replace')
    expect(run.tables?.find((x) => x.table === 'leads')?.inBackup).toBeGreaterThan(0)
    expect(await scan()).toEqual([])
    const leads = await queryRows<{ id: string; name: string; phone: string }>(
      t.db,
      sql`select id, name, phone from leads where id in (${f.leadId}, ${earlyLeadId}) order by id`,
    )
    // The rows are back (the restore restored them), anonymised.
    expect(leads).toHaveLength(2)
    expect(leads.every((l) => l.name === 'Erased patient' && l.phone.startsWith('erased-'))).toBe(
      true,
    )
  })

  it('re-applies it in merge mode from an uploaded copy of the file', async () => {
    const file = await downloadBackup()
    // Merge only writes rows the hospital does not have: delete the leads so that the backup's
    // copies come back in full.
    await t.db.execute(sql`delete from leads where id in (${f.leadId}, ${earlyLeadId})`)
    await restore({ uploadId: await uploadBackup(file) }, 'merge')
    const back = await queryRows(t.db, sql`select 1 from leads where id = ${earlyLeadId}`)
    expect(back).toHaveLength(1)
    expect(await scan()).toEqual([])
  })

  it('keeps the list through Delete All Data: the older backup, uploaded again, stays erased', async () => {
    // Delete All Data deletes the backup files too (README): keep a copy, as an admin would.
    const file = await downloadBackup()
    const [h] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from hospitals where id = ${a}`,
    )
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/delete-all',
      headers: browserHeaders(admin),
      payload: JSON.stringify({ confirmName: h!.name, password: TEST_PASSWORD }),
    })
    expect(res.statusCode, res.body).toBe(200)
    expect((res.json() as { kept: string[] }).kept).toContain('erased_patients')
    await restore({ uploadId: await uploadBackup(file) }, 'replace')
    const [p] = await queryRows<{ name: string; erased: boolean }>(
      t.db,
      sql`select name, erased_at is not null as erased from patients where id = ${f.id}`,
    )
    expect(p).toEqual({ name: 'Erased patient', erased: true })
    expect(await scan()).toEqual([])
  })
})
