import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Worker } from '../../src/server/jobs/worker'
import { LEAD_IMPORT_JOB } from '../../src/server/modules/leads/leads.import'
import { type Lead, lead as leadSchema } from '../../src/shared/schemas/leads'
import { call, leadsPageOf, postLead, uniqueMobile } from '../support/leads'
import { uploadCsv, waitForImport } from '../support/leads-import'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 27: Settings → General → lead management changes what happens to new leads:
// auto-assign (receptionists in turn), priority scoring, the max contact attempts flag, and
// follow-up days driving the follow-up reminders.

let t: TestApp
let admin: string
let receptionist: string
let hospitalA: string
let receptionists: string[]
let worker: Worker
let dataDir: string
const previousDataDir = process.env.DATA_DIR

const save = async (leadManagement: Record<string, unknown>) => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: browserHeaders(admin),
    payload: JSON.stringify({ leadManagement }),
  })
  expect(res.statusCode, res.body).toBe(200)
}

async function create(body: Record<string, unknown>): Promise<Lead> {
  const res = await postLead(t.app, receptionist, {
    name: 'Test Lead',
    phone: uniqueMobile(61_000),
    ...body,
  })
  expect(res.statusCode, res.body).toBe(201)
  return leadSchema.strict().parse(res.json<{ lead: unknown }>().lead)
}

/** A receptionist account of the hospital, straight in the users table. */
async function addReceptionist(name: string, active = true): Promise<string> {
  const id = `test-${randomUUID()}`
  await t.db.execute(sql`
    insert into users (id, name, email, role, hospital_id, is_active)
    values (${id}, ${name}, ${`${id}@sanjeevani.test`}, 'receptionist', ${hospitalA}, ${active})`)
  return id
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-settings-'))
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
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  await addReceptionist('Suspended Desk', false)
  await addReceptionist('Second Desk')
  await addReceptionist('Third Desk')
  receptionists = (
    await queryRows<{ id: string }>(
      t.db,
      sql`select id from users where hospital_id = ${hospitalA} and role = 'receptionist'
          and is_active order by id`,
    )
  ).map((r) => r.id)
})
afterAll(async () => {
  await worker?.stop()
  await t?.close()
  process.env.DATA_DIR = previousDataDir
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('auto-assign', () => {
  it('off (the default): a new lead stays unassigned', async () => {
    expect((await create({})).assignedToUserId).toBeNull()
  })

  it('on: new leads go to the active receptionists in turn; a chosen assignee is kept', async () => {
    expect(receptionists.length).toBe(3)
    await save({ autoAssignLeads: true })
    const got: (string | null)[] = []
    for (let i = 0; i < 6; i++) got.push((await create({})).assignedToUserId)
    // Round-robin: each receptionist once per round, the same order both rounds.
    expect(new Set(got.slice(0, 3))).toEqual(new Set(receptionists))
    expect(got.slice(3)).toEqual(got.slice(0, 3))
    const doctor = await queryRows<{ id: string }>(
      t.db,
      sql`select id from users where email = ${demoEmail('doctor')}`,
    )
    const chosen = await create({ assignedToUserId: doctor[0]?.id })
    expect(chosen.assignedToUserId).toBe(doctor[0]?.id)
    // The rotation did not move for the lead that had an assignee.
    expect((await create({})).assignedToUserId).toBe(got[0])
  })

  it('hands concurrent creates to receptionists evenly (the cursor is locked)', async () => {
    await save({ autoAssignLeads: true })
    const made = await Promise.all(Array.from({ length: 9 }, () => create({})))
    const counts = new Map<string, number>()
    for (const l of made)
      counts.set(l.assignedToUserId ?? 'none', (counts.get(l.assignedToUserId ?? 'none') ?? 0) + 1)
    expect([...counts.keys()].sort()).toEqual([...receptionists].sort())
    expect([...counts.values()]).toEqual([3, 3, 3])
  })

  it('assigns CSV-imported leads too', async () => {
    await save({ autoAssignLeads: true })
    const csv = `Name,Phone\nFirst Row,${uniqueMobile(61_000)}\nSecond Row,${uniqueMobile(61_000)}\n`
    const res = await uploadCsv(t.app, receptionist, csv)
    expect(res.statusCode, res.body).toBeLessThan(300)
    const progress = await waitForImport(t.app, receptionist, res.json<{ jobId: string }>().jobId)
    expect(progress.status).toBe('done')
    const rows = await queryRows<{ assigned_to_user_id: string | null }>(
      t.db,
      sql`select assigned_to_user_id from leads where name in ('First Row', 'Second Row')`,
    )
    expect(rows).toHaveLength(2)
    for (const r of rows) expect(receptionists).toContain(r.assigned_to_user_id)
    await save({ autoAssignLeads: false })
  })
})

describe('priority scoring', () => {
  it('on (the default): a lead without a priority gets its score', async () => {
    await save({ priorityScoring: true })
    expect((await create({ source: 'walk-in', serviceInterest: 'Dental implants' })).priority).toBe(
      'high',
    )
    expect((await create({ source: 'manual' })).priority).toBe('medium')
    // A priority a person chose is kept.
    expect(
      (await create({ source: 'walk-in', serviceInterest: 'IVF', priority: 'low' })).priority,
    ).toBe('low')
  })

  it('off: the given priority, or medium', async () => {
    await save({ priorityScoring: false })
    expect((await create({ source: 'walk-in', serviceInterest: 'Dental implants' })).priority).toBe(
      'medium',
    )
    expect((await create({ priority: 'high' })).priority).toBe('high')
    await save({ priorityScoring: true })
  })
})

describe('max contact attempts', () => {
  const logCall = (id: string) =>
    call(t.app, receptionist, 'POST', '/api/communications', {
      leadId: id,
      type: 'call',
      direction: 'outbound',
      content: 'Called, no answer',
    })

  it('flags the lead once its contacts go beyond the maximum, in the list and details', async () => {
    await save({ maxContactAttempts: 2 })
    const l = await create({})
    expect(l).toMatchObject({ contactAttempts: 0, contactLimitExceeded: false })
    for (let i = 0; i < 2; i++) expect((await logCall(l.id)).statusCode).toBeLessThan(300)
    let details = await call(t.app, receptionist, 'GET', `/api/leads/${l.id}`)
    expect(details.json()).toMatchObject({ contactAttempts: 2, contactLimitExceeded: false })
    expect((await logCall(l.id)).statusCode).toBeLessThan(300)
    details = await call(t.app, receptionist, 'GET', `/api/leads/${l.id}`)
    expect(details.json()).toMatchObject({ contactAttempts: 3, contactLimitExceeded: true })
    const page = await leadsPageOf(t.app, receptionist, '?limit=100')
    expect(page.leads.find((x) => x.id === l.id)).toMatchObject({ contactLimitExceeded: true })

    // Raising the maximum clears the flag at once; lowering it sets it again.
    await save({ maxContactAttempts: 5 })
    details = await call(t.app, receptionist, 'GET', `/api/leads/${l.id}`)
    expect(details.json()).toMatchObject({ contactAttempts: 3, contactLimitExceeded: false })
    await save({ maxContactAttempts: 1 })
    details = await call(t.app, receptionist, 'GET', `/api/leads/${l.id}`)
    expect(details.json()).toMatchObject({ contactLimitExceeded: true })
    await save({ maxContactAttempts: 5 })
  })
})

describe('follow-up days', () => {
  it('drive which leads are due a follow-up reminder', async () => {
    const l = await create({})
    await t.db.execute(
      sql`update leads set status = 'contacted', last_contact_at = now() - interval '5 days' where id = ${l.id}`,
    )
    const due = async () => {
      const res = await call(t.app, admin, 'GET', '/api/reminders?limit=100')
      expect(res.statusCode, res.body).toBe(200)
      return res.json<{ data: { id: string }[] }>().data.some((r) => r.id === `follow-up:${l.id}`)
    }
    await save({ followUpDays: 10 })
    expect(await due()).toBe(false)
    await save({ followUpDays: 3 })
    expect(await due()).toBe(true)
  })
})
