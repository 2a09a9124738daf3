import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Worker } from '../../src/server/jobs/worker'
import { DATA_EXPORT_JOB, EXPORT_PAGE_ROWS } from '../../src/server/modules/data-export/export-job'
import {
  EXPORT_KEEP_MS,
  exportDir,
  pruneAllExports,
} from '../../src/server/modules/data-export/export-files'
import { ABHA_SYSTEM } from '../../src/server/modules/data-export/fhir-patient'
import { fullPatient } from '../support/data-rights'
import {
  download,
  sha256,
  startExport,
  unzip,
  type Unzipped,
  waitForExport,
} from '../support/data-export'
import { call } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Settings → Data (issue 27): the whole hospital as a zip of CSV files and a manifest, patients
// as FHIR R4 NDJSON, progress, downloads, roles and other hospitals.

let t: TestApp
let worker: Worker
let dataDir: string
let admin: string
let adminB: string
let receptionist: string
let a: string
let b: string
const previousDataDir = process.env.DATA_DIR

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-export-'))
  process.env.DATA_DIR = dataDir
  t = await createTestApp()
  worker = new Worker({
    database: t.database,
    names: [DATA_EXPORT_JOB],
    pollMs: 20,
    progressMs: 0,
    backoff: () => 10,
  })
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
  await fullPatient(t, admin, a)
  // Enough patients for several pages, and an ABHA number for the FHIR identifier.
  await t.db.execute(sql`update patients set abha_number = '91-1234-5678-9012'
    where id = (select id from patients where hospital_id = ${a} order by id limit 1)`)
}, 180_000)
afterAll(async () => {
  await worker?.stop()
  await t?.close()
  process.env.DATA_DIR = previousDataDir
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const count = async (table: string, hospitalId: string) =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from ${sql.identifier(table)} where hospital_id = ${hospitalId}`,
    )
  )[0]?.n ?? -1

const ids = async (table: string, hospitalId: string) =>
  new Set(
    (
      await queryRows<{ id: string }>(
        t.db,
        sql`select id::text as id from ${sql.identifier(table)} where hospital_id = ${hospitalId}`,
      )
    ).map((r) => r.id),
  )

describe('starting an export', () => {
  it('refuses a second export while one is in flight, and bad bodies', async () => {
    // The worker is not running yet: the first export stays queued.
    const first = await startExport(t.app, admin, 'data')
    const again = await call(t.app, admin, 'POST', '/api/data/exports', { kind: 'fhir' })
    expect(again.statusCode, again.body).toBe(429)
    expect(again.json().message).toMatch(/already in progress/)
    // Another hospital is not held up by it.
    const other = await startExport(t.app, adminB, 'data')
    for (const body of [{}, { kind: 'everything' }, { kind: 'data', extra: 1 }, []]) {
      const res = await call(t.app, adminB, 'POST', '/api/data/exports', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
    }
    await worker.start()
    expect((await waitForExport(t.app, admin, first)).at(-1)?.status).toBe('done')
    expect((await waitForExport(t.app, adminB, other)).at(-1)?.status).toBe('done')
  })

  it('is for admins only, and another hospital gets 404 for the job', async () => {
    const jobId = await startExport(t.app, admin, 'data')
    await waitForExport(t.app, admin, jobId)
    for (const [method, url, body] of [
      ['POST', '/api/data/exports', { kind: 'data' }],
      ['GET', `/api/data/exports/${jobId}`, undefined],
      ['GET', `/api/data/exports/${jobId}/download`, undefined],
      ['POST', '/api/data/delete-all', { confirmName: 'x', password: 'y' }],
    ] as const) {
      const res = await call(t.app, receptionist, method, url, body)
      expect(res.statusCode, `${method} ${url}`).toBe(403)
      expect((await call(t.app, undefined, method, url, body)).statusCode).toBe(401)
    }
    expect((await call(t.app, adminB, 'GET', `/api/data/exports/${jobId}`)).statusCode).toBe(404)
    expect((await download(t.app, adminB, jobId)).res.statusCode).toBe(404)
    expect((await call(t.app, admin, 'GET', '/api/data/exports/not-a-uuid')).statusCode).toBe(400)
  })
})

describe('the zip', () => {
  let zip: Unzipped
  let statuses: Awaited<ReturnType<typeof waitForExport>>

  beforeAll(async () => {
    const jobId = await startExport(t.app, admin, 'data')
    statuses = await waitForExport(t.app, admin, jobId)
    const { res, bytes } = await download(t.app, admin, jobId)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/zip')
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="arogya-export-\d{4}-\d\d-\d\d\.zip"$/,
    )
    expect(statuses.at(-1)?.bytes).toBe(bytes.length)
    zip = unzip(bytes)
  })

  it('reports progress as rows done of rows counted', () => {
    const last = statuses.at(-1)
    expect(last?.status).toBe('done')
    expect(last?.total).toBeGreaterThan(EXPORT_PAGE_ROWS)
    expect(last?.done).toBe(last?.total)
    expect(last?.total).toBe(zip.manifest.totalRows)
    for (const s of statuses) expect(s.done).toBeLessThanOrEqual(Math.max(s.total, s.done))
  })

  it('has a manifest whose row counts and SHA-256 match every file', () => {
    const { manifest } = zip
    expect(manifest.schemaVersion).toBe(1)
    expect(manifest.hospital.id).toBe(a)
    const names = manifest.files.map((f) => f.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'hospital.csv',
        'team.csv',
        'patients.csv',
        'leads.csv',
        'communications.csv',
        'appointments.csv',
        'invoices.csv',
        'invoice_lines.csv',
        'payments.csv',
        'services.csv',
        'consent_records.csv',
        'audit_events.csv',
      ]),
    )
    expect(Object.keys(zip.files).sort()).toEqual([...names, 'manifest.json'].sort())
    for (const file of manifest.files) {
      const data = zip.files[file.name] as Uint8Array
      expect(sha256(data), file.name).toBe(file.sha256)
      expect(data.byteLength, file.name).toBe(file.bytes)
      expect(zip.csv(file.name).length - 1, file.name).toBe(file.rows)
    }
  })

  it("holds this hospital's rows, all of them, and none of another hospital's", async () => {
    for (const table of ['patients', 'leads', 'appointments', 'invoices', 'communications']) {
      const [header, ...rows] = zip.csv(`${table}.csv`)
      const idAt = header?.indexOf('id') ?? -1
      expect(idAt, table).toBeGreaterThanOrEqual(0)
      const exported = new Set(rows.map((r) => r[idAt]))
      expect(exported, table).toEqual(await ids(table, a))
      for (const id of await ids(table, b)) expect(exported.has(id), table).toBe(false)
    }
    expect(zip.csv('audit_events.csv').length - 1).toBeGreaterThan(0)
    const [hospitalHeader, hospitalRow] = zip.csv('hospital.csv')
    expect(hospitalRow?.[hospitalHeader?.indexOf('id') ?? -1]).toBe(a)
    const [teamHeader, ...team] = zip.csv('team.csv')
    expect(team.map((r) => r[teamHeader?.indexOf('email') ?? -1])).toContain(demoEmail('admin'))
    expect(team.map((r) => r[teamHeader?.indexOf('email') ?? -1])).not.toContain(
      demoEmail('admin', 'smiledental'),
    )
    // No id of another hospital's records appears anywhere in the zip.
    const all = Object.values(zip.files)
      .map((f) => Buffer.from(f).toString('utf8'))
      .join('\n')
    for (const table of ['patients', 'leads', 'invoices', 'communications']) {
      const foreign = [...(await ids(table, b))]
      expect(foreign.length, table).toBeGreaterThan(0)
      expect(
        foreign.filter((id) => all.includes(id)),
        table,
      ).toEqual([])
    }
  })

  it('leaves out secrets, hashes and generated search columns; neutralises formulas', () => {
    for (const file of zip.manifest.files) {
      const [header] = zip.csv(file.name)
      for (const column of header ?? []) {
        expect(column, file.name).not.toMatch(
          /password|secret|token|_hash|_enc$|name_search|hospital_id/,
        )
      }
    }
    const [header, ...rows] = zip.csv('patients.csv')
    const phoneAt = header?.indexOf('phone') ?? -1
    // E.164 numbers start with +: a spreadsheet would read them as formulas.
    expect(rows.every((r) => !r[phoneAt] || r[phoneAt]?.startsWith("'+"))).toBe(true)
  })

  it('writes timestamps in ISO 8601 UTC and jsonb as JSON', () => {
    const [header, ...rows] = zip.csv('patients.csv')
    const created = rows[0]?.[header?.indexOf('created_at') ?? -1] ?? ''
    expect(created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/)
    const [hHeader, hRow] = zip.csv('hospital.csv')
    const hours = hRow?.[hHeader?.indexOf('working_hours') ?? -1] ?? ''
    if (hours) expect(() => JSON.parse(hours) as unknown).not.toThrow()
  })

  it('is audited: asked for, made and downloaded', async () => {
    const rows = await queryRows<{ action: string }>(
      t.db,
      sql`select distinct action from audit_events where hospital_id = ${a} and action like 'data.%'`,
    )
    expect(rows.map((r) => r.action).sort()).toEqual(
      ['data.export_downloaded', 'data.export_requested', 'data.exported'].sort(),
    )
  })
})

describe('patients as FHIR R4 NDJSON', () => {
  it('writes one Patient resource per line for every patient of the hospital', async () => {
    const jobId = await startExport(t.app, admin, 'fhir')
    const statuses = await waitForExport(t.app, admin, jobId)
    expect(statuses.at(-1)?.fileName).toMatch(/^arogya-patients-fhir-\d{4}-\d\d-\d\d\.ndjson$/)
    const { res, bytes } = await download(t.app, admin, jobId)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/fhir+ndjson')
    const lines = bytes.toString('utf8').split('\n')
    expect(lines.pop()).toBe('')
    const resources = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(resources.length).toBe(await count('patients', a))
    expect(new Set(resources.map((r) => r.id))).toEqual(await ids('patients', a))
    for (const r of resources) {
      expect(r.resourceType).toBe('Patient')
      expect(r.id).toMatch(/^[A-Za-z0-9\-.]{1,64}$/)
      const identifier = r.identifier as { system: string; value: string }[]
      expect(identifier[0]?.value).toMatch(/^[A-Z]+-\d{6}$/)
      expect(['male', 'female', 'other', 'unknown', undefined]).toContain(r.gender)
      if (r.birthDate) expect(r.birthDate).toMatch(/^\d{4}(-\d\d-\d\d)?$/)
      for (const t of (r.telecom as { system: string }[] | undefined) ?? []) {
        expect(['phone', 'email']).toContain(t.system)
      }
      // FHIR forbids empty strings, arrays and objects.
      expect(JSON.stringify(r)).not.toMatch(/""|\[\]|\{\}/)
    }
    const withAbha = resources.filter((r) =>
      (r.identifier as { system: string }[]).some((i) => i.system === ABHA_SYSTEM),
    )
    const [abha] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where hospital_id = ${a} and abha_number <> ''`,
    )
    expect(withAbha).toHaveLength(abha?.n ?? -1)
    expect(JSON.stringify(withAbha)).toContain('91-1234-5678-9012')
  })

  it('makes a backup as the same zip, named as a backup', async () => {
    const jobId = await startExport(t.app, admin, 'backup')
    const last = (await waitForExport(t.app, admin, jobId)).at(-1)
    expect(last?.kind).toBe('backup')
    expect(last?.fileName).toMatch(/^arogya-backup-/)
    const { bytes } = await download(t.app, admin, jobId)
    expect(unzip(bytes).csv('patients.csv').length - 1).toBe(await count('patients', a))
  })
})

describe('keeping exports', () => {
  it('removes exports older than 48 hours; their download is then a clear 404', async () => {
    const jobId = await startExport(t.app, admin, 'fhir')
    await waitForExport(t.app, admin, jobId)
    const stray = join(exportDir(a), 'left-behind.zip.part')
    await writeFile(stray, 'partial')
    const old = new Date(Date.now() - EXPORT_KEEP_MS - 60_000)
    await utimes(join(exportDir(a), `${jobId}.ndjson`), old, old)
    await utimes(stray, old, old)
    const before = await readdir(exportDir(a))
    const { removed } = await pruneAllExports()
    expect(removed).toBe(2)
    const after = await readdir(exportDir(a))
    expect(after).toHaveLength(before.length - 2)
    expect(after).not.toContain(`${jobId}.ndjson`)
    const { res } = await download(t.app, admin, jobId)
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe('This export is no longer kept; export again')
  })
})
