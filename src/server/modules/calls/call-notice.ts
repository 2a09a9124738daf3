import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { callEvent, type CallEvent } from '../../../shared/schemas/calls'
import type { Tx } from '../../db/client'
import type { calls } from '../../db/schema/calls'
import { MESSAGING_CHANNEL } from '../messaging/notify'

/**
 * A call's new state on the realtime channel (issue 41): NOTIFY on 'messaging' inside the
 * transaction that changed it, so PostgreSQL delivers it at COMMIT only, to every instance;
 * messaging-events/hub.ts sends it to the hospital's screens as a `call` event. It names ids
 * and the state, never a phone number.
 */

export interface CallNotice {
  kind: 'call'
  hospitalId: string
  call: CallEvent
}

type CallRow = typeof calls.$inferSelect

export function callEventOf(row: CallRow): CallEvent {
  return {
    id: row.id,
    userId: row.userId,
    leadId: row.leadId,
    patientId: row.patientId,
    status: row.status,
    durationSeconds: row.durationSeconds,
    failureReason: row.failureReason,
  }
}

export async function notifyCall(tx: Tx, row: CallRow): Promise<void> {
  const notice: CallNotice = { kind: 'call', hospitalId: row.hospitalId, call: callEventOf(row) }
  await tx.execute(sql`select pg_notify(${MESSAGING_CHANNEL}, ${JSON.stringify(notice)})`)
}

const notice = z.object({ kind: z.literal('call'), hospitalId: z.uuid(), call: callEvent })

/** A `call` notice from the channel, checked; null for anything else. */
export function callNotice(json: unknown): CallNotice | null {
  if ((json as { kind?: unknown } | null)?.kind !== 'call') return null
  const parsed = notice.safeParse(json)
  return parsed.success ? parsed.data : null
}
