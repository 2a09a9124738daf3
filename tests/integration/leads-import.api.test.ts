import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Worker } from '../../src/server/jobs/worker'
import { LEAD_IMPORT_JOB } from '../../src/server/modules/leads/leads.import'
import { importProgress, type ImportProgress } from '../../src/shared/schemas/lead-import'
import { call, e164, newLead, uniqueMobile } from '../support/leads'
import { HOST, login, ORIGIN } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Import CSV of leads (issue 8): upload, the job, progress, the error report, hostile files.

let t: TestApp
let worker: Worker
let dataDir: string
let admin: string
let receptionist: string
let hospitalId: string
const previousDataDir = process.env.DATA_DIR

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-import-'))
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
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
}, 120_000)
afterAll(async () => {
  await worker?.stop()
  await t?.close()
  process.env.DATA_DIR = previousDataDir
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const standard = { name: 'Name', phone: 'Phone' }

function upload(
  body: string | Buffer,
  mapping: Record<string, string> = standard,
  cookie: string = receptionist,
  contentType = 'text/csv',
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/api/leads/import?mapping=${encodeURIComponent(JSON.stringify(mapping))}`,
    headers: { host: HOST, origin: ORIGIN, 'content-type': contentType, cookie },
    payload: body,
  })
}

async function waitFor(jobId: string, cookie = receptionist): Promise<ImportProgress> {
  for (let i = 0; i < 6000; i++) {
    const res = await call(t.app, cookie, 'GET', `/api/leads/import/${jobId}`)
    expect(res.statusCode, res.body).toBe(200)
    const progress = importProgress.strict().parse(res.json())
    if (progress.status === 'done' || progress.status === 'failed') return progress
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('import did not finish')
}

async function importCsv(
  body: string | Buffer,
  mapping: Record<string, string> = standard,
): Promise<{ jobId: string; progress: ImportProgress }> {
  const res = await upload(body, mapping)
  expect(res.statusCode, res.body).toBe(202)
  const { jobId } = res.json<{ jobId: string }>()
  return { jobId, progress: await waitFor(jobId) }
}

async function errorsCsv(jobId: string, cookie = receptionist) {
  return call(t.app, cookie, 'GET', `/api/leads/import/${jobId}/errors.csv`)
}

interface LeadDbRow {
  name: string
  phone: string
  email: string | null
  source: string
  priority: string
  service_interest: string | null
  campaign: string | null
  notes: string | null
}
async function leadsByPhone(phone: string): Promise<LeadDbRow[]> {
  return queryRows<LeadDbRow>(
    t.db,
    sql`select name, phone, email, source, priority, service_interest, campaign, notes
        from leads where hospital_id = ${hospitalId} and phone = ${phone}`,
  )
}

const csv = (rows: string[][]) =>
  rows
    .map((r) => r.map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(','))
    .join('\r\n') + '\r\n'

describe('POST /api/leads/import', () => {
  it('imports mapped columns as csv-import leads, and audits once', async () => {
    const [a, b] = [uniqueMobile(61_000), uniqueMobile(61_000)]
    const body = csv([
      ['Full Name', 'Mobile', 'E-mail', 'Treatment', 'Campaign', 'Remarks', 'Priority', 'Channel'],
      [
        'Anjali Menon',
        a,
        'Anjali@Example.com',
        'Dental implants',
        'Diwali',
        'Call after 5',
        'High',
        'Newspaper',
      ],
      ['Ravi Kumar', `+91 ${b}`, '', '', '', '', '', ''],
    ])
    const { jobId, progress } = await importCsv(body, {
      name: 'Full Name',
      phone: 'Mobile',
      email: 'E-mail',
      serviceInterest: 'Treatment',
      campaign: 'Campaign',
      notes: 'Remarks',
      priority: 'Priority',
      sourceLabel: 'Channel',
    })
    expect(progress).toMatchObject({
      status: 'done',
      done: 2,
      total: 2,
      created: 2,
      merged: 0,
      failed: 0,
    })
    expect(await leadsByPhone(e164(a))).toEqual([
      {
        name: 'Anjali Menon',
        phone: e164(a),
        email: 'anjali@example.com',
        source: 'csv-import',
        priority: 'high',
        service_interest: 'Dental implants',
        campaign: 'Diwali',
        notes: 'Call after 5\nSource: Newspaper',
      },
    ])
    expect(await leadsByPhone(e164(b))).toMatchObject([
      { name: 'Ravi Kumar', priority: 'medium', email: null },
    ])
    const audits = await queryRows(
      t.db,
      sql`select summary from audit_events where entity_id = ${jobId} and action = 'lead.imported'`,
    )
    expect(audits).toHaveLength(1)
    // The upload is removed once imported; only the report and the state stay.
    const files = await readdir(join(dataDir, 'imports', hospitalId))
    expect(files.filter((f) => f.endsWith('.csv') && !f.includes('errors'))).toEqual([])
  })

  it('merges duplicates by phone, in the file and against existing leads, never re-creating', async () => {
    const known = await newLead(t.app, receptionist, { name: 'Known Person', email: null })
    const fresh = uniqueMobile(61_000)
    const body = csv([
      ['Name', 'Phone', 'Email'],
      ['Known Again', known.phone, 'known@example.com'],
      ['New One', fresh, ''],
      ['New One Again', `0${fresh}`, 'again@example.com'],
    ])
    const { progress } = await importCsv(body, { ...standard, email: 'Email' })
    expect(progress).toMatchObject({ status: 'done', created: 1, merged: 2, failed: 0 })
    const knownRows = await leadsByPhone(known.phone)
    expect(knownRows).toMatchObject([
      { name: 'Known Person', email: 'known@example.com', source: 'walk-in' },
    ])
    expect(await leadsByPhone(e164(fresh))).toMatchObject([
      { name: 'New One', email: 'again@example.com', source: 'csv-import' },
    ])
    const notes = await queryRows<{ content: string }>(
      t.db,
      sql`select content from communications where lead_id = ${known.id} and type = 'system'`,
    )
    expect(notes.map((n) => n.content)).toEqual([
      'New enquiry (CSV import) from Known Again: known@example.com',
    ])
  })

  it('stores formula-looking cells as text and neutralises them in the error report', async () => {
    const phone = uniqueMobile(61_000)
    const body = csv([
      ['Name', 'Phone', 'Notes'],
      ['=HYPERLINK("http://evil","x")', phone, '+cmd|calc!A1'],
      ['@SUM(1+1)', 'not a phone', '-2+3'],
      ['', uniqueMobile(61_000), 'tab'],
    ])
    const { jobId, progress } = await importCsv(body, { ...standard, notes: 'Notes' })
    expect(progress).toMatchObject({ status: 'done', done: 3, created: 1, failed: 2 })
    expect(await leadsByPhone(e164(phone))).toMatchObject([
      { name: '=HYPERLINK("http://evil","x")', notes: '+cmd|calc!A1' },
    ])
    const report = await errorsCsv(jobId)
    expect(report.statusCode).toBe(200)
    expect(report.headers['content-type']).toMatch(/^text\/csv/)
    expect(report.headers['content-disposition']).toContain('attachment')
    const lines = report.body.trim().split('\r\n')
    expect(lines[0]).toBe('Row,Column,Error,Name,Phone,Notes')
    expect(lines[1]).toBe(
      '3,Phone,"Not a valid phone number, e.g. 98765 43210",\'@SUM(1+1),not a phone,\'-2+3',
    )
    expect(lines[2]).toMatch(/^4,Name,Name is required,,\d+,tab$/)
  })

  it('strips a BOM, and reports text that is not UTF-8 per row', async () => {
    const [ok, latin] = [uniqueMobile(61_000), uniqueMobile(61_000)]
    const body = Buffer.concat([
      Buffer.from('\uFEFFName,Phone\r\n', 'utf8'),
      Buffer.from(`Zoë Dsouza,${ok}\r\n`, 'utf8'),
      Buffer.from(`José Fernandes,${latin}\r\n`, 'latin1'),
    ])
    const { jobId, progress } = await importCsv(body)
    expect(progress).toMatchObject({ status: 'done', created: 1, failed: 1 })
    expect(await leadsByPhone(e164(ok))).toMatchObject([{ name: 'Zoë Dsouza' }])
    expect(await leadsByPhone(e164(latin))).toEqual([])
    expect((await errorsCsv(jobId)).body).toContain('Not valid UTF-8')
  })

  it('answers a header without rows with a clear result, and an empty file with 400', async () => {
    const { progress } = await importCsv('Name,Phone\r\n')
    expect(progress).toMatchObject({ status: 'done', total: 0, created: 0, failed: 0 })
    expect(progress.message).toMatch(/no data rows/)
    const empty = await upload('')
    expect(empty.statusCode).toBe(400)
    expect(empty.json<{ message: string }>().message).toMatch(/header row/)
    const missing = await upload('Name,Mobile\r\nA,98765 43210\r\n')
    expect(missing.statusCode).toBe(400)
    expect(missing.json<{ message: string }>().message).toContain('"Phone"')
  })

  it('reports a huge field and a 10 MB line as row errors, not a crash', async () => {
    const [before, after] = [uniqueMobile(61_000), uniqueMobile(61_000)]
    const huge = await importCsv(
      csv([
        ['Name', 'Phone', 'Notes'],
        ['Long Notes', uniqueMobile(61_000), 'x'.repeat(20_000)],
        ['After Long', after, ''],
      ]),
      { ...standard, notes: 'Notes' },
    )
    expect(huge.progress).toMatchObject({ status: 'done', created: 1, failed: 1 })
    expect((await errorsCsv(huge.jobId)).body).toContain('longer than 10,000 characters')

    const line = await importCsv(
      `Name,Phone\r\nBefore,${before}\r\n${'y'.repeat(10 * 1024 * 1024)}\r\n`,
    )
    expect(line.progress).toMatchObject({ status: 'done', created: 1, failed: 1 })
    expect(line.progress.message).toMatch(/too long/)
    expect(await leadsByPhone(e164(before))).toHaveLength(1)
    // The same line as the whole file: no header to map.
    const whole = await upload('z'.repeat(10 * 1024 * 1024))
    expect(whole.statusCode).toBe(400)
  }, 60_000)

  it('takes text/csv only (415), and only this route takes it', async () => {
    const json = await upload(
      JSON.stringify({ name: 'x' }),
      standard,
      receptionist,
      'application/json',
    )
    expect(json.statusCode).toBe(415)
    const text = await upload('Name,Phone\r\n', standard, receptionist, 'text/plain')
    expect(text.statusCode).toBe(415)
    // Refused before the session is read: a role without leads:import gets 415 too.
    const doctor = await login(t.app, demoEmail('doctor'))
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json']) {
      expect((await upload('{}', standard, doctor, type)).statusCode).toBe(415)
    }
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'text/csv', cookie: receptionist },
      payload: 'Name,Phone\r\n',
    })
    expect(elsewhere.statusCode).toBe(415)
    const noMapping = await t.app.inject({
      method: 'POST',
      url: '/api/leads/import',
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'text/csv', cookie: receptionist },
      payload: 'Name,Phone\r\n',
    })
    expect(noMapping.statusCode).toBe(400)
    const badMapping = await upload('Name,Phone\r\n', { name: 'Name' })
    expect(badMapping.statusCode).toBe(400)
  })

  it('refuses a file over 50 MB (413) and keeps no partial file', async () => {
    const before = await readdir(join(dataDir, 'imports', hospitalId))
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, 'a')
    big.write('Name,Phone\r\n')
    const res = await upload(big)
    expect(res.statusCode).toBe(413)
    const after = await readdir(join(dataDir, 'imports', hospitalId))
    expect(after.sort()).toEqual(before.sort())
  }, 60_000)
})

describe('access', () => {
  it('lets admins and receptionists import; viewers and doctors get 403', async () => {
    const res = await upload(
      csv([
        ['Name', 'Phone'],
        ['Admin Import', uniqueMobile(61_000)],
      ]),
      standard,
      admin,
    )
    expect(res.statusCode).toBe(202)
    const { jobId } = res.json<{ jobId: string }>()
    for (const role of ['viewer', 'doctor'] as const) {
      const cookie = await login(t.app, demoEmail(role))
      expect((await upload('Name,Phone\r\n', standard, cookie)).statusCode).toBe(403)
      expect((await call(t.app, cookie, 'GET', `/api/leads/import/${jobId}`)).statusCode).toBe(403)
      expect((await errorsCsv(jobId, cookie)).statusCode).toBe(403)
    }
    expect((await upload('Name,Phone\r\n', standard, '')).statusCode).toBe(401)
  })

  it("answers 404 for another hospital's import and for unknown ids", async () => {
    const { jobId } = await importCsv(
      csv([
        ['Name', 'Phone'],
        ['Tenant A', uniqueMobile(61_000)],
      ]),
    )
    const other = await login(t.app, demoEmail('admin', 'smiledental'))
    expect((await call(t.app, other, 'GET', `/api/leads/import/${jobId}`)).statusCode).toBe(404)
    expect((await errorsCsv(jobId, other)).statusCode).toBe(404)
    const unknown = '00000000-0000-4000-8000-000000000000'
    expect(
      (await call(t.app, receptionist, 'GET', `/api/leads/import/${unknown}`)).statusCode,
    ).toBe(404)
    expect((await call(t.app, receptionist, 'GET', '/api/leads/import/nope')).statusCode).toBe(400)
  })
})

describe('a large file', () => {
  // 100,000 rows on PostgreSQL (the figure); fewer on the embedded database.
  const rows = process.env.TEST_DATABASE_URL ? 100_000 : 5_000
  it(`imports ${rows.toLocaleString('en-IN')} rows completely`, async () => {
    const lines = ['Full Name,Mobile,Email']
    for (let i = 0; i < rows; i++) {
      lines.push(`Bulk Lead ${i},97${String(i).padStart(8, '0')},bulk${i}@example.com`)
    }
    const started = performance.now()
    const { progress } = await importCsv(`${lines.join('\n')}\n`, {
      name: 'Full Name',
      phone: 'Mobile',
      email: 'Email',
    })
    const seconds = (performance.now() - started) / 1000
    console.log(`CSV import of ${rows} rows (${t.driver}): ${seconds.toFixed(2)} s`)
    expect(progress).toMatchObject({ status: 'done', done: rows, total: rows, failed: 0 })
    expect(progress.created + progress.merged).toBe(rows)
    const [count] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from leads where hospital_id = ${hospitalId} and name like 'Bulk Lead %'`,
    )
    expect(count?.n).toBe(progress.created)
  }, 300_000)
})
