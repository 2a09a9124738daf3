import { sql } from 'drizzle-orm'
import type { AppDb, Tx } from '../db/client'
import { withPlatform } from '../db/tenant'
import { type ClaimedJob, type JobContext, LeaseLostError } from './registry'
import { type Fence, fenced, ms } from './store'

/**
 * ctx.withTenant and ctx.checkpoint (docs/decisions/020-fair-jobs.md): a handler's tenant
 * writes commit only while the job is still this worker's.
 *
 * One transaction: first, as the worker's own (platform) role, an UPDATE renews the lease
 * where the job is still this worker's attempt; it holds the job row's lock until COMMIT, so
 * a competing claim skips the row meanwhile and afterwards finds a live lease. No row: the
 * job was taken over, LeaseLostError, and nothing commits. Then the transaction drops to
 * app_user with the job row's hospital (transaction-local, as db/tenant.ts withTenant does)
 * for the handler. Privileges only ever go down while handler code runs; a checkpoint the
 * handler asked for is written after its code has returned, by the worker's role again (app_user
 * may not change jobs), fenced once more, in the same transaction as the batch, and the lease
 * renewed from that moment (also without a checkpoint when the batch took a third of the lease).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

interface Pending {
  set: boolean
  json: string
}

async function holdLease(tx: Tx, fence: Fence, leaseMs: number): Promise<boolean> {
  const held = (await tx.execute(
    // clock_timestamp(), not now() (the transaction's start): the lease runs from this moment.
    sql`update jobs set locked_until = clock_timestamp() + ${ms(leaseMs)}, updated_at = now()
        where ${fenced(fence)} returning id`,
  )) as unknown as { rows: unknown[] }
  return held.rows.length > 0
}

export function fencedTenant(options: {
  db: AppDb
  job: ClaimedJob
  fence: Fence
  leaseMs: number
  /** Called when the fence finds the job taken over (the worker aborts ctx.signal). */
  onLost: () => void
}): Pick<JobContext, 'withTenant' | 'checkpoint'> {
  const { db, job, fence, leaseMs, onLost } = options
  const open = new WeakMap<Tx, Pending>()
  const lost = () => {
    onLost()
    return new LeaseLostError()
  }
  return {
    withTenant: async (fn) => {
      // The claimed row's hospital, never anything the payload says.
      const hospitalId = job.hospitalId
      if (!hospitalId) throw new Error(`job ${job.name} is a platform job: no hospital`)
      if (!UUID.test(hospitalId)) throw new Error('withTenant: the hospital id is not a UUID')
      return withPlatform(db, async (tx) => {
        if (!(await holdLease(tx, fence, leaseMs))) throw lost()
        await tx.execute(
          sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospitalId}, true)`,
        )
        const pending: Pending = { set: false, json: 'null' }
        open.set(tx, pending)
        const fencedAt = Date.now()
        try {
          const result = await fn(tx)
          // A batch that took a third of the lease or more renews it again before COMMIT:
          // otherwise the lease could run out at COMMIT, and a claim (the worker's renewal
          // waits for this row meanwhile) could take the job between COMMIT and that renewal.
          const long = Date.now() - fencedAt >= leaseMs / 3
          if (pending.set || long) {
            // The handler's code is done: back to the worker's role for the job row only.
            await tx.execute(sql`select set_config('role', 'none', true)`)
            const checkpoint = pending.set ? sql`checkpoint = ${pending.json}::jsonb,` : sql``
            const saved = (await tx.execute(
              sql`update jobs set ${checkpoint}
                         locked_until = clock_timestamp() + ${ms(leaseMs)}, updated_at = now()
                  where ${fenced(fence)} returning id`,
            )) as unknown as { rows: unknown[] }
            if (!saved.rows.length) throw lost()
          }
          return result
        } finally {
          open.delete(tx)
        }
      })
    },
    checkpoint: async (tx, value) => {
      const pending = open.get(tx)
      if (!pending) {
        throw new Error('ctx.checkpoint: pass the transaction ctx.withTenant gave this handler')
      }
      const json = JSON.stringify(value ?? null)
      if (json === undefined) throw new Error('ctx.checkpoint: the value is not JSON')
      pending.json = json
      pending.set = true
    },
  }
}
