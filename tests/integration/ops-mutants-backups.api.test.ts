import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BackupLog, RestorePreview } from '../../src/shared/schemas/backup'
import { withTenant } from '../../src/server/db/tenant'
import type { ClaimedJob, JobContext } from '../../src/server/jobs/registry'
import { scheduleDueBackups } from '../../src/server/modules/backups/backup-schedule'
import { runRestoreJob } from '../../src/server/modules/backups/backup-restore.service'
import { runBackupJob, settleDeadBackup } from '../../src/server/modules/backups/backup-run.service'
import { BACKUP_FAILED_MESSAGE } from '../../src/server/modules/backups/backups.service'
import { encryptStream, parseHeader } from '../../src/server/modules/backups/backup-crypto'
import { getStorage, resetStorageForTests, tenantKey } from '../../src/server/storage/storage'
import { startFakeDrive, type FakeDrive } from '../support/fakes/google-drive'
import { expectError } from '../support/http'
import { call } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-ops mutation part (stryker/groups.mjs, docs/decisions/024), backups: exact 404
// words for another hospital's ids, the rows a run, a toggle, a download, a dead job and a
// restore write, and only to the row named. No worker runs: the job handlers are called here.

let t: TestApp
let drive: FakeDrive
let dataDir: string
let admin: string
let adminB: string
let a: string
let b: string
const previous = { dataDir: process.env.DATA_DIR, drive: process.env.GOOGLE_DRIVE_BASE_URL }

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-ops-backups-'))
  process.env.DATA_DIR = dataDir
  drive = await startFakeDrive('ya29.valid-drive-token')
  process.env.GOOGLE_DRIVE_BASE_URL = drive.url
  resetStorageForTests()
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
}, 180_000)
afterAll(async () => {
  await t?.close()
  await drive?.close()
  process.env.DATA_DIR = previous.dataDir
  if (previous.drive === undefined) delete process.env.GOOGLE_DRIVE_BASE_URL
  else process.env.GOOGLE_DRIVE_BASE_URL = previous.drive
  resetStorageForTests()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const one = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  (await queryRows<T>(t.db, query))[0]
const job = (hospitalId: string | null, payload: unknown) =>
  ({ id: 'j', name: 'backup', hospitalId, payload, attempts: 1, maxAttempts: 1 }) as ClaimedJob
const ctx = (hospitalId: string) =>
  ({
    db: t.db,
    signal: new AbortController().signal,
    progress: async () => undefined,
    checkpoint: async () => undefined,
    log: { error: () => undefined, warn: () => undefined, info: () => undefined },
    withTenant: <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
      withTenant(t.db, { hospitalId, userId: null }, fn),
  }) as unknown as JobContext
const logRow = (id: string) =>
  one(sql`select status, progress, error, storage_key, finished_at is not null as finished
          from backup_logs where id = ${id}`)
const audits = (id: string) =>
  queryRows<{ action: string; summary: string }>(
    t.db,
    sql`select action, summary from audit_events where entity_id = ${id} order by created_at, id`,
  )
async function config(cookie: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await call(t.app, cookie, 'POST', '/api/backup/configurations', {
    backupType: 'offline',
    frequency: '1day',
    dataTypes: ['leads'],
    ...body,
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ configuration: { id: string } }>().configuration.id
}
async function run(cookie: string, url: string, body?: unknown): Promise<BackupLog> {
  const res = await call(t.app, cookie, 'POST', url, body)
  expect(res.statusCode, res.body).toBe(202)
  return res.json<{ log: BackupLog }>().log
}
const stamp = (id: string) =>
  one(sql`select last_run_at::text as run, last_backup::text as backup, is_active
          from backup_configurations where id = ${id}`)
const download = (cookie: string, id: string) =>
  t.app.inject({ method: 'GET', url: `/api/backup/logs/${id}/download`, headers: { cookie } })

describe('configurations and runs', () => {
  it('runs and toggles only the configuration named, audited in its words; 404s in exact words', async () => {
    const first = await config(admin)
    const second = await config(admin)
    const log = await run(admin, `/api/backup/run/${first}`)
    expect(log).toMatchObject({ configurationId: first, status: 'running', backupType: 'offline' })
    const started = await one<{ s: string }>(
      sql`select date_trunc('milliseconds', started_at)::text as s from backup_logs where id = ${log.id}`,
    )
    expect(await stamp(first)).toEqual({ run: started?.s, backup: null, is_active: true })
    expect(await stamp(second)).toEqual({ run: null, backup: null, is_active: true })
    expect(
      await queryRows(
        t.db,
        sql`select name, payload, max_attempts, dedupe_key from jobs
        where payload ->> 'logId' = ${log.id}`,
      ),
    ).toEqual([
      { name: 'backup.run', payload: { logId: log.id }, max_attempts: 1, dedupe_key: null },
    ])
    expect(await audits(log.id)).toEqual([
      { action: 'backup.run_requested', summary: 'Started an offline backup of leads' },
    ])
    const again = await call(t.app, admin, 'POST', `/api/backup/run/${first}`)
    expect(expectError(again, 409, 'CONFLICT').message).toBe(
      'A backup of this configuration is already running',
    )

    const patch = (cookie: string, isActive: boolean) =>
      call(t.app, cookie, 'PATCH', `/api/backup/configurations/${first}`, { isActive })
    const off = await patch(admin, false)
    expect(off.statusCode, off.body).toBe(200)
    expect(off.json()).toMatchObject({
      configuration: { id: first, isActive: false, running: true },
    })
    expect(await stamp(second)).toMatchObject({ is_active: true })
    expect((await patch(admin, true)).statusCode).toBe(200)
    expect((await audits(first)).slice(1)).toEqual([
      { action: 'backup.configuration_paused', summary: 'Turned off the 1day offline backup' },
      { action: 'backup.configuration_activated', summary: 'Turned on the 1day offline backup' },
    ])

    const notFound = async (res: Awaited<ReturnType<typeof download>>, message: string) =>
      expect(expectError(res, 404, 'NOT_FOUND').message).toBe(message)
    await notFound(await patch(adminB, false), 'Backup configuration not found')
    await notFound(
      await call(t.app, adminB, 'POST', `/api/backup/run/${first}`),
      'Backup configuration not found',
    )
    await notFound(
      await call(t.app, adminB, 'GET', `/api/backup/logs/${log.id}`),
      'Backup not found',
    )
    await notFound(await download(adminB, log.id), 'Backup not found')
    await notFound(await download(admin, log.id), 'This backup file is not kept any more')
    expect(await stamp(first)).toMatchObject({ is_active: true })
  })

  it('audits a scheduled run as scheduled, with its dedupe key', async () => {
    await t.db.execute(sql`update backup_configurations set is_active = false`)
    const id = await config(admin, { dataTypes: ['billing'], frequency: '1hour' })
    expect(await scheduleDueBackups(t.db, new Date())).toBe(1)
    const [log] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from backup_logs where configuration_id = ${id}`,
    )
    expect(await audits(log?.id ?? '')).toEqual([
      { action: 'backup.scheduled_run', summary: 'Scheduled an offline backup of billing' },
    ])
    expect(
      await one(sql`select dedupe_key from jobs where payload ->> 'logId' = ${log?.id}`),
    ).toEqual({ dedupe_key: `${a}:backup.run:${id}:first` })
  })
})

describe('downloads, uploads and restores', () => {
  it('downloads a kept file once audited, and refuses it once its files are deleted', async () => {
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into backup_logs (hospital_id, status, backup_type, data_types, data_size, finished_at)
          values (${a}, 'success', 'offline', '{leads}', 12, now()) returning id`,
    )
    const id = row?.id ?? ''
    const key = tenantKey(a, 'backups', id)
    await getStorage().put(key, Readable.from([Buffer.from('backup bytes')]), {
      maxBytes: 1000,
      contentType: 'application/octet-stream',
    })
    await t.db.execute(sql`update backup_logs set storage_key = ${key} where id = ${id}`)
    const res = await download(admin, id)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.body).toBe('backup bytes')
    expect(await audits(id)).toEqual([
      { action: 'backup.downloaded', summary: 'Downloaded a backup file (12 bytes)' },
    ])
    await t.db.execute(sql`update backup_logs set files_deleted_at = now() where id = ${id}`)
    const gone = 'This backup file is not kept any more'
    expect(expectError(await download(admin, id), 404, 'NOT_FOUND').message).toBe(gone)
    const preview = await call(t.app, admin, 'POST', '/api/backup/restore/preview', {
      source: { logId: id },
      mode: 'merge',
    })
    expect(expectError(preview, 404, 'NOT_FOUND').message).toBe(gone)
    expect(await audits(id)).toHaveLength(1)
  })

  it('answers another hospital’s upload and restore with 404 in exact words', async () => {
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/backup/uploads',
      headers: {
        cookie: admin,
        'content-type': 'application/octet-stream',
        origin: 'http://localhost',
        'sec-fetch-site': 'same-origin',
      },
      // A real header (this hospital's), then bytes that are no backup at all.
      payload: Buffer.concat([await headerOf(a), Buffer.from('not a backup at all')]),
    })
    expect(up.statusCode, up.body).toBe(201)
    const { uploadId } = up.json<{ uploadId: string }>()
    const preview = await call(t.app, adminB, 'POST', '/api/backup/restore/preview', {
      source: { uploadId },
      mode: 'merge',
    })
    expect(expectError(preview, 404, 'NOT_FOUND').message).toBe('Uploaded backup not found')
    const [restore] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into backup_restores (hospital_id, status, mode, source_upload_id)
          values (${a}, 'running', 'merge', ${uploadId}) returning id`,
    )
    const id = restore?.id ?? ''
    expect((await call(t.app, admin, 'GET', `/api/backup/restores/${id}`)).statusCode).toBe(200)
    const foreign = await call(t.app, adminB, 'GET', `/api/backup/restores/${id}`)
    expect(expectError(foreign, 404, 'NOT_FOUND').message).toBe('Restore not found')

    // The restore job fails it with the file's own words, and touches no other restore.
    const [done] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into backup_restores (hospital_id, status, mode, source_upload_id, finished_at)
          values (${a}, 'success', 'merge', ${uploadId}, now()) returning id`,
    )
    expect(await runRestoreJob(job(a, { restoreId: done?.id }), ctx(a))).toEqual({
      skipped: 'not running',
    })
    expect(await runRestoreJob(job(a, { restoreId: id }), ctx(a))).toEqual({
      restoreId: id,
      failed: true,
    })
    const rows = await queryRows<{ id: string; status: string; error: string | null }>(
      t.db,
      sql`select id, status, error from backup_restores where id in (${id}, ${done?.id})`,
    )
    expect(rows.find((r) => r.id === done?.id)).toMatchObject({ status: 'success', error: null })
    const failed = rows.find((r) => r.id === id)
    expect(failed?.status).toBe('failed')
    expect(failed?.error).toMatch(/incomplete|damaged/)
    for (const payload of [null, {}, { restoreId: 7 }]) {
      expect(await runRestoreJob(job(a, payload), ctx(a))).toEqual({ skipped: 'bad payload' })
    }
    expect(await runRestoreJob(job(null, { restoreId: id }), ctx(a))).toEqual({
      skipped: 'bad payload',
    })
  })
})

/** The header a backup file of `hospitalId` starts with. */
async function headerOf(hospitalId: string): Promise<Buffer> {
  const encrypt = encryptStream(hospitalId)
  const out = buffer(encrypt)
  encrypt.end(Buffer.from('x'))
  return parseHeader(await out)!.bytes
}

describe('the backup and restore jobs', () => {
  it('skip bad payloads and settled logs; a dead job fails only its own running log', async () => {
    for (const payload of [null, {}, { logId: 7 }]) {
      expect(await runBackupJob(job(a, payload), ctx(a))).toEqual({ skipped: 'bad payload' })
    }
    const own = await run(admin, '/api/backup/run-now', { dataTypes: ['leads'] })
    expect(await runBackupJob(job(null, { logId: own.id }), ctx(a))).toEqual({
      skipped: 'bad payload',
    })
    const [other] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from backup_logs where hospital_id = ${a} and status = 'running' and id <> ${own.id} limit 1`,
    )
    expect(other).toBeDefined()
    await settleDeadBackup({ payload: null }, ctx(a))
    await settleDeadBackup({ payload: { logId: own.id } }, ctx(a))
    expect(await logRow(own.id)).toEqual({
      status: 'failed',
      progress: 0,
      error: BACKUP_FAILED_MESSAGE,
      storage_key: null,
      finished: true,
    })
    expect(await logRow(other?.id ?? '')).toMatchObject({ status: 'running', finished: false })
    expect(await runBackupJob(job(a, { logId: own.id }), ctx(a))).toEqual({
      skipped: 'not running',
    })
  })

  it('fails a Drive backup without a configuration in its own words, and deletes its stored file', async () => {
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into backup_logs (hospital_id, backup_type, data_types)
          values (${a}, 'gdrive', '{leads}') returning id`,
    )
    const id = row?.id ?? ''
    expect(await runBackupJob(job(a, { logId: id }), ctx(a))).toEqual({ logId: id, failed: true })
    expect(await logRow(id)).toMatchObject({
      status: 'failed',
      error: 'The Google Drive configuration has no access token.',
      storage_key: null,
      finished: true,
    })
    await expect(getStorage().get(tenantKey(a, 'backups', id))).rejects.toThrow()
  })

  it('backs up the hospital’s own name, settles only its log and configuration, and restores audited', async () => {
    const [name] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from hospitals where id = ${b}`,
    )
    const first = await config(adminB, { dataTypes: ['billing'] })
    const second = await config(adminB, { dataTypes: ['billing'] })
    const scheduled = await run(adminB, `/api/backup/run/${first}`)
    const now = await run(adminB, '/api/backup/run-now', { dataTypes: ['billing'] })
    const done = (await runBackupJob(job(b, { logId: now.id }), ctx(b))) as {
      bytes: number
      rows: number
    }
    expect(done).toMatchObject({ logId: now.id })
    expect(await logRow(now.id)).toEqual({
      status: 'success',
      progress: 100,
      error: null,
      storage_key: tenantKey(b, 'backups', now.id),
      finished: true,
    })
    expect(await logRow(scheduled.id)).toMatchObject({ status: 'running', progress: 0 })
    expect(await runBackupJob(job(b, { logId: scheduled.id }), ctx(b))).toMatchObject({
      logId: scheduled.id,
    })
    const started = await one<{ s: string }>(
      sql`select date_trunc('milliseconds', started_at)::text as s from backup_logs where id = ${scheduled.id}`,
    )
    expect(await stamp(first)).toMatchObject({ backup: started?.s })
    expect(await stamp(second)).toMatchObject({ backup: null })

    const preview = await call(t.app, adminB, 'POST', '/api/backup/restore/preview', {
      source: { logId: now.id },
      mode: 'merge',
    })
    expect(preview.statusCode, preview.body).toBe(200)
    const { manifest } = preview.json<RestorePreview>()
    expect(manifest).toMatchObject({
      hospitalId: b,
      hospitalName: name?.name,
      recordCount: done.rows,
    })

    const userId = await userIdOf(t.db, demoEmail('admin', 'smiledental'))
    const [restore] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into backup_restores (hospital_id, mode, source_log_id)
          values (${b}, 'merge', ${now.id}) returning id`,
    )
    const id = restore?.id ?? ''
    const result = (await runRestoreJob(job(b, { restoreId: id, userId }), ctx(b))) as {
      tables: { table: string; toInsert: number; toUpdate: number; toDelete: number }[]
    }
    expect(result).toMatchObject({ restoreId: id })
    expect(
      await one(sql`select status, progress, error, tables from backup_restores where id = ${id}`),
    ).toEqual({
      status: 'success',
      progress: 100,
      error: null,
      tables: result.tables,
    })
    const tables = result.tables.map(
      (x) => `${x.table} +${x.toInsert} ~${x.toUpdate} -${x.toDelete}`,
    )
    expect(
      await queryRows(
        t.db,
        sql`select action, actor_user_id, summary from audit_events where entity_id = ${id}`,
      ),
    ).toEqual([
      {
        action: 'backup.restored',
        actor_user_id: userId,
        summary: `Restored a backup of ${manifest.createdAt} (merge): ${tables.join(', ')}`,
      },
    ])
  })
})
