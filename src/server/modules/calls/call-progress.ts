import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { communications, leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { type CallStatus, isFinalStatus } from '../../integrations/voice/voice-provider'
import { touchLeads } from '../leads/communications.service'
import { recordActivity } from '../live-monitoring/activity'
import { notifyCall } from './call-notice'
import { enqueueRecordingFetch } from './recording-jobs'
import { callSummary, outcomeOf, statusesBefore } from './call-rules'

/**
 * How a call moves (issue 41): one function applies a new status, forward only, in the
 * caller's tenant transaction. The conditional UPDATE is the guard: a change that is not
 * forward (late, out of order, or applied twice, by two instances at once too) updates no row
 * and writes nothing, so the ending's Communication and call_end activity are written once.
 * Every applied change is announced on the realtime channel (call-notice.ts).
 */

export type CallRow = typeof calls.$inferSelect

export interface CallChange {
  status: CallStatus
  /** When it happened (the provider's time, or now). */
  at: Date
  /** An ended call's conversation in seconds (0 when never answered). */
  durationSeconds?: number | undefined
  /** A failed call's reason, in a receptionist's words. */
  failureReason?: string | null | undefined
}

/** Applies `change` to the call when it moves it forward; null when it does not (no writes). */
export async function applyCallChange(
  tx: Tx,
  callId: string,
  change: CallChange,
): Promise<CallRow | null> {
  const from = statusesBefore(change.status)
  if (from.length === 0) return null
  const final = isFinalStatus(change.status)
  const answered = change.status === 'in-progress' || change.status === 'completed'
  const [row] = await tx
    .update(calls)
    .set({
      status: change.status,
      updatedAt: new Date(),
      ...(answered ? { answeredAt: sql`coalesce(${calls.answeredAt}, ${change.at})` } : {}),
      ...(final
        ? {
            endedAt: change.at,
            durationSeconds: Math.max(0, Math.round(change.durationSeconds ?? 0)),
            outcome: outcomeOf(change.status),
            failureReason: change.status === 'failed' ? (change.failureReason ?? null) : null,
          }
        : {}),
    })
    .where(and(eq(calls.id, callId), inArray(calls.status, from)))
    .returning()
  if (!row) return null
  if (final && row.providerCallId !== null) await recordCallEnd(tx, row)
  if (final && row.providerCallId !== null) await enqueueRecordingFetch(tx, row)
  await notifyCall(tx, row)
  return row
}

/** The lead's or patient's name for the activity feed (never the number). */
async function contactName(tx: Tx, row: CallRow): Promise<string | null> {
  if (row.leadId) {
    const [lead] = await tx.select({ name: leads.name }).from(leads).where(eq(leads.id, row.leadId))
    return lead?.name ?? null
  }
  if (row.patientId) {
    const [patient] = await tx
      .select({ name: patients.name })
      .from(patients)
      .where(eq(patients.id, row.patientId))
    return patient?.name ?? null
  }
  return null
}

/** The activity data of a call (ids and a name; no number). */
export async function callActivityData(tx: Tx, row: CallRow) {
  return {
    callId: row.id,
    leadId: row.leadId,
    patientId: row.patientId,
    leadName: await contactName(tx, row),
  }
}

/**
 * A call that ended: its Communication on the lead or patient (type 'call', metadata
 * durationSeconds, outcome, callId) and its call_end activity. Called once per call, by the
 * change that ended it.
 */
async function recordCallEnd(tx: Tx, row: CallRow): Promise<void> {
  const outcome = row.outcome ?? 'failed'
  const durationSeconds = row.durationSeconds ?? 0
  const at = row.endedAt ?? new Date()
  await tx.insert(communications).values({
    hospitalId: row.hospitalId,
    leadId: row.leadId,
    patientId: row.patientId,
    type: 'call',
    direction: row.direction,
    content: callSummary({
      direction: row.direction,
      outcome,
      durationSeconds,
      sandbox: row.provider === 'sandbox',
    }),
    status: 'logged',
    metadata: {
      callId: row.id,
      durationSeconds,
      outcome,
      voiceProvider: row.provider,
      ...(row.provider === 'sandbox' ? { sandbox: true } : {}),
    },
    // An inbound call was the customer's: it has no author (like an inbound message).
    createdByUserId: row.direction === 'outbound' ? row.userId : null,
    contactAddress: row.customerPhone,
    sandbox: row.provider === 'sandbox',
  })
  if (row.leadId) await touchLeads(tx, [row.leadId], 'call', row.direction)
  await recordActivity(tx, {
    hospitalId: row.hospitalId,
    userId: row.userId,
    type: 'call_end',
    data: { ...(await callActivityData(tx, row)), durationSeconds, outcome },
    at,
    dedupeKey: `call_end:${row.id}`,
  })
}

export const NOT_PLACED =
  'The call could not be placed (the server stopped before the provider answered); try again.'

/**
 * A call still queued without a provider id long after it was started was never placed (the
 * instance stopped between saving it and asking the provider): it fails, freeing the staff
 * member for the next call.
 */
export async function settleUnplaced(tx: Tx, callId: string): Promise<CallRow | null> {
  const [row] = await tx
    .update(calls)
    .set({
      status: 'failed',
      outcome: 'failed',
      failureReason: NOT_PLACED,
      endedAt: new Date(),
      durationSeconds: 0,
      updatedAt: new Date(),
    })
    .where(and(eq(calls.id, callId), eq(calls.status, 'queued'), isNull(calls.providerCallId)))
    .returning()
  if (row) await notifyCall(tx, row)
  return row ?? null
}
