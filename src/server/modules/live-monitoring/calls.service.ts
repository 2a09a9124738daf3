import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { CallEnded, CallStarted } from '../../../shared/schemas/live-monitoring'
import type { AppDb } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { activities } from '../../db/schema/live-monitoring'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordActivity } from './activity'
import { markOnline } from './presence'

/*
 * Calls from a lead (issue 29): POST /api/leads/:id/calls records call_start (its id is the
 * call's id); POST /api/leads/:id/calls/:callId/end records call_end once (409 after that),
 * only for the caller's own call on that lead (404 otherwise).
 */

export interface CallActor {
  db: AppDb
  hospitalId: string
  userId: string
  now?: Date | undefined
}

export async function startCall(a: CallActor & { leadId: string }): Promise<CallStarted> {
  const now = a.now ?? new Date()
  return withTenant(a.db, a, async (tx) => {
    const [lead] = await tx.select({ name: leads.name }).from(leads).where(eq(leads.id, a.leadId))
    if (!lead) throw notFound('Lead')
    const callId = randomUUID()
    await recordActivity(tx, {
      id: callId,
      hospitalId: a.hospitalId,
      userId: a.userId,
      type: 'call_start',
      data: { leadId: a.leadId, leadName: lead.name, callId },
      at: now,
    })
    await markOnline(tx, { hospitalId: a.hospitalId, userId: a.userId, at: now })
    return { callId, startedAt: now.toISOString() }
  })
}

export async function endCall(
  a: CallActor & { leadId: string; callId: string },
): Promise<CallEnded> {
  const now = a.now ?? new Date()
  return withTenant(a.db, a, async (tx) => {
    const [start] = await tx
      .select({ at: activities.occurredAt, data: activities.data })
      .from(activities)
      .where(
        and(
          eq(activities.id, a.callId),
          eq(activities.activityType, 'call_start'),
          eq(activities.userId, a.userId),
          sql`${activities.data} ->> 'leadId' = ${a.leadId}`,
        ),
      )
    if (!start) throw notFound('Call')
    const durationSeconds = Math.max(0, Math.round((now.getTime() - start.at.getTime()) / 1000))
    const recorded = await recordActivity(tx, {
      hospitalId: a.hospitalId,
      userId: a.userId,
      type: 'call_end',
      data: {
        leadId: a.leadId,
        leadName: typeof start.data.leadName === 'string' ? start.data.leadName : null,
        callId: a.callId,
        durationSeconds,
      },
      at: now,
      dedupeKey: `call_end:${a.callId}`,
    })
    if (!recorded) throw new AppError('CONFLICT', 'This call has already ended')
    await markOnline(tx, { hospitalId: a.hospitalId, userId: a.userId, at: now })
    return { callId: a.callId, durationSeconds }
  })
}
