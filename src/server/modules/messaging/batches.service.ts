import { and, desc, eq, sql } from 'drizzle-orm'
import type { MessageBatch } from '../../../shared/schemas/messaging-send'
import { communications } from '../../db/schema/leads'
import { messageBatches } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import type { TenantOptions } from '../patients/patients.service'

const STATUSES = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed'] as const

/** GET /api/message-batches/:id: a bulk send's counts by status and its failure reasons. */
export async function getBatch(opts: TenantOptions & { id: string }): Promise<MessageBatch> {
  return withTenant(opts.db, opts, async (tx) => {
    const [batch] = await tx.select().from(messageBatches).where(eq(messageBatches.id, opts.id))
    if (!batch) throw notFound('Message batch')
    const byStatus = await tx
      .select({ status: communications.status, n: sql<number>`count(*)::int` })
      .from(communications)
      .where(eq(communications.batchId, batch.id))
      .groupBy(communications.status)
    const failures = await tx
      .select({
        reason: sql<string>`coalesce(${communications.failureReason}, 'Failed')`,
        count: sql<number>`count(*)::int`,
      })
      .from(communications)
      .where(and(eq(communications.batchId, batch.id), eq(communications.status, 'failed')))
      .groupBy(sql`1`)
      .orderBy(desc(sql`2`))
      .limit(20)
    const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as MessageBatch['counts']
    for (const row of byStatus) {
      if (row.status in counts) counts[row.status as keyof typeof counts] = Number(row.n)
    }
    const skipped = {
      opted_out: 0,
      no_email: 0,
      no_phone: 0,
      invalid_number: 0,
      outside_window: 0,
      ...batch.skipped,
    }
    return {
      id: batch.id,
      channel: batch.channel,
      requested: batch.requested,
      queued: batch.queued,
      skipped,
      counts,
      failures: failures.map((f) => ({ reason: f.reason, count: Number(f.count) })),
      done: counts.queued + counts.sending === 0,
      createdAt: batch.createdAt.toISOString(),
    }
  })
}
