import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { withPlatform } from '../../src/server/db/tenant'
import { LEAD_IMPORT_JOB } from '../../src/server/modules/leads/leads.import'
import { setImportLimits } from '../../src/server/modules/leads/leads.import-limits'
import { finishAllImports, uploadCsv } from '../support/leads-import'
import { uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Per-hospital quotas on CSV imports (issue 24): imports in flight (429) and the bytes of the
// hospital's import folder (413); a refused upload leaves no file behind. No worker runs here,
// so accepted imports stay queued (in flight) until finishAllImports.

let t: TestApp
let dataDir: string
let receptionist: string
let otherAdmin: string
let hospitalId: string
let restoreLimits: () => void = () => undefined
const previousDataDir = process.env.DATA_DIR

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-import-quotas-'))
  process.env.DATA_DIR = dataDir
  t = await createTestApp()
  receptionist = await login(t.app, demoEmail('receptionist'))
  otherAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
}, 120_000)
afterAll(async () => {
  await t?.close()
  process.env.DATA_DIR = previousDataDir
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})
beforeEach(async () => {
  await finishAllImports(t.db)
  await rm(join(dataDir, 'imports'), { recursive: true, force: true })
})
afterEach(() => restoreLimits())

const folder = () => join(dataDir, 'imports', hospitalId)
const files = async () => (await readdir(folder()).catch(() => [] as string[])).sort()
const smallCsv = () => `Name,Phone\r\nQuota Lead,${uniqueMobile(64_000)}\r\n`

async function inFlight(): Promise<number> {
  const [row] = await withPlatform(t.db, (tx) =>
    queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from jobs where name = ${LEAD_IMPORT_JOB}
          and hospital_id = ${hospitalId} and status in ('queued', 'running', 'failed')`,
    ),
  )
  return row?.n ?? 0
}

describe('imports in flight per hospital', () => {
  it('refuses the third with 429 naming the limit, and stores nothing of it', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await uploadCsv(t.app, receptionist, smallCsv())).statusCode).toBe(202)
    }
    const before = await files()
    expect(before).toHaveLength(2)
    const refused = await uploadCsv(t.app, receptionist, smallCsv())
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({
      code: 'RATE_LIMITED',
      message:
        'Your hospital already has 2 imports in progress. Wait for one to finish, then import again.',
    })
    expect(await files()).toEqual(before)
    expect(await inFlight()).toBe(2)
    // Per hospital: another hospital imports as usual.
    expect((await uploadCsv(t.app, otherAdmin, smallCsv())).statusCode).toBe(202)
    // An import waiting to retry still counts; one that finished frees its place.
    await withPlatform(t.db, (tx) =>
      tx.execute(sql`update jobs set status = 'failed' where id = (select id from jobs
        where name = ${LEAD_IMPORT_JOB} and hospital_id = ${hospitalId} and status = 'queued'
        order by created_at limit 1)`),
    )
    expect((await uploadCsv(t.app, receptionist, smallCsv())).statusCode).toBe(429)
    await withPlatform(t.db, (tx) =>
      tx.execute(sql`update jobs set status = 'dead' where name = ${LEAD_IMPORT_JOB}
        and hospital_id = ${hospitalId} and status = 'failed'`),
    )
    expect((await uploadCsv(t.app, receptionist, smallCsv())).statusCode).toBe(202)
  })

  it('follows the configured limit (IMPORT_MAX_IN_FLIGHT)', async () => {
    restoreLimits = setImportLimits({ maxInFlight: 1 })
    expect((await uploadCsv(t.app, receptionist, smallCsv())).statusCode).toBe(202)
    const refused = await uploadCsv(t.app, receptionist, smallCsv())
    expect(refused.statusCode).toBe(429)
    expect(refused.json<{ message: string }>().message).toBe(
      'Your hospital already has 1 import in progress. Wait for one to finish, then import again.',
    )
  })

  it(`accepts never more than the limit when uploads arrive together (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    restoreLimits = setImportLimits({ maxInFlight: 3 })
    const body = `Name,Phone\r\n${Array.from({ length: 2_000 }, (_, i) => `Together ${i},98${String(i).padStart(8, '0')}`).join('\r\n')}\r\n`
    for (let round = 0; round < 3; round++) {
      await finishAllImports(t.db)
      await rm(folder(), { recursive: true, force: true })
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => uploadCsv(t.app, receptionist, body)),
      )
      const codes = answers.map((a) => a.statusCode).sort()
      expect(
        codes.filter((c) => c === 202),
        codes.join(),
      ).toHaveLength(3)
      expect(
        codes.filter((c) => c === 429),
        codes.join(),
      ).toHaveLength(9)
      expect(await inFlight()).toBe(3)
      // Only the accepted uploads are on disk.
      expect(await files()).toHaveLength(3)
    }
  })
})

describe('import bytes per hospital', () => {
  it('refuses an upload that would go over the hospital quota (413) and keeps no partial file', async () => {
    restoreLimits = setImportLimits({ maxHospitalBytes: 1024 * 1024 })
    await mkdir(folder(), { recursive: true })
    // An earlier import's error report, 700 KB.
    await writeFile(join(folder(), `${randomUUID()}.errors.csv`), Buffer.alloc(700 * 1024))
    const before = await files()
    const rows = Array.from(
      { length: 16_000 },
      (_, i) => `Bytes Lead ${i},97${String(i).padStart(8, '0')}`,
    )
    const big = `Name,Phone\r\n${rows.join('\r\n')}\r\n` // about 400 KB
    expect(Buffer.byteLength(big)).toBeGreaterThan(350 * 1024)
    const refused = await uploadCsv(t.app, receptionist, big)
    expect(refused.statusCode).toBe(413)
    expect(refused.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message:
        'Your hospital can keep at most 1 MB of import files, and this file would go over it. Wait for the imports in progress to finish, then import again.',
    })
    expect(await files()).toEqual(before)
    // A file that fits is taken.
    expect((await uploadCsv(t.app, receptionist, smallCsv())).statusCode).toBe(202)
    // A folder already at the quota refuses at once.
    await writeFile(join(folder(), `${randomUUID()}.errors.csv`), Buffer.alloc(400 * 1024))
    const full = await files()
    expect((await uploadCsv(t.app, receptionist, smallCsv())).statusCode).toBe(413)
    expect(await files()).toEqual(full)
  })

  it('counts uploads that arrive at the same time (the folder is summed again while streaming)', async () => {
    restoreLimits = setImportLimits({ maxHospitalBytes: 12 * 1024 * 1024 })
    await mkdir(folder(), { recursive: true })
    const other = join(folder(), `${randomUUID()}.csv`)
    const line = `Stream Lead,${uniqueMobile(64_000)}\r\n`
    const mb = line.repeat(Math.ceil((1024 * 1024) / line.length))
    async function* body() {
      yield 'Name,Phone\r\n'
      for (let i = 0; i < 10; i++) {
        // Another upload (another instance) grows to 6 MB while this one streams.
        if (i === 5) await writeFile(other, Buffer.alloc(6 * 1024 * 1024))
        yield mb
      }
    }
    const refused = await uploadCsv(t.app, receptionist, Readable.from(body()))
    expect(refused.statusCode).toBe(413)
    expect(refused.json<{ message: string }>().message).toContain('at most 12 MB of import files')
    expect(await files()).toEqual([other.split('/').pop()])
  })

  it('keeps the 50 MB cap per file', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, 'a')
    big.write('Name,Phone\r\n')
    const res = await uploadCsv(t.app, receptionist, big)
    expect(res.statusCode).toBe(413)
    expect(res.json<{ message: string }>().message).toMatch(/larger than 50 MB/)
    expect(await files()).toEqual([])
  }, 60_000)
})
