import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { withPlatform } from '../../src/server/db/tenant'
import { Worker } from '../../src/server/jobs/worker'
import { encryptStream } from '../../src/server/modules/backups/backup-crypto'
import { DATA_EXPORT_JOB } from '../../src/server/modules/data-export/export-job'
import { LEAD_IMPORT_JOB } from '../../src/server/modules/leads/leads.import'
import { quotaBytesForPlan } from '../../src/server/storage/quota'
import { resetStorageForTests } from '../../src/server/storage/storage'
import type { StorageUsage } from '../../src/shared/schemas/storage'
import { storageUsage } from '../../src/shared/schemas/storage'
import { waitForExport } from '../support/data-export'
import { expectError } from '../support/http'
import { call } from '../support/leads'
import { uploadCsv } from '../support/leads-import'
import { browserHeaders, login } from '../support/login'
import { samples } from '../support/storage-samples'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 39, item 8: one disk quota per hospital over every stored byte (attachments, backup
// uploads, exports, import files). Sanjeevani (Enterprise) gets 1 MB here through
// STORAGE_QUOTA_MB_ENTERPRISE; each path over it answers 413 STORAGE_QUOTA_EXCEEDED and keeps
// nothing: no file on disk, no row, no job.

const MB = 1024 * 1024
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  STORAGE_QUOTA_MB_ENTERPRISE: process.env.STORAGE_QUOTA_MB_ENTERPRISE,
}
let dataDir: string
let t: TestApp
let worker: Worker
let admin: string
let receptionist: string
let viewer: string
let adminB: string
let a: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-quota-'))
  process.env.DATA_DIR = dataDir
  process.env.STORAGE_QUOTA_MB_ENTERPRISE = '1'
  resetStorageForTests()
  t = await createTestApp()
  worker = new Worker({
    database: t.database,
    names: [DATA_EXPORT_JOB],
    pollMs: 20,
    progressMs: 0,
    backoff: () => 10,
  })
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  viewer = await login(t.app, demoEmail('viewer'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
}, 120_000)

afterAll(async () => {
  await worker?.stop()
  await t?.close()
  process.env.DATA_DIR = saved.DATA_DIR
  if (saved.DATA_DIR === undefined) delete process.env.DATA_DIR
  process.env.STORAGE_QUOTA_MB_ENTERPRISE = saved.STORAGE_QUOTA_MB_ENTERPRISE
  if (saved.STORAGE_QUOTA_MB_ENTERPRISE === undefined)
    delete process.env.STORAGE_QUOTA_MB_ENTERPRISE
  resetStorageForTests()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/* ---------------- helpers ---------------- */

/** Every file under dir (recursively) with its size; [] when there is none. */
async function filesUnder(dir: string): Promise<{ path: string; size: number }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  const out: { path: string; size: number }[] = []
  for (const e of entries) {
    if (!e.isFile()) continue
    const path = join(e.parentPath, e.name)
    out.push({ path, size: (await stat(path)).size })
  }
  return out.sort((x, y) => x.path.localeCompare(y.path))
}
const bytesUnder = async (dir: string) =>
  (await filesUnder(dir)).reduce((sum, f) => sum + f.size, 0)

/** Every stored file of every kind, the storage module's temporary files included. */
const everything = () => filesUnder(dataDir)

async function count(sqlText: ReturnType<typeof sql>): Promise<number> {
  const [row] = await withPlatform(t.db, (tx) => queryRows<{ n: number }>(tx, sqlText))
  return row?.n ?? -1
}
const rows = async () => ({
  attachments: await count(sql`select count(*)::int as n from support_ticket_attachments`),
  backupUploads: await count(sql`select count(*)::int as n from backup_uploads`),
  imports: await count(sql`select count(*)::int as n from jobs where name = ${LEAD_IMPORT_JOB}`),
  exports: await count(sql`select count(*)::int as n from jobs where name = ${DATA_EXPORT_JOB}`),
})

async function usage(cookie: string): Promise<StorageUsage> {
  const res = await call(t.app, cookie, 'GET', '/api/storage/usage')
  expect(res.statusCode, res.body).toBe(200)
  return storageUsage.strict().parse(res.json())
}
const kindBytes = (u: StorageUsage, kind: string) => u.kinds.find((k) => k.kind === kind)?.bytes

/** A file standing in for an earlier export, sized so that `remaining` bytes are left. */
async function leaveRoom(remaining: number): Promise<void> {
  const filler = join(dataDir, 'exports', a, 'filler.zip')
  await mkdir(join(dataDir, 'exports', a), { recursive: true })
  const current = (await stat(filler).catch(() => null))?.size ?? 0
  const u = await usage(admin)
  const size = current + (u.limitBytes - remaining - u.usedBytes)
  expect(size).toBeGreaterThanOrEqual(0)
  await writeFile(filler, Buffer.alloc(size))
  expect((await usage(admin)).usedBytes).toBe(u.limitBytes - remaining)
}

function pdf(size: number): Buffer {
  const data = Buffer.alloc(size, 0x41)
  samples.pdf.copy(data)
  return data
}

function* chunks(data: Buffer) {
  for (let i = 0; i < data.length; i += 64 * 1024) yield data.subarray(i, i + 64 * 1024)
}

function attach(cookie: string, ticketId: string, payload: Buffer | Readable, name = 'scan.pdf') {
  return t.app.inject({
    method: 'POST',
    url: `/api/support-tickets/${ticketId}/attachments`,
    headers: {
      ...browserHeaders(cookie),
      'content-type': 'application/octet-stream',
      'x-filename': encodeURIComponent(name),
    },
    payload,
  })
}

async function ticket(cookie: string): Promise<string> {
  const res = await call(t.app, cookie, 'POST', '/api/support-tickets', {
    subject: 'Scanner uploads',
    description: 'The scanned referral letters do not open; the files are attached.',
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

/** A real backup file's first bytes (its header), then size bytes in all. */
async function backupBytes(size: number): Promise<Buffer> {
  const encrypt = encryptStream(a)
  const out = buffer(encrypt)
  encrypt.end(Buffer.alloc(size, 7))
  const data = await out
  return data.subarray(0, Math.min(size, data.length))
}

function uploadBackup(cookie: string, payload: Buffer | Readable) {
  return t.app.inject({
    method: 'POST',
    url: '/api/backup/uploads',
    headers: { ...browserHeaders(cookie), 'content-type': 'application/octet-stream' },
    payload,
  })
}

function remove(cookie: string, url: string) {
  const headers = browserHeaders(cookie)
  delete headers['content-type']
  return t.app.inject({ method: 'DELETE', url, headers })
}

/** Hospital A stores nothing again: rows and files of every kind go. */
async function clearAll(): Promise<void> {
  await withPlatform(t.db, async (tx) => {
    await tx.execute(sql`delete from support_ticket_attachments where hospital_id = ${a}`)
    await tx.execute(sql`delete from backup_uploads where hospital_id = ${a}`)
    await tx.execute(sql`update jobs set status = 'done' where hospital_id = ${a}
      and name = ${LEAD_IMPORT_JOB} and status <> 'done'`)
  })
  await rm(join(dataDir, 'uploads', 'h', a), { recursive: true, force: true })
  await rm(join(dataDir, 'imports', a), { recursive: true, force: true })
  await rm(join(dataDir, 'exports', a), { recursive: true, force: true })
  expect((await usage(admin)).usedBytes).toBe(0)
}

/** A refusal with 413 STORAGE_QUOTA_EXCEEDED naming the limit and the usage; nothing kept. */
async function expectQuotaRefusal(
  attempt: () => Promise<Awaited<ReturnType<typeof attach>>>,
): Promise<void> {
  const files = await everything()
  const before = await rows()
  const used = (await usage(admin)).usedBytes
  const res = await attempt()
  const body = expectError(res, 413, 'STORAGE_QUOTA_EXCEEDED')
  expect(body.message).toMatch(/^This hospital has used [\d.]+ (KB|MB) of its 1 MB storage/)
  expect(await everything()).toEqual(files)
  expect(await rows()).toEqual(before)
  expect((await usage(admin)).usedBytes).toBe(used)
}

/* ---------------- tests ---------------- */

describe('the quota', () => {
  it('is sized by plan, and STORAGE_QUOTA_MB / STORAGE_QUOTA_MB_<PLAN> override it', () => {
    expect(quotaBytesForPlan('starter', {})).toBe(2 * 1024 * MB)
    expect(quotaBytesForPlan('professional', {})).toBe(10 * 1024 * MB)
    expect(quotaBytesForPlan('enterprise', {})).toBe(50 * 1024 * MB)
    expect(quotaBytesForPlan('starter', { STORAGE_QUOTA_MB: '500' })).toBe(500 * MB)
    expect(
      quotaBytesForPlan('starter', { STORAGE_QUOTA_MB: '500', STORAGE_QUOTA_MB_STARTER: '7' }),
    ).toBe(7 * MB)
    expect(quotaBytesForPlan('professional', { STORAGE_QUOTA_MB_STARTER: '7' })).toBe(
      10 * 1024 * MB,
    )
    expect(() => quotaBytesForPlan('starter', { STORAGE_QUOTA_MB: '0' })).toThrow()
  })
})

describe('GET /api/storage/usage', () => {
  it('equals the sizes of the files stored, kind by kind, for every member', async () => {
    const id = await ticket(receptionist)
    expect((await attach(receptionist, id, pdf(40_000))).statusCode).toBe(201)
    expect((await attach(admin, id, samples.txt, 'notes.txt')).statusCode).toBe(201)
    const backup = await uploadBackup(admin, await backupBytes(30_000))
    expect(backup.statusCode, backup.body).toBe(201)
    const csv = `Name,Phone\r\nQuota Lead,+919876500011\r\n`
    expect((await uploadCsv(t.app, receptionist, csv)).statusCode).toBe(202)
    await leaveRoom(600_000)

    const u = await usage(viewer)
    const uploads = join(dataDir, 'uploads', 'h', a)
    expect(kindBytes(u, 'attachments')).toBe(await bytesUnder(join(uploads, 'support-tickets')))
    expect(kindBytes(u, 'attachments')).toBe(40_000 + samples.txt.length)
    expect(kindBytes(u, 'backupUploads')).toBe(await bytesUnder(join(uploads, 'backup-uploads')))
    expect(kindBytes(u, 'backupUploads')).toBe(30_000)
    expect(kindBytes(u, 'exports')).toBe(await bytesUnder(join(dataDir, 'exports', a)))
    expect(kindBytes(u, 'imports')).toBe(await bytesUnder(join(dataDir, 'imports', a)))
    expect(kindBytes(u, 'imports')).toBe(Buffer.byteLength(csv))
    expect(u.usedBytes).toBe(u.kinds.reduce((sum, k) => sum + k.bytes, 0))
    expect(u.limitBytes).toBe(MB)

    // Another hospital sees its own files and its own plan's quota (Professional: 10 GB).
    const other = await usage(adminB)
    expect(other.limitBytes).toBe(10 * 1024 * MB)
    expect(other.usedBytes).toBe(0)
    expect((await call(t.app, undefined, 'GET', '/api/storage/usage')).statusCode).toBe(401)
  })
})

describe('each path over the quota: 413, nothing left behind', () => {
  beforeEach(clearAll)
  it('a ticket attachment, declared or streamed', async () => {
    const id = await ticket(admin)
    await leaveRoom(100_000)
    const over = pdf(100_001)
    await expectQuotaRefusal(() => attach(admin, id, over))
    await expectQuotaRefusal(() => attach(admin, id, Readable.from(chunks(over))))
    // What fits is stored; then the hospital is full and the next byte is refused at once.
    expect((await attach(admin, id, pdf(100_000))).statusCode).toBe(201)
    await expectQuotaRefusal(() => attach(admin, id, samples.txt, 'notes.txt'))
  })

  it('a backup upload, declared or streamed', async () => {
    await leaveRoom(50_000)
    const over = await backupBytes(50_001)
    await expectQuotaRefusal(() => uploadBackup(admin, over))
    await expectQuotaRefusal(() => uploadBackup(admin, Readable.from(chunks(over))))
  })

  it('a lead import file', async () => {
    await leaveRoom(2_000)
    const line = 'Quota Lead,+919876500012\r\n'
    const csv = `Name,Phone\r\n${line.repeat(100)}`
    await expectQuotaRefusal(() => uploadCsv(t.app, receptionist, csv))
    await expectQuotaRefusal(() =>
      uploadCsv(t.app, receptionist, Readable.from([Buffer.from(csv)])),
    )
  })

  it('an export: not started when full; the job stops when its file would pass the quota', async () => {
    await leaveRoom(0)
    await expectQuotaRefusal(() =>
      call(t.app, admin, 'POST', '/api/data/exports', { kind: 'data' }),
    )

    await leaveRoom(300)
    const before = await filesUnder(join(dataDir, 'exports', a))
    const res = await call(t.app, admin, 'POST', '/api/data/exports', { kind: 'data' })
    expect(res.statusCode, res.body).toBe(202)
    await worker.start()
    const seen = await waitForExport(t.app, admin, (res.json() as { jobId: string }).jobId)
    expect(seen.at(-1)?.status).toBe('failed')
    expect(await filesUnder(join(dataDir, 'exports', a))).toEqual(before)
    // With room, the same export is kept.
    await leaveRoom(900_000)
    const ok = await call(t.app, admin, 'POST', '/api/data/exports', { kind: 'fhir' })
    expect(
      (await waitForExport(t.app, admin, (ok.json() as { jobId: string }).jobId)).at(-1),
    ).toMatchObject({ status: 'done', message: null })
  })
})

describe('uploads that finish together', () => {
  beforeEach(clearAll)
  it('never keep more than the quota between them', async () => {
    const id = await ticket(admin)
    await leaveRoom(150_000)
    const [x, y] = await Promise.all([
      attach(admin, id, Readable.from(chunks(pdf(100_000)))),
      attach(admin, id, Readable.from(chunks(pdf(100_000)))),
    ])
    expect([x.statusCode, y.statusCode].sort()).toEqual([201, 413])
    const u = await usage(admin)
    expect(u.usedBytes).toBeLessThanOrEqual(u.limitBytes)
    expect(await bytesUnder(join(dataDir, 'uploads', '.tmp'))).toBe(0)
  })
})

describe('who may attach', () => {
  beforeEach(clearAll)
  it('a viewer may not add or remove files (support:write); the front desk may', async () => {
    await leaveRoom(500_000)
    const id = await ticket(viewer)
    const before = await everything()
    expectError(await attach(viewer, id, samples.txt, 'notes.txt'), 403, 'FORBIDDEN')
    expect(await everything()).toEqual(before)
    const mine = await ticket(receptionist)
    const up = await attach(receptionist, mine, samples.txt, 'notes.txt')
    expect(up.statusCode, up.body).toBe(201)
    const url = (up.json() as { url: string }).url
    // A viewer reading it is still a matter of seeing the ticket (404: not theirs), never 403.
    expectError(await call(t.app, viewer, 'GET', url), 404)
    expectError(await remove(viewer, url), 403, 'FORBIDDEN')
    expect((await remove(receptionist, url)).statusCode).toBe(204)
  })
})
