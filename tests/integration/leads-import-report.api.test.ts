import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withPlatform, withTenant } from '../../src/server/db/tenant'
import { registerAllJobs } from '../../src/server/jobs/all-jobs'
import { enqueue } from '../../src/server/jobs/queue'
import { registeredSchedules } from '../../src/server/jobs/schedule'
import { Worker } from '../../src/server/jobs/worker'
import { importFailures, LEAD_IMPORT_JOB } from '../../src/server/modules/leads/leads.import'
import {
  IMPORT_FILES_PRUNE_JOB,
  pruneImportFilesJob,
} from '../../src/server/modules/leads/leads.import-prune'
import { IMPORT_FAILED_MESSAGE } from '../../src/shared/schemas/lead-import'
import { getProgress, uploadCsv, waitForImport } from '../support/leads-import'
import { login } from '../support/login'
import { createTestApp, demoEmail, hospitalIdOf, type TestApp } from '../support/test-app'

// What an import leaves on disk and shows (issue 24): a bounded error report, the daily prune
// of every hospital's old files, and a dead import's message without row data.

let t: TestApp
let worker: Worker
let dataDir: string
let receptionist: string
let hospitalId: string
let otherHospitalId: string
const previousDataDir = process.env.DATA_DIR

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-import-report-'))
  process.env.DATA_DIR = dataDir
  t = await createTestApp()
  worker = new Worker({
    database: t.database,
    names: [LEAD_IMPORT_JOB],
    pollMs: 20,
    progressMs: 0,
    backoff: () => 10,
  })
  await worker.start()
  receptionist = await login(t.app, demoEmail('receptionist'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
  otherHospitalId = await hospitalIdOf(t.db, 'smiledental')
}, 120_000)
afterAll(async () => {
  await worker?.stop()
  await t?.close()
  process.env.DATA_DIR = previousDataDir
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const folder = (hospital = hospitalId) => join(dataDir, 'imports', hospital)
const reportOf = (jobId: string) => join(folder(), `${jobId}.errors.csv`)

async function importCsv(body: string, mapping?: Record<string, string>) {
  const res = await uploadCsv(t.app, receptionist, body, mapping)
  expect(res.statusCode, res.body).toBe(202)
  const { jobId } = res.json<{ jobId: string }>()
  return { jobId, progress: await waitForImport(t.app, receptionist, jobId) }
}

describe('the error report', () => {
  it('lists the first 1,000 failed rows, then counts the rest by reason (100,000 bad rows)', async () => {
    const lines = ['Name,Phone']
    for (let i = 0; i < 50_000; i++) lines.push(`Ravi Kumar ${i},12345`)
    for (let i = 0; i < 50_000; i++) lines.push('')
    const { jobId, progress } = await importCsv(`${lines.join('\r\n')}\r\n`)
    // The progress answer keeps exact counts.
    expect(progress).toMatchObject({
      status: 'done',
      done: 100_000,
      total: 100_000,
      created: 0,
      failed: 100_000,
    })
    const { size } = await stat(reportOf(jobId))
    console.log(`error report of 100,000 bad rows: ${(size / 1024).toFixed(1)} KB`)
    expect(size).toBeLessThan(100 * 1024)
    const report = (await readFile(reportOf(jobId), 'utf8')).trimEnd().split('\r\n')
    expect(report[0]).toBe('Row,Column,Error,Name,Phone')
    expect(report[1]).toBe(
      '2,Phone,"Not a valid phone number, e.g. 98765 43210",Ravi Kumar 0,12345',
    )
    expect(report[1000]).toMatch(/^1001,Phone,.*,Ravi Kumar 999,12345$/)
    expect(report.slice(1001)).toEqual([
      ',,"Only the first 1,000 failed rows are listed above; the others are counted below."',
      ',,"Not listed: 50,000 more rows with ""Name is required"""',
      ',,"Not listed: 49,000 more rows with ""Not a valid phone number, e.g. 98765 43210"""',
    ])
    // The download is that file.
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/leads/import/${jobId}/errors.csv`,
      headers: { cookie: receptionist },
    })
    expect(download.body).toBe(await readFile(reportOf(jobId), 'utf8'))
  }, 120_000)

  it('cuts each copied row (values, columns) and still neutralises formulas', async () => {
    const extra = Array.from({ length: 300 }, (_, i) => `Extra ${i}`)
    const lines = [['Name', 'Phone', 'Notes', ...extra].join(',')]
    lines.push(['=HYPERLINK("http://evil")', 'bad', `=${'n'.repeat(5_000)}`, ...extra].join(','))
    for (let i = 0; i < 1_199; i++) {
      lines.push([`Wide ${i}`, 'bad', 'n'.repeat(5_000), ...extra].join(','))
    }
    const { jobId, progress } = await importCsv(`${lines.join('\n')}\n`, {
      name: 'Name',
      phone: 'Phone',
      notes: 'Notes',
    })
    expect(progress).toMatchObject({ status: 'done', failed: 1_200 })
    const text = await readFile(reportOf(jobId), 'utf8')
    const report = text.trimEnd().split('\r\n')
    expect(report).toHaveLength(1 + 1_000 + 2)
    for (const line of report) expect(line.length).toBeLessThan(700)
    expect(Buffer.byteLength(text)).toBeLessThan(1_000 * 700)
    expect(report[1]).toMatch(
      /^2,Phone,"Not a valid[^"]*","'=HYPERLINK\(""http:\/\/evil""\)",bad,'=n{98}…,/,
    )
    expect(report.at(-1)).toBe(
      ',,"Not listed: 200 more rows with ""Not a valid phone number, e.g. 98765 43210"""',
    )
  }, 60_000)
})

describe('a dead import', () => {
  it("shows the import's own reason, and never last_error's text", async () => {
    // An upload that is gone by the time the job runs: the import says so.
    const gone = await withTenant(t.db, { hospitalId, userId: null }, (tx) =>
      enqueue(tx, {
        name: LEAD_IMPORT_JOB,
        hospitalId,
        payload: {
          fileId: randomUUID(),
          mapping: { name: 'Name', phone: 'Phone' },
          userId: 'nobody',
          impersonatorUserId: null,
        },
        maxAttempts: 3,
      }),
    )
    const failed = await waitForImport(t.app, receptionist, gone.id)
    expect(failed).toMatchObject({ status: 'failed', message: importFailures.fileGone })

    // A failed statement's text (drizzle's "Failed query … params: …") carries a batch's rows.
    const held = await withTenant(t.db, { hospitalId, userId: null }, (tx) =>
      enqueue(tx, {
        name: LEAD_IMPORT_JOB,
        hospitalId,
        payload: {},
        runAt: new Date(Date.now() + 3_600_000),
      }),
    )
    await withPlatform(t.db, (tx) =>
      tx.execute(sql`update jobs set status = 'dead', finished_at = now(), last_error =
        ${'Error: Failed query: insert into leads (name, phone) select ... params: Anjali Menon,+919812345678,anjali@example.com'}
        where id = ${held.id}`),
    )
    const answer = await getProgress(t.app, receptionist, held.id)
    expect(answer.progress).toMatchObject({ status: 'failed', message: IMPORT_FAILED_MESSAGE })
    for (const secret of ['Anjali', '9812345678', 'anjali@', 'Failed query']) {
      expect(answer.body).not.toContain(secret)
    }
  })
})

describe('old import files', () => {
  it('are pruned daily for every hospital: month-old files, uploads no live import needs', async () => {
    registerAllJobs({ metaGraph: { baseUrl: 'http://127.0.0.1:9', version: 'v21.0' } })
    expect(registeredSchedules().find((s) => s.name === IMPORT_FILES_PRUNE_JOB)?.spec).toEqual({
      dailyAt: '03:00',
      timeZone: 'Asia/Kolkata',
    })
    await rm(join(dataDir, 'imports'), { recursive: true, force: true })
    await mkdir(folder(), { recursive: true })
    await mkdir(folder(otherHospitalId), { recursive: true })
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000)
    async function file(dir: string, name: string, at: Date) {
      await writeFile(join(dir, name), 'x')
      await utimes(join(dir, name), at, at)
      return name
    }
    // A live import's upload stays however old; one that no live import needs goes after an
    // hour (a younger one may still be streaming in); reports and state go after 30 days.
    const liveFileId = randomUUID()
    await withTenant(t.db, { hospitalId, userId: null }, (tx) =>
      enqueue(tx, {
        name: LEAD_IMPORT_JOB,
        hospitalId,
        payload: { fileId: liveFileId },
        runAt: new Date(Date.now() + 3_600_000),
      }),
    )
    const live = await file(folder(), `${liveFileId}.csv`, hoursAgo(40 * 24))
    await file(folder(), `${randomUUID()}.csv`, hoursAgo(2))
    const streaming = await file(folder(), `${randomUUID()}.csv`, hoursAgo(0.1))
    await file(folder(), `${randomUUID()}.errors.csv`, hoursAgo(31 * 24))
    const recentReport = await file(folder(), `${randomUUID()}.errors.csv`, hoursAgo(29 * 24))
    await file(folder(), `${randomUUID()}.state.json`, hoursAgo(31 * 24))
    await file(folder(otherHospitalId), `${randomUUID()}.errors.csv`, hoursAgo(31 * 24))
    const otherRecent = await file(
      folder(otherHospitalId),
      `${randomUUID()}.errors.csv`,
      hoursAgo(1),
    )

    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }
    const result = await pruneImportFilesJob(
      {
        id: randomUUID(),
        name: IMPORT_FILES_PRUNE_JOB,
        hospitalId: null,
        payload: {},
        attempts: 1,
        maxAttempts: 5,
        runAt: new Date(),
        checkpoint: null,
      },
      {
        db: t.db,
        signal: new AbortController().signal,
        progress: async () => undefined,
        withTenant: () => Promise.reject(new Error('a platform job')),
        checkpoint: () => Promise.reject(new Error('no checkpoint')),
        log: silent,
      },
    )
    expect(result).toEqual({ hospitals: 2, removed: 4 })
    expect((await readdir(folder())).sort()).toEqual([live, recentReport, streaming].sort())
    expect(await readdir(folder(otherHospitalId))).toEqual([otherRecent])
  })
})
