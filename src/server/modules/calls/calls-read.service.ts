import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm'
import type { Call, ListCallsQuery } from '../../../shared/schemas/calls'
import { calls } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import { timeZoneOf } from '../leads/leads.stats'
import { dayStart } from './call-rules'
import type { CallRow } from './call-progress'
import type { CallsActor } from './calls.service'

/** GET /api/calls/:id and GET /api/calls (issue 41): the hospital's own calls only (RLS). */

/** The most calls one list answers: the newest. */
export const CALLS_LISTED = 200

const iso = (d: Date | null) => (d ? d.toISOString() : null)

export function toCall(row: CallRow): Call {
  return {
    id: row.id,
    leadId: row.leadId,
    patientId: row.patientId,
    userId: row.userId,
    direction: row.direction,
    provider: row.provider,
    sandbox: row.provider === 'sandbox',
    status: row.status,
    failureReason: row.failureReason,
    startedAt: row.startedAt.toISOString(),
    answeredAt: iso(row.answeredAt),
    endedAt: iso(row.endedAt),
    durationSeconds: row.durationSeconds,
    outcome: row.outcome,
    disposition: row.disposition,
    dispositionNote: row.dispositionNote,
    callBackAt: iso(row.callBackAt),
    hasRecording: row.recordingKey !== null,
    recordingNote: row.recordingNote,
    createdAt: row.createdAt.toISOString(),
  }
}

export async function getCall(opts: CallsActor & { id: string }): Promise<Call> {
  const [row] = await withTenant(opts.db, opts, (tx) =>
    tx.select().from(calls).where(eq(calls.id, opts.id)),
  )
  if (!row) throw notFound('Call')
  return toCall(row)
}

/** Newest first; from/to are days in the hospital's zone (to inclusive) or instants. */
export async function listCalls(opts: CallsActor & { query: ListCallsQuery }): Promise<Call[]> {
  const { query } = opts
  const timeZone = query.from || query.to ? await timeZoneOf(opts.db, opts.hospitalId) : ''
  const where: SQL[] = []
  if (query.leadId) where.push(eq(calls.leadId, query.leadId))
  if (query.patientId) where.push(eq(calls.patientId, query.patientId))
  if (query.from) where.push(gte(calls.createdAt, dayStart(query.from, timeZone)))
  if (query.to) where.push(lt(calls.createdAt, dayStart(query.to, timeZone, true)))
  const rows = await withTenant(opts.db, opts, (tx) =>
    tx
      .select()
      .from(calls)
      .where(and(...where))
      .orderBy(desc(calls.createdAt), desc(calls.id))
      .limit(CALLS_LISTED),
  )
  return rows.map(toCall)
}
