import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { type IncomingCallEvent, incomingCallEvent } from '../../../shared/schemas/calls-incoming'
import type { Tx } from '../../db/client'
import { MESSAGING_CHANNEL } from '../messaging/notify'

/**
 * "A call came in" on the realtime channel (issue 41): NOTIFY on 'messaging' inside the
 * transaction that logged the call, so every instance hears it at COMMIT;
 * messaging-events/hub.ts sends it to the hospital's screens as an `incoming_call` event, and
 * the ring group's screens pop up. Ids only: the card (name, patient number, next appointment)
 * is read with GET /api/calls/incoming/:id by a signed-in member.
 */

export interface IncomingNotice {
  kind: 'incoming_call'
  hospitalId: string
  call: IncomingCallEvent
}

export async function notifyIncoming(
  tx: Tx,
  hospitalId: string,
  call: IncomingCallEvent,
): Promise<void> {
  const notice: IncomingNotice = { kind: 'incoming_call', hospitalId, call }
  await tx.execute(sql`select pg_notify(${MESSAGING_CHANNEL}, ${JSON.stringify(notice)})`)
}

const notice = z.object({
  kind: z.literal('incoming_call'),
  hospitalId: z.uuid(),
  call: incomingCallEvent,
})

/** An `incoming_call` notice from the channel, checked; null for anything else. */
export function incomingNotice(json: unknown): IncomingNotice | null {
  if ((json as { kind?: unknown } | null)?.kind !== 'incoming_call') return null
  const parsed = notice.safeParse(json)
  return parsed.success ? parsed.data : null
}
