import { and, eq, lt, sql } from 'drizzle-orm'
import { dateInZone } from '../../../shared/invoice-math'
import type { Tx } from '../../db/client'
import { invoices } from '../../db/schema/billing'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { enqueue } from '../../jobs/queue'
import { type JobHandler, PermanentJobError } from '../../jobs/registry'
import { recordAudit } from '../audit/audit.service'

/**
 * Overdue invoices (issue 26). A platform sweep (all-jobs.ts, hourly) works out each
 * hospital's date in its own time zone and enqueues one job per hospital and local date
 * (dedupe key billing.overdue:<date>), so each hospital's run is daily, soon after its own
 * midnight, in its own lane of the fair queue: one hospital with many invoices delays no other.
 * Each run turns the hospital's pending invoices whose due date is before that date into
 * overdue; running it again changes nothing (idempotent).
 */
export const OVERDUE_SWEEP_JOB = 'billing.overdue.sweep'
export const OVERDUE_JOB = 'billing.overdue'

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** In the caller's tenant transaction: pending invoices due before `today` become overdue. */
export async function markOverdue(
  tx: Tx,
  opts: { hospitalId: string; today: string },
): Promise<number> {
  const changed = await tx
    .update(invoices)
    .set({ status: 'overdue', updatedAt: sql`now()` })
    .where(and(eq(invoices.status, 'pending'), lt(invoices.dueDate, opts.today)))
    .returning({ id: invoices.id })
  if (changed.length > 0) {
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: null,
      action: 'invoice.overdue',
      entityType: 'invoice',
      entityId: changed.length === 1 ? (changed[0]?.id ?? null) : null,
      summary: `${changed.length} pending invoice${changed.length === 1 ? '' : 's'} past due on ${opts.today} marked overdue`,
    })
  }
  return changed.length
}

/** The per-hospital job: payload { date } (the hospital's local date when it was enqueued). */
export const overdueJob: JobHandler = async (job, ctx) => {
  const date = (job.payload as { date?: unknown } | null)?.date
  if (typeof date !== 'string' || !ISO_DATE.test(date) || !job.hospitalId)
    throw new PermanentJobError('The overdue job needs a hospital and a date')
  const hospitalId = job.hospitalId
  const marked = await ctx.withTenant((tx) => markOverdue(tx, { hospitalId, today: date }))
  return { date, marked }
}

/**
 * The platform sweep: one overdue job per hospital for its local date at the sweep's slot
 * (job.runAt, the schedule's clock). Enqueued in one platform transaction; a hospital whose
 * job for that date exists already gets no second one.
 */
export const overdueSweepJob: JobHandler = async (job, ctx) => {
  const at = job.runAt
  return withPlatform(ctx.db, async (tx) => {
    const rows = await tx.select({ id: hospitals.id, timeZone: hospitals.timeZone }).from(hospitals)
    let created = 0
    for (const h of rows) {
      const date = dateInZone(at, h.timeZone)
      const result = await enqueue(tx, {
        name: OVERDUE_JOB,
        hospitalId: h.id,
        payload: { date },
        dedupeKey: `${OVERDUE_JOB}:${date}`,
      })
      if (result.created) created += 1
    }
    return { hospitals: rows.length, created }
  })
}
