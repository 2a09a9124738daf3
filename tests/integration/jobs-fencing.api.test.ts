import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Database } from '../../src/server/db/client'
import { withPlatform } from '../../src/server/db/tenant'
import { claimNext } from '../../src/server/jobs/claim'
import { enqueue, getJob } from '../../src/server/jobs/queue'
import { type JobContext, LeaseLostError } from '../../src/server/jobs/registry'
import { onPostgres, sleep, uniqueName, jobsTestBed, waitFor } from '../support/jobs'
import { queryRows } from '../support/test-app'

// docs/decisions/020-fair-jobs.md: ctx.withTenant is fenced (the job row is checked and its
// lease renewed in the handler's own transaction, under the row's lock until COMMIT), and
// ctx.checkpoint stores a handler's progress state in that same transaction.

const bed = jobsTestBed()
const { handle, worker } = bed

function gate() {
  let open: () => void = () => undefined
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { open, opened }
}

async function leadsNamed(name: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    bed.db,
    sql`select count(*)::int as n from leads where name = ${name}`,
  )
  return row?.n ?? 0
}

const insertLead = (hospitalId: string, name: string, phone: string) =>
  sql`insert into leads (hospital_id, name, phone, source)
      values (${hospitalId}, ${name}, ${phone}, 'manual')`

describe('ctx.withTenant (fenced)', () => {
  it('commits nothing for a worker whose lease was taken over', async () => {
    const name = uniqueName('fenced')
    const paused = gate()
    const resume = gate()
    let outcome: unknown = 'not run'
    let aborted = false
    handle(name, async (_job, ctx) => {
      paused.open()
      await resume.opened
      try {
        await ctx.withTenant((tx) => tx.execute(insertLead(bed.a, 'Fenced Write', '+919800000001')))
        outcome = 'committed'
      } catch (error) {
        outcome = error
      }
      aborted = ctx.signal.aborted
    })
    const { id } = await withPlatform(bed.db, (tx) => enqueue(tx, { name, hospitalId: bed.a }))
    // A long lease: the worker renews nothing while the test takes the job over; one slot, so
    // that the worker does not claim the job again itself.
    await worker([name], { leaseMs: 60_000, concurrency: 1 }).start()
    await paused.opened
    // Its lease runs out (a stalled worker) and another worker claims the job.
    await bed.db.execute(
      sql`update jobs set locked_until = now() - interval '1 second' where id = ${id}`,
    )
    const other = await claimNext(bed.db, 'other-worker', [name], 60_000)
    expect(other).toMatchObject({ id, attempts: 2 })
    resume.open()
    await waitFor(async () => outcome !== 'not run', 'the stale write')
    expect(outcome).toBeInstanceOf(LeaseLostError)
    expect(aborted).toBe(true)
    expect(await leadsNamed('Fenced Write')).toBe(0)
    const [row] = await queryRows<{ locked_by: string; status: string }>(
      bed.db,
      sql`select locked_by, status from jobs where id = ${id}`,
    )
    expect(row).toEqual({ locked_by: 'other-worker', status: 'running' })
    await bed.db.execute(sql`update jobs set status = 'done' where id = ${id}`)
  })

  it('commits the batch of the worker that holds the lease', async () => {
    const name = uniqueName('fenced-ok')
    handle(name, async (_job, ctx) => {
      await ctx.withTenant((tx) => tx.execute(insertLead(bed.a, 'Kept Write', '+919800000002')))
      const tenant = await ctx.withTenant(async (tx) => {
        const [r] = (
          (await tx.execute(
            sql`select current_user as role, current_setting('app.hospital_id') as h`,
          )) as unknown as { rows: { role: string; h: string }[] }
        ).rows
        return r
      })
      return tenant
    })
    const { id } = await withPlatform(bed.db, (tx) => enqueue(tx, { name, hospitalId: bed.a }))
    await worker([name]).start()
    const job = await waitFor(async () => {
      const view = await getJob(bed.db, id, bed.a)
      return view?.status === 'done' && view
    }, 'the job')
    expect(job.result).toEqual({ role: 'app_user', h: bed.a })
    expect(await leadsNamed('Kept Write')).toBe(1)
  })

  it.skipIf(!onPostgres)(
    'holds the job row while the batch runs: a competing claim skips it even past the lease',
    async () => {
      const name = uniqueName('fenced-lock')
      const inside = gate()
      const leave = gate()
      handle(name, async (_job, ctx) => {
        await ctx.withTenant(async (tx) => {
          await tx.execute(insertLead(bed.a, 'Locked Write', '+919800000003'))
          inside.open()
          await leave.opened
        })
      })
      const { id } = await withPlatform(bed.db, (tx) => enqueue(tx, { name, hospitalId: bed.a }))
      // A short lease (a second: a loaded machine may pause a few hundred ms between COMMIT
      // and the worker's next statement, and a shorter lease would run out there).
      await worker([name], { leaseMs: 1_000 }).start()
      await inside.opened
      await sleep(1_300) // the lease set at the fence has run out by the clock
      const second = bed.second as Database
      expect(await claimNext(second.db, 'other-worker', [name], 60_000)).toBeNull()
      leave.open()
      const view = await waitFor(async () => {
        const v = await getJob(bed.db, id, bed.a)
        return v?.status === 'done' && v
      }, 'the job')
      // Renewed before COMMIT (the batch outlasted its lease): not claimed again after it.
      expect(view.attempts).toBe(1)
      expect(await leadsNamed('Locked Write')).toBe(1)
    },
  )
})

describe('ctx.checkpoint', () => {
  it('commits with the batch, or not at all, and the next attempt reads it', async () => {
    const name = uniqueName('checkpoint')
    const seen: unknown[] = []
    let misuse: unknown
    handle(name, async (job, ctx: JobContext) => {
      seen.push(job.checkpoint)
      if (job.attempts === 1) {
        await ctx.withTenant(async (tx) => {
          await tx.execute(insertLead(bed.a, 'Batch One', '+919800000011'))
          await ctx.checkpoint(tx, { rows: 1 })
        })
        // A batch that fails after its checkpoint: neither the row nor the checkpoint stays.
        await ctx
          .withTenant(async (tx) => {
            await tx.execute(insertLead(bed.a, 'Batch Two', '+919800000012'))
            await ctx.checkpoint(tx, { rows: 2 })
            throw new Error('the batch failed')
          })
          .catch(() => undefined)
        misuse = await withPlatform(bed.db, (tx) => ctx.checkpoint(tx, { rows: 99 })).catch(
          (error: unknown) => error,
        )
        throw new Error('the attempt failed')
      }
      return { resumedFrom: job.checkpoint }
    })
    const { id } = await withPlatform(bed.db, (tx) =>
      enqueue(tx, { name, hospitalId: bed.a, maxAttempts: 3 }),
    )
    await worker([name]).start()
    const view = await waitFor(async () => {
      const v = await getJob(bed.db, id, bed.a)
      return v?.status === 'done' && v
    }, 'the retried job')
    expect(seen).toEqual([null, { rows: 1 }])
    expect(view).toMatchObject({ checkpoint: { rows: 1 }, result: { resumedFrom: { rows: 1 } } })
    expect(await leadsNamed('Batch One')).toBe(1)
    expect(await leadsNamed('Batch Two')).toBe(0)
    expect(misuse).toBeInstanceOf(Error)
    expect(String(misuse)).toMatch(/ctx\.checkpoint/)
  })
})
