import { sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'

/** The LISTEN/NOTIFY channel of message status changes (S-webhooks' SSE fans it out). */
export const MESSAGING_CHANNEL = 'messaging'

/** One message's new state, as screens need it: never its text or address. */
export interface MessageEvent {
  hospitalId: string
  id: string
  leadId: string | null
  patientId: string | null
  status: string
  failureReason: string | null
  direction: 'inbound' | 'outbound'
}

/**
 * Announces a message's status change inside the caller's transaction: PostgreSQL delivers it
 * at COMMIT only (never for a rolled-back change), to every instance listening on 'messaging'.
 */
export async function notifyMessage(tx: Tx, payload: MessageEvent): Promise<void> {
  const body: MessageEvent = {
    hospitalId: payload.hospitalId,
    id: payload.id,
    leadId: payload.leadId,
    patientId: payload.patientId,
    status: payload.status,
    failureReason: payload.failureReason,
    direction: payload.direction,
  }
  await tx.execute(sql`select pg_notify(${MESSAGING_CHANNEL}, ${JSON.stringify(body)})`)
}
