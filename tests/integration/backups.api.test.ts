import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BackupLog, RestorePreview, RestoreRun } from '../../src/shared/schemas/backup'
import { Worker } from '../../src/server/jobs/worker'
import { RESTORE_ORDER } from '../../src/server/modules/backups/backup-archive'
import { pruneOldBackups } from '../../src/server/modules/backups/backup-retention'
import {
  BACKUP_UPLOADS_PRUNE_JOB,
  pruneBackupUploads,
} from '../../src/server/modules/backups/backup-uploads.service'
import { registeredSchedules } from '../../src/server/jobs/schedule'
import { registerBackupSchedules } from '../../src/server/modules/backups/backups.routes'
import { scheduleDueBackups } from '../../src/server/modules/backups/backup-schedule'
import {
  BACKUP_RESTORE_JOB,
  BACKUP_RUN_JOB,
} from '../../src/server/modules/backups/backups.service'
import { resetStorageForTests } from '../../src/server/storage/storage'
import { startFakeDrive, type FakeDrive } from '../support/fakes/google-drive'
import { call } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Backups (issue 29): configurations, runs, encrypted files, restore, schedule, retention.

let t: TestApp
let worker: Worker
let drive: FakeDrive
let dataDir: string
let admin: string
let adminB: string
let a: string
let b: string
const previous = { dataDir: process.env.DATA_DIR, drive: process.env.GOOGLE_DRIVE_BASE_URL }
const DRIVE_TOKEN = 'ya29.valid-drive-token'

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-backups-'))
  process.env.DATA_DIR = dataDir
  drive = await startFakeDrive(DRIVE_TOKEN)
  process.env.GOOGLE_DRIVE_BASE_URL = drive.url
  resetStorageForTests()
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
}, 180_000)

afterAll(async () => {
  await worker?.stop()
  await t?.close()
  await drive?.close()
  process.env.DATA_DIR = previous.dataDir
  if (previous.drive === undefined) delete process.env.GOOGLE_DRIVE_BASE_URL
  else process.env.GOOGLE_DRIVE_BASE_URL = previous.drive
  resetStorageForTests()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** A fresh worker each time (a stopped Worker does not start again). */
async function startWorker(): Promise<void> {
  worker = new Worker({
    database: t.database,
    names: [BACKUP_RUN_JOB, BACKUP_RESTORE_JOB],
    pollMs: 20,
    progressMs: 0,
    backoff: () => 10,
  })
  await worker.start()
}

async function waitLog(cookie: string, id: string): Promise<BackupLog> {
  for (let i = 0; i < 3000; i++) {
    const res = await call(t.app, cookie, 'GET', `/api/backup/logs/${id}`)
    expect(res.statusCode, res.body).toBe(200)
    const log = (res.json() as { log: BackupLog }).log
    if (log.status !== 'running') return log
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the backup did not finish')
}

async function waitRestore(cookie: string, id: string): Promise<RestoreRun> {
  for (let i = 0; i < 3000; i++) {
    const res = await call(t.app, cookie, 'GET', `/api/backup/restores/${id}`)
    expect(res.statusCode, res.body).toBe(200)
    const restore = (res.json() as { restore: RestoreRun }).restore
    if (restore.status !== 'running') return restore
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the restore did not finish')
}

/** Every row of the backed-up tables of a hospital, every column, in a stable order. */
async function snapshot(hospitalId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const table of RESTORE_ORDER) {
    const rows = await queryRows<{ row: string }>(
      t.db,
      sql`select to_jsonb(x)::text as row from ${sql.identifier(table)} x
          where hospital_id = ${hospitalId} order by 1`,
    )
    out[table] = rows.map((r) => r.row)
  }
  return out
}

async function wipe(hospitalId: string): Promise<void> {
  for (const table of [...RESTORE_ORDER].reverse()) {
    await t.db.execute(sql`delete from ${sql.identifier(table)} where hospital_id = ${hospitalId}`)
  }
}

async function fullBackup(cookie: string): Promise<BackupLog> {
  const res = await call(t.app, cookie, 'POST', '/api/backup/run-now', {})
  expect(res.statusCode, res.body).toBe(202)
  const log = await waitLog(cookie, (res.json() as { log: BackupLog }).log.id)
  expect(log.status, log.error ?? '').toBe('success')
  return log
}

async function downloadBytes(cookie: string, id: string): Promise<Buffer> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/backup/logs/${id}/download`,
    headers: { cookie },
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.rawPayload
}

async function upload(cookie: string, bytes: Buffer): Promise<string> {
  const res = await uploadRaw(cookie, bytes)
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { uploadId: string }).uploadId
}

/** The files under every hospital's backup-uploads folder. */
async function storedUploads(): Promise<number> {
  let n = 0
  for (const h of [a, b]) {
    n += (await readdir(join(dataDir, 'uploads', 'h', h, 'backup-uploads')).catch(() => [])).length
  }
  return n
}

function uploadRaw(cookie: string, bytes: Buffer) {
  return t.app.inject({
    method: 'POST',
    url: '/api/backup/uploads',
    headers: {
      cookie,
      'content-type': 'application/octet-stream',
      origin: 'http://localhost',
      'sec-fetch-site': 'same-origin',
    },
    payload: bytes,
  })
}

describe('configurations', () => {
  it('creates, lists and toggles, never returning the Drive token', async () => {
    const res = await call(t.app, admin, 'POST', '/api/backup/configurations', {
      backupType: 'gdrive',
      frequency: '1day',
      dataTypes: ['billing', 'leads'],
      gdriveAccessToken: DRIVE_TOKEN,
      gdriveFolderId: 'folder-1',
    })
    expect(res.statusCode, res.body).toBe(201)
    const created = res.json().configuration
    expect(created).toMatchObject({
      backupType: 'gdrive',
      dataTypes: ['leads', 'billing'],
      gdriveAccessTokenSet: true,
      gdriveFolderId: 'folder-1',
      isActive: true,
      lastBackup: null,
      running: false,
    })
    expect(res.body).not.toContain(DRIVE_TOKEN)
    const stored = await queryRows<{ enc: string }>(
      t.db,
      sql`select gdrive_access_token_enc as enc from backup_configurations where id = ${created.id}`,
    )
    expect(stored[0]?.enc).not.toContain(DRIVE_TOKEN)
    const patch = await call(t.app, admin, 'PATCH', `/api/backup/configurations/${created.id}`, {
      isActive: false,
    })
    expect(patch.statusCode, patch.body).toBe(200)
    expect(patch.json().configuration.isActive).toBe(false)
    const list = await call(t.app, admin, 'GET', '/api/backup/configurations')
    expect(list.json().configurations.map((c: { id: string }) => c.id)).toContain(created.id)
    const audit = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where entity_id = ${created.id} order by created_at`,
    )
    expect(audit.map((r) => r.action)).toEqual([
      'backup.configuration_created',
      'backup.configuration_paused',
    ])
    // Another hospital's id is a 404.
    const other = await call(t.app, adminB, 'PATCH', `/api/backup/configurations/${created.id}`, {
      isActive: true,
    })
    expect(other.statusCode).toBe(404)
    const run = await call(t.app, adminB, 'POST', `/api/backup/run/${created.id}`)
    expect(run.statusCode).toBe(404)
  })

  it('refuses bad input with 400 and changes nothing', async () => {
    const count = async () =>
      (
        await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from backup_configurations`,
        )
      )[0]?.n
    const before = await count()
    const ok = { backupType: 'offline', frequency: '1day', dataTypes: ['leads'] }
    for (const [body, message] of [
      [{ ...ok, frequency: '2days' }, /Frequency/],
      [{ ...ok, dataTypes: ['leads', 'patients'] }, /Unknown data type/],
      [{ ...ok, dataTypes: [] }, /Select at least one data type/],
      [{ ...ok, backupType: 'gdrive' }, /Google Drive needs an access token/],
      [{ ...ok, extra: 1 }, /Unknown field/],
      [{ ...ok, backupType: 'tape' }, /offline or gdrive/],
    ] as const) {
      const res = await call(t.app, admin, 'POST', '/api/backup/configurations', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().message).toMatch(message)
    }
    expect(await count()).toBe(before)
  })

  it('is for admins only; signed out is 401', async () => {
    const id = '00000000-0000-4000-8000-000000000000'
    const routes = [
      ['GET', '/api/backup/configurations', undefined],
      [
        'POST',
        '/api/backup/configurations',
        { backupType: 'offline', frequency: '1day', dataTypes: ['leads'] },
      ],
      ['PATCH', `/api/backup/configurations/${id}`, { isActive: true }],
      ['POST', `/api/backup/run/${id}`, undefined],
      ['POST', '/api/backup/run-now', {}],
      ['GET', '/api/backup/logs', undefined],
      ['GET', `/api/backup/logs/${id}`, undefined],
      ['GET', `/api/backup/logs/${id}/download`, undefined],
      ['POST', '/api/backup/restore/preview', { source: { logId: id }, mode: 'merge' }],
      ['POST', '/api/backup/restore', { source: { logId: id }, mode: 'merge' }],
      ['GET', `/api/backup/restores/${id}`, undefined],
    ] as const
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const cookie = await login(t.app, demoEmail(role))
      for (const [method, url, body] of routes) {
        const res = await call(t.app, cookie, method, url, body)
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403)
      }
    }
    for (const [method, url, body] of routes) {
      const res = await call(t.app, '', method, url, body)
      expect(res.statusCode, `signed out ${method} ${url}`).toBe(401)
    }
  })
})

describe('backups and restore', () => {
  it('backs up every data type and restores it identically; the other hospital is untouched', async () => {
    const beforeA = await snapshot(a)
    const beforeB = await snapshot(b)
    expect(beforeA.patients?.length).toBeGreaterThan(0)
    expect(beforeA.invoices?.length).toBeGreaterThan(0)
    await startWorker()
    const log = await fullBackup(admin)
    expect(log).toMatchObject({ progress: 100, downloadable: true, error: null })
    expect(log.recordCount).toBe(Object.values(beforeA).reduce((n, rows) => n + rows.length, 0))
    const bytes = await downloadBytes(admin, log.id)
    expect(bytes.length).toBe(log.dataSize)
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('ARGBKP')
    // The patients' names are not readable in the file.
    const name =
      (
        await queryRows<{ name: string }>(
          t.db,
          sql`select name from patients where hospital_id = ${a} limit 1`,
        )
      )[0]?.name ?? ''
    expect(bytes.includes(Buffer.from(name))).toBe(false)

    await wipe(a)
    const preview = await call(t.app, admin, 'POST', '/api/backup/restore/preview', {
      source: { logId: log.id },
      mode: 'replace',
    })
    expect(preview.statusCode, preview.body).toBe(200)
    const p = preview.json() as RestorePreview
    expect(p.manifest.hospitalId).toBe(a)
    expect(p.tables.find((x) => x.table === 'patients')).toMatchObject({
      current: 0,
      toInsert: beforeA.patients?.length,
      toUpdate: 0,
      toDelete: 0,
    })
    // The dry run changed nothing.
    expect((await snapshot(a)).patients).toEqual([])

    const start = await call(t.app, admin, 'POST', '/api/backup/restore', {
      source: { logId: log.id },
      mode: 'replace',
    })
    expect(start.statusCode, start.body).toBe(202)
    const restore = await waitRestore(admin, start.json().restore.id)
    expect(restore.status, restore.error ?? '').toBe('success')
    expect(await snapshot(a)).toEqual(beforeA)
    expect(await snapshot(b)).toEqual(beforeB)
  })

  it('Run Now twice is a 409 while the first runs', async () => {
    const res = await call(t.app, admin, 'POST', '/api/backup/configurations', {
      backupType: 'offline',
      frequency: '1week',
      dataTypes: ['leads'],
    })
    const id = res.json().configuration.id as string
    await worker.stop()
    const first = await call(t.app, admin, 'POST', `/api/backup/run/${id}`)
    expect(first.statusCode, first.body).toBe(202)
    expect(first.json().log).toMatchObject({ status: 'running', progress: 0 })
    const again = await call(t.app, admin, 'POST', `/api/backup/run/${id}`)
    expect(again.statusCode, again.body).toBe(409)
    const list = await call(t.app, admin, 'GET', '/api/backup/configurations')
    expect(list.json().configurations.find((c: { id: string }) => c.id === id).running).toBe(true)
    await startWorker()
    expect((await waitLog(admin, first.json().log.id)).status).toBe('success')
    const logs = await call(t.app, admin, 'GET', '/api/backup/logs?limit=2')
    expect(logs.json().logs).toHaveLength(2)
    expect(logs.json().logs[0].id).toBe(first.json().log.id)
  })

  it('merge keeps newer rows and inserts missing ones; replace removes rows made since', async () => {
    const log = await fullBackup(admin)
    const [lead] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from leads where hospital_id = ${a} order by id limit 1`,
    )
    await t.db.execute(
      sql`update leads set notes = 'changed after the backup', updated_at = now() + interval '1 minute' where id = ${lead?.id}`,
    )
    const [gone] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from payments where hospital_id = ${a} order by id limit 1`,
    )
    await t.db.execute(sql`delete from payments where id = ${gone?.id}`)
    const merge = await call(t.app, admin, 'POST', '/api/backup/restore', {
      source: { logId: log.id },
      mode: 'merge',
    })
    expect((await waitRestore(admin, merge.json().restore.id)).status).toBe('success')
    const [kept] = await queryRows<{ notes: string }>(
      t.db,
      sql`select notes from leads where id = ${lead?.id}`,
    )
    expect(kept?.notes).toBe('changed after the backup')
    expect(await queryRows(t.db, sql`select 1 from payments where id = ${gone?.id}`)).toHaveLength(
      1,
    )

    const replace = await call(t.app, admin, 'POST', '/api/backup/restore', {
      source: { logId: log.id },
      mode: 'replace',
    })
    const done = await waitRestore(admin, replace.json().restore.id)
    expect(done.status).toBe('success')
    const [back] = await queryRows<{ notes: string | null }>(
      t.db,
      sql`select notes from leads where id = ${lead?.id}`,
    )
    expect(back?.notes).not.toBe('changed after the backup')
  })

  it('refuses corrupted, truncated, foreign and non-backup files and changes nothing', async () => {
    const log = await fullBackup(admin)
    const bytes = await downloadBytes(admin, log.id)
    const before = await snapshot(a)
    const corrupted = Buffer.from(bytes)
    const middle = Math.floor(corrupted.length / 2)
    corrupted[middle] = (corrupted[middle] ?? 0) ^ 0xff
    const truncated = bytes.subarray(0, bytes.length - 20)
    const cutAtChunk = bytes.subarray(0, 200)
    for (const [file, message] of [
      [corrupted, /damaged/],
      [truncated, /incomplete|damaged/],
      [cutAtChunk, /incomplete/],
    ] as const) {
      const uploadId = await upload(admin, file)
      const res = await call(t.app, admin, 'POST', '/api/backup/restore/preview', {
        source: { uploadId },
        mode: 'replace',
      })
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json().message).toMatch(message)
    }
    // A file that is no backup, and Sanjeevani's file at Smile Dental, are refused as they
    // arrive (the header, on the first bytes): nothing is stored.
    const uploadsBefore = await queryRows(t.db, sql`select id from backup_uploads`)
    const notBackup = await uploadRaw(admin, Buffer.from('PK\u0003\u0004 not a backup'))
    expect(notBackup.statusCode, notBackup.body).toBe(415)
    expect(notBackup.json()).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'This is not an Arogya CRM backup file. Choose a .arogyabackup file.',
    })
    const foreign = await uploadRaw(adminB, bytes)
    expect(foreign.statusCode, foreign.body).toBe(400)
    expect(foreign.json().message).toMatch(/another hospital/)
    const short = await uploadRaw(admin, bytes.subarray(0, 12))
    expect(short.statusCode, short.body).toBe(400)
    expect(short.json().message).toMatch(/incomplete/)
    expect(await queryRows(t.db, sql`select id from backup_uploads`)).toEqual(uploadsBefore)
    expect(await storedUploads()).toEqual(uploadsBefore.length)
    // And not a log of Sanjeevani either (404).
    const res = await call(t.app, adminB, 'POST', '/api/backup/restore', {
      source: { logId: log.id },
      mode: 'merge',
    })
    expect(res.statusCode).toBe(404)
    const dl = await t.app.inject({
      method: 'GET',
      url: `/api/backup/logs/${log.id}/download`,
      headers: { cookie: adminB },
    })
    expect(dl.statusCode).toBe(404)
    // A file under another installation's key fails as a restore job too, changing nothing.
    const uploadId = await upload(admin, corrupted)
    const start = await call(t.app, admin, 'POST', '/api/backup/restore', {
      source: { uploadId },
      mode: 'replace',
    })
    expect(start.statusCode, start.body).toBe(202)
    const failed = await waitRestore(admin, start.json().restore.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(/damaged/)
    expect(await snapshot(a)).toEqual(before)
  })
})

describe('Google Drive, schedule and retention', () => {
  it('uploads a Drive backup resumably; a bad token fails the log with a clear message', async () => {
    const res = await call(t.app, admin, 'POST', '/api/backup/configurations', {
      backupType: 'gdrive',
      frequency: '1hour',
      dataTypes: ['leads'],
      gdriveAccessToken: DRIVE_TOKEN,
      gdriveFolderId: 'folder-9',
    })
    const id = res.json().configuration.id as string
    const run = await call(t.app, admin, 'POST', `/api/backup/run/${id}`)
    const log = await waitLog(admin, run.json().log.id)
    expect(log.status, log.error ?? '').toBe('success')
    const start = drive.requests.find((r) => r.method === 'POST')
    expect(start?.headers.authorization).toBe(`Bearer ${DRIVE_TOKEN}`)
    expect(start?.refused).toBeNull()
    const file = [...drive.files.values()].at(-1)
    expect(file).toMatchObject({ parents: ['folder-9'], bytes: log.dataSize })

    const bad = await call(t.app, admin, 'POST', '/api/backup/configurations', {
      backupType: 'gdrive',
      frequency: '1hour',
      dataTypes: ['leads'],
      gdriveAccessToken: 'expired-token',
    })
    const badRun = await call(
      t.app,
      admin,
      'POST',
      `/api/backup/run/${bad.json().configuration.id}`,
    )
    const failed = await waitLog(admin, badRun.json().log.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(/refused the access token \(401\)/)
    expect(failed.downloadable).toBe(false)
  })

  it('runs due configurations once after downtime, and two ticks make one run', async () => {
    await t.db.execute(sql`update backup_configurations set is_active = false`)
    const res = await call(t.app, adminB, 'POST', '/api/backup/configurations', {
      backupType: 'offline',
      frequency: '1hour',
      dataTypes: ['billing'],
    })
    const id = res.json().configuration.id as string
    // Last run three days ago: many hourly slots were missed.
    await t.db.execute(
      sql`update backup_configurations set last_run_at = now() - interval '3 days' where id = ${id}`,
    )
    await worker.stop()
    const now = new Date()
    expect(await scheduleDueBackups(t.db, now)).toBe(1)
    expect(await scheduleDueBackups(t.db, now)).toBe(0)
    expect(await scheduleDueBackups(t.db, new Date(now.getTime() + 60_000))).toBe(0)
    const runs = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from backup_logs where configuration_id = ${id}`,
    )
    expect(runs[0]?.n).toBe(1)
    await startWorker()
    const [log] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from backup_logs where configuration_id = ${id}`,
    )
    expect((await waitLog(adminB, log?.id ?? '')).status).toBe('success')
    // Not due again for an hour.
    expect(await scheduleDueBackups(t.db, new Date(now.getTime() + 30 * 60_000))).toBe(0)
    expect(await scheduleDueBackups(t.db, new Date(now.getTime() + 61 * 60_000))).toBe(1)
  })

  it('retention deletes old files and their Drive copies', async () => {
    const files = drive.files.size
    expect(files).toBeGreaterThan(0)
    await t.db.execute(
      sql`update backup_logs set started_at = started_at - interval '31 days' where hospital_id = ${a}`,
    )
    const removed = await pruneOldBackups(t.db)
    expect(removed).toBeGreaterThan(0)
    expect(drive.deleted.length).toBeGreaterThan(0)
    expect(drive.files.size).toBeLessThan(files)
    const logs = await call(t.app, admin, 'GET', '/api/backup/logs?limit=100')
    expect(logs.json().logs.every((l: BackupLog) => !l.downloadable)).toBe(true)
    await writeFile(join(dataDir, 'probe'), '')
    expect(await readFile(join(dataDir, 'probe'), 'utf8')).toBe('')
  })
})

describe('uploaded backups are pruned', () => {
  it('daily: uploads older than a day that no running restore reads go, row and file', async () => {
    registerBackupSchedules()
    expect(registeredSchedules().find((x) => x.name === BACKUP_UPLOADS_PRUNE_JOB)?.spec).toEqual({
      dailyAt: '04:00',
      timeZone: 'Asia/Kolkata',
    })
    const bytes = await downloadBytes(admin, (await fullBackup(admin)).id)
    const old = await upload(admin, bytes)
    const inUse = await upload(admin, bytes)
    const fresh = await upload(admin, bytes)
    const foreignOld = await upload(
      adminB,
      await downloadBytes(adminB, (await fullBackup(adminB)).id),
    )
    await t.db.execute(
      sql`update backup_uploads set created_at = now() - interval '25 hours'
          where id in (${old}, ${inUse}, ${foreignOld})`,
    )
    await t.db.execute(sql`delete from backup_restores where status = 'running'`)
    await t.db.execute(
      sql`insert into backup_restores (hospital_id, status, mode, source_upload_id)
          values (${a}, 'running', 'merge', ${inUse})`,
    )
    expect(await pruneBackupUploads(t.db)).toBeGreaterThanOrEqual(2)
    const left = (await queryRows<{ id: string }>(t.db, sql`select id from backup_uploads`)).map(
      (r) => r.id,
    )
    expect(left).toEqual(expect.arrayContaining([inUse, fresh]))
    expect(left).not.toContain(old)
    expect(left).not.toContain(foreignOld)
    // Every row left has its file, and no file is left without its row.
    expect(await storedUploads()).toBe(left.length)
    await t.db.execute(sql`delete from backup_restores where status = 'running'`)
  })
})
