import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withPlatform, withTenant } from '../../src/server/db/tenant'
import { enqueue } from '../../src/server/jobs/queue'
import { LeaseLostError } from '../../src/server/jobs/registry'
import { LEAD_IMPORT_JOB, runLeadImport } from '../../src/server/modules/leads/leads.import'
import { importBatch } from '../../src/server/modules/leads/leads.import-batch'
import type { ImportState } from '../../src/server/modules/leads/leads.import-state'
import { getProgress, jobContext, standardMapping, takeJob } from '../support/leads-import'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Import fencing (issue 24, item 9): an import's state is the job's checkpoint, written in each
// batch's fenced transaction. A worker that lost its lease commits nothing more, and a worker
// that died right after a commit does not make the next attempt redo that batch.

let t: TestApp
let dataDir: string
let receptionist: string
let hospitalId: string
const previousDataDir = process.env.DATA_DIR

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-import-fencing-'))
  process.env.DATA_DIR = dataDir
  t = await createTestApp()
  receptionist = await login(t.app, demoEmail('receptionist'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
}, 120_000)
afterAll(async () => {
  await t?.close()
  process.env.DATA_DIR = previousDataDir
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const folder = () => join(dataDir, 'imports', hospitalId)
let series = 0

/**
 * 1,500 rows in three batches of 500; in each, 400 new phones, 50 phones that are already
 * leads (merged) and 50 bad phones (the report). Returns the job, not yet claimed.
 */
async function prepareImport() {
  series++
  const phone = (i: number) => `9${series}${String(i).padStart(8, '0')}`
  const known: string[] = []
  const lines = ['Name,Phone']
  for (let i = 0; i < 1_500; i++) {
    if (i % 10 === 9) lines.push(`Bad Phone ${series}-${i},12345`)
    else if (i % 10 === 8) {
      known.push(phone(i))
      lines.push(`Known Again ${series}-${i},${phone(i)}`)
    } else lines.push(`Fenced Lead ${series}-${i},${phone(i)}`)
  }
  await withTenant(t.db, { hospitalId, userId: null }, (tx) =>
    importBatch(
      tx,
      { hospitalId, userId: 'nobody', impersonatorUserId: null },
      known.map((p) => ({
        name: `Known Person ${p}`,
        phone: `+91${p}`,
        email: null,
        serviceInterest: null,
        campaign: null,
        notes: null,
        priority: 'medium' as const,
        source: 'walk-in' as const,
      })),
    ),
  )
  const fileId = randomUUID()
  await mkdir(folder(), { recursive: true })
  await writeFile(join(folder(), `${fileId}.csv`), `${lines.join('\n')}\n`)
  const job = await withTenant(t.db, { hospitalId, userId: null }, (tx) =>
    enqueue(tx, {
      name: LEAD_IMPORT_JOB,
      hospitalId,
      payload: { fileId, mapping: standardMapping, userId: 'nobody', impersonatorUserId: null },
      runAt: new Date(Date.now() + 3_600_000),
      maxAttempts: 5,
    }),
  )
  return { jobId: job.id, known }
}

/** What the database and the report hold of one import: each must be exact. */
async function outcome(jobId: string, known: string[]) {
  const [created] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from leads where hospital_id = ${hospitalId}
        and name like ${`Fenced Lead ${series}-%`}`,
  )
  const [notes] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from communications c join leads l
          on l.hospital_id = c.hospital_id and l.id = c.lead_id
        where l.hospital_id = ${hospitalId} and c.type = 'system'
          and l.phone in (${sql.join(
            known.map((p) => sql`${`+91${p}`}`),
            sql`, `,
          )})`,
  )
  const [row] = await withPlatform(t.db, (tx) =>
    queryRows<{ checkpoint: ImportState }>(
      tx,
      sql`select checkpoint from jobs where id = ${jobId}`,
    ),
  )
  const reportPath = join(folder(), `${jobId}.errors.csv`)
  const report = (await readFile(reportPath, 'utf8')).trimEnd().split('\r\n')
  return {
    created: created?.n,
    mergeNotes: notes?.n,
    checkpoint: row?.checkpoint,
    report,
    reportBytes: (await stat(reportPath)).size,
  }
}

function expectExact(result: Awaited<ReturnType<typeof outcome>>) {
  expect(result.created).toBe(1_200)
  // One note per merged row, not one per attempt that ran its batch.
  expect(result.mergeNotes).toBe(150)
  expect(result.checkpoint).toMatchObject({
    records: 1_500,
    created: 1_200,
    merged: 150,
    failed: 150,
    finished: true,
  })
  expect(result.report).toHaveLength(1 + 150)
  const rows = result.report.slice(1).map((line) => Number(line.split(',')[0]))
  expect(rows).toEqual(Array.from({ length: 150 }, (_, k) => 11 + k * 10))
  expect(result.reportBytes).toBe(result.checkpoint?.errorsBytes)
}

describe('an import whose worker lost its lease', () => {
  it('commits nothing more, and the counts are not inflated', async () => {
    const { jobId, known } = await prepareImport()
    const a = await takeJob(t.db, jobId, 'worker-a')
    let bResult: unknown
    // After A's first batch, worker B takes the job over (A's lease ran out) and runs it all.
    const ctxA = jobContext(t.db, a, 'worker-a', {
      onProgress: async (done) => {
        if (done !== 500 || bResult) return
        const b = await takeJob(t.db, jobId, 'worker-b')
        expect(b.checkpoint).toMatchObject({ records: 500, created: 400, merged: 50 })
        bResult = await runLeadImport(b, jobContext(t.db, b, 'worker-b'))
      },
    })
    // A goes on with its second batch: the fence refuses it, and nothing of it commits.
    await expect(runLeadImport(a, ctxA)).rejects.toBeInstanceOf(LeaseLostError)
    expect(ctxA.signal.aborted).toBe(true)
    expect(bResult).toMatchObject({ total: 1_500, created: 1_200, merged: 150, failed: 150 })
    expectExact(await outcome(jobId, known))
    // The progress answer is the checkpoint's (the job row is still B's, running).
    const { progress } = await getProgress(t.app, receptionist, jobId)
    expect(progress).toMatchObject({
      status: 'running',
      done: 1_500,
      created: 1_200,
      merged: 150,
      failed: 150,
    })
  })
})

describe('a retried import', () => {
  it('continues after the last committed batch, whether the worker died before or after a commit', async () => {
    const { jobId, known } = await prepareImport()
    // Attempt 1 commits its first batch, then dies before its second commits.
    const first = await takeJob(t.db, jobId, 'worker-1')
    const ctx1 = jobContext(t.db, first, 'worker-1', {
      around: async (call, run) => {
        if (call === 2) throw new Error('the worker died before the commit')
        return run()
      },
    })
    await expect(runLeadImport(first, ctx1)).rejects.toThrow('before the commit')
    // Attempt 2 commits its next batch and dies just after that commit.
    const second = await takeJob(t.db, jobId, 'worker-2')
    expect(second.checkpoint).toMatchObject({ records: 500 })
    const ctx2 = jobContext(t.db, second, 'worker-2', {
      around: async (call, run) => {
        const result = await run()
        if (call === 1) throw new Error('the worker died after the commit')
        return result
      },
    })
    await expect(runLeadImport(second, ctx2)).rejects.toThrow('after the commit')
    // Attempt 3 finishes from the checkpoint that commit left.
    const third = await takeJob(t.db, jobId, 'worker-3')
    expect(third.checkpoint).toMatchObject({ records: 1_000 })
    const result = await runLeadImport(third, jobContext(t.db, third, 'worker-3'))
    expect(result).toMatchObject({ total: 1_500, created: 1_200, merged: 150, failed: 150 })
    expectExact(await outcome(jobId, known))
    // Another attempt after the end (a lease lost after it) answers the same, touching nothing.
    const fourth = await takeJob(t.db, jobId, 'worker-4')
    expect(await runLeadImport(fourth, jobContext(t.db, fourth, 'worker-4'))).toEqual(result)
    expectExact(await outcome(jobId, known))
  })
})
