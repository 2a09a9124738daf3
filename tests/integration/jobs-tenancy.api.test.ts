import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { jobs } from '../../src/server/db/schema/jobs'
import { withPlatform } from '../../src/server/db/tenant'
import { enqueue, getJob, readJob } from '../../src/server/jobs/queue'
import type { JobLog } from '../../src/server/jobs/registry'
import { onPostgres, uniqueName, jobsTestBed, waitFor } from '../support/jobs'
import { queryRows } from '../support/test-app'

// Jobs and tenants: the lookup behind the progress routes refuses another hospital's job by
// itself (issue 30), a job runs in its own row's hospital (issue 30), and what is stored,
// logged or shown about a failure carries no patient data (issue 24).

const bed = jobsTestBed()
const { handle, worker } = bed

const NAME = 'Rukmini Deshpande'
const PHONE = '+919812345670'
const DIGITS = '9812345670'

function capturingLog(lines: string[]): JobLog {
  const capture = (level: string) => (obj: object, msg: string) => {
    lines.push(JSON.stringify({ level, ...obj, msg }))
  }
  return { info: capture('info'), warn: capture('warn'), error: capture('error') }
}

describe('getJob (issue 30)', () => {
  it("refuses another hospital's job even where row-level security does not apply", async () => {
    const name = uniqueName('lookup')
    const [ofA, ofB, platform] = await withPlatform(bed.db, async (tx) => [
      await enqueue(tx, { name, hospitalId: bed.a }),
      await enqueue(tx, { name, hospitalId: bed.b }),
      await enqueue(tx, { name, hospitalId: null }),
    ])
    await withPlatform(bed.db, async (tx) => {
      // This transaction sees every job (the connecting role is not under RLS here) ...
      const all = await tx.select({ id: jobs.id }).from(jobs).where(eq(jobs.name, name))
      expect(all).toHaveLength(3)
      // ... so only the lookup's own hospital condition refuses these.
      expect(await readJob(tx, ofB?.id ?? '', bed.a)).toBeNull()
      expect(await readJob(tx, platform?.id ?? '', bed.a)).toBeNull()
      expect(await readJob(tx, ofA?.id ?? '', bed.a)).toMatchObject({ id: ofA?.id, name })
    })
    expect(await getJob(bed.db, ofB?.id ?? '', bed.a)).toBeNull()
    expect(await getJob(bed.db, ofA?.id ?? '', bed.a)).toMatchObject({ id: ofA?.id })
  })
})

describe("a job's tenant (issue 30)", () => {
  it("runs in its own row's hospital, whatever its payload names", async () => {
    const name = uniqueName('payload-tenant')
    await withPlatform(bed.db, (tx) =>
      tx.execute(
        sql`insert into leads (hospital_id, name, phone, source)
            values (${bed.a}, 'Lead of A', '+919800000101', 'manual'),
                   (${bed.b}, 'Lead of B', '+919800000102', 'manual')`,
      ),
    )
    handle(name, async (job, ctx) => {
      const seen = await ctx.withTenant(async (tx) => {
        const result = (await tx.execute(
          sql`select current_setting('app.hospital_id') as setting,
                     (select array_agg(distinct hospital_id::text) from leads) as hospitals`,
        )) as unknown as { rows: { setting: string; hospitals: string[] }[] }
        return result.rows[0]
      })
      return { job: job.hospitalId, ...seen }
    })
    const { id } = await withPlatform(bed.db, (tx) =>
      enqueue(tx, { name, hospitalId: bed.a, payload: { hospitalId: bed.b } }),
    )
    await worker([name]).start()
    const view = await waitFor(async () => {
      const v = await getJob(bed.db, id, bed.a)
      return v?.status === 'done' && v
    }, 'the job')
    expect(view.result).toEqual({ job: bed.a, setting: bed.a, hospitals: [bed.a] })
  })
})

describe('what a failed job stores, logs and shows (issue 24)', () => {
  it('is the error class and code, never the name or phone its statement carried', async () => {
    const name = uniqueName('pii-error')
    const lines: string[] = []
    handle(name, async (job, ctx) => {
      await ctx.progress(1, 2)
      const kind = (job.payload as { kind: string }).kind
      await ctx.withTenant(async (tx) => {
        if (kind === 'cast') {
          // 22003: 'value "<phone>" is out of range for type integer', and drizzle's message
          // adds both parameters.
          await tx.execute(sql`select ${NAME}::text as name, ${PHONE}::int as phone`)
        } else if (kind === 'unique') {
          // 23505: the detail says "Key (hospital_id, phone)=(..., <phone>) already exists".
          for (let i = 0; i < 2; i++) {
            await tx.execute(
              sql`insert into leads (hospital_id, name, phone, source)
                  values (${bed.a}, ${NAME}, ${PHONE}, 'manual')`,
            )
          }
        } else {
          // 57014: a statement timeout while the statement carries the values.
          await tx.execute(sql`select set_config('statement_timeout', '50', true)`)
          await tx.execute(sql`select pg_sleep(2), ${NAME}::text, ${PHONE}::text`)
        }
      })
    })
    const kinds = { cast: '22003', unique: '23505', ...(onPostgres ? { timeout: '57014' } : {}) }
    const ids = await withPlatform(bed.db, async (tx) => {
      const out: Record<string, string> = {}
      for (const kind of Object.keys(kinds)) {
        out[kind] = (
          await enqueue(tx, { name, hospitalId: bed.a, payload: { kind }, maxAttempts: 2 })
        ).id
      }
      return out
    })
    await worker([name], { log: capturingLog(lines) }).start()
    for (const [kind, code] of Object.entries(kinds)) {
      const id = ids[kind] ?? ''
      const view = await waitFor(async () => {
        const v = await getJob(bed.db, id, bed.a)
        return v?.status === 'dead' && v
      }, `the ${kind} job to die`)
      const [row] = await queryRows(
        bed.db,
        sql`select last_error, result, progress, checkpoint, status from jobs where id = ${id}`,
      )
      expect(row).toMatchObject({ last_error: `DrizzleQueryError (${code})`, result: null })
      expect(view.lastError).toBe(`DrizzleQueryError (${code})`)
      for (const text of [JSON.stringify(row), JSON.stringify(view)]) {
        expect(text).not.toContain(NAME)
        expect(text).not.toContain(DIGITS)
      }
    }
    const logged = lines.join('\n')
    expect(logged).toContain('"msg":"job failed; will retry"')
    expect(logged).toContain('DrizzleQueryError (22003)')
    expect(logged).not.toContain(NAME)
    expect(logged).not.toContain(DIGITS)
    expect(logged).not.toContain('Rukmini')
  })
})
