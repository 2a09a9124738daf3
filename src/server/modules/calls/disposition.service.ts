import { and, eq, sql } from 'drizzle-orm'
import type { CallDisposition } from '../../../shared/calls'
import type { Call, DispositionInput } from '../../../shared/schemas/calls'
import type { Tx } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { communications } from '../../db/schema/leads'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { isFinalStatus } from '../../integrations/voice/voice-provider'
import { recordAudit } from '../audit/audit.service'
import type { CallRow } from './call-progress'
import { toCall } from './calls-read.service'
import type { CallsActor } from './calls.service'

/**
 * POST /api/calls/:id/disposition (issue 41): once a call has ended, how it went (interested,
 * call back at…, not reachable, wrong number, booked, not interested) and a note. It may be
 * changed later. "Call back at" keeps its time on the call (call_back_at, indexed): lead
 * follow-ups are computed, not stored, so the follow-up is the call's. The call's
 * Communication gets the disposition in its metadata too.
 */

export const STILL_LIVE = 'This call is still going on: choose how it went once it has ended.'
export const CALL_BACK_IN_PAST = 'Choose a call-back time in the future.'

/** A call-back time may be at most this far in the past (a clock a little behind). */
const PAST_SLACK_MS = 60_000

export async function setDisposition(
  opts: CallsActor & { id: string; input: DispositionInput; now?: Date | undefined },
): Promise<Call> {
  const now = opts.now ?? new Date()
  const { disposition, note } = opts.input
  const callBackAt = disposition === 'call_back' ? (opts.input.callBackAt ?? null) : null
  if (callBackAt && callBackAt.getTime() < now.getTime() - PAST_SLACK_MS) {
    throw new AppError('VALIDATION', CALL_BACK_IN_PAST, [
      { path: 'callBackAt', message: CALL_BACK_IN_PAST },
    ])
  }
  const row = await withTenant(opts.db, opts, async (tx) => {
    const [found] = await tx.select().from(calls).where(eq(calls.id, opts.id)).for('update')
    if (!found) throw notFound('Call')
    if (!isFinalStatus(found.status)) throw new AppError('CONFLICT', STILL_LIVE)
    const updated = await applyDisposition(tx, found, {
      disposition,
      note: note ?? null,
      callBackAt,
    })
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId ?? null,
      action: 'call.disposition',
      entityType: 'call',
      entityId: opts.id,
      summary: `Marked a call as ${disposition.replace('_', ' ')}${callBackAt ? ' with a call-back time' : ''}`,
    })
    return updated
  })
  return toCall(row)
}

/**
 * The disposition on an ended call and on its Communication's metadata, in the caller's tenant
 * transaction (setDisposition after its checks; the demo seed's past calls).
 */
export async function applyDisposition(
  tx: Tx,
  found: CallRow,
  d: { disposition: CallDisposition; note: string | null; callBackAt: Date | null },
): Promise<CallRow> {
  const [updated] = await tx
    .update(calls)
    .set({
      disposition: d.disposition,
      dispositionNote: d.note,
      callBackAt: d.callBackAt,
      updatedAt: new Date(),
    })
    .where(eq(calls.id, found.id))
    .returning()
  if (!updated) throw notFound('Call')
  await tx
    .update(communications)
    .set({
      metadata: sql`${communications.metadata} || ${JSON.stringify({
        disposition: d.disposition,
        ...(d.callBackAt ? { callBackAt: d.callBackAt.toISOString() } : {}),
      })}::jsonb`,
    })
    .where(
      and(
        eq(communications.type, 'call'),
        sql`${communications.metadata} ->> 'callId' = ${found.id}`,
        found.leadId
          ? eq(communications.leadId, found.leadId)
          : eq(communications.patientId, found.patientId ?? found.id),
      ),
    )
  return updated
}
