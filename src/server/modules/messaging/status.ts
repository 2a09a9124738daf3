import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { communications } from '../../db/schema/leads'
import { recordMessageSent } from '../live-monitoring/message-sent'

/**
 * Outbound statuses only move forward (issue 25): a late or repeated callback never undoes a
 * later state. Order: queued < sending < sent < failed < delivered < read. 'failed' after
 * 'delivered' is ignored; 'delivered' after 'failed' wins (WhatsApp may report them out of
 * order, and the later delivery is the truth).
 */
export type OutboundStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'delivered' | 'read'

export const outboundRank: Record<OutboundStatus, number> = {
  queued: 0,
  sending: 1,
  sent: 2,
  failed: 3,
  delivered: 4,
  read: 5,
}

const rankOfColumn = sql`(case ${communications.status}
  when 'queued' then 0 when 'sending' then 1 when 'sent' then 2
  when 'failed' then 3 when 'delivered' then 4 when 'read' then 5 else 99 end)`

export interface StatusChange {
  status: OutboundStatus
  providerMessageId?: string | undefined
  failureCode?: string | null | undefined
  failureReason?: string | null | undefined
}

/**
 * Moves one outbound message (found by `where`, inside the caller's tenant transaction) to
 * `change.status` if that is forward; returns the updated row's id and lead/patient, or null when
 * nothing moved (unknown message, or a status that is not forward).
 */
export async function advanceStatus(
  tx: Tx,
  where: { id: string } | { provider: string; providerMessageId: string },
  change: StatusChange,
): Promise<{ id: string; leadId: string | null; patientId: string | null } | null> {
  const match: SQL | undefined =
    'id' in where
      ? eq(communications.id, where.id)
      : and(
          eq(communications.provider, where.provider as 'twilio'),
          eq(communications.providerMessageId, where.providerMessageId),
        )
  const [row] = await tx
    .update(communications)
    .set({
      status: change.status,
      statusChangedAt: new Date(),
      ...(change.providerMessageId ? { providerMessageId: change.providerMessageId } : {}),
      ...(change.failureCode !== undefined ? { failureCode: change.failureCode } : {}),
      ...(change.failureReason !== undefined ? { failureReason: change.failureReason } : {}),
    })
    .where(
      and(
        match,
        eq(communications.direction, 'outbound'),
        sql`${rankOfColumn} < ${outboundRank[change.status]}`,
      ),
    )
    .returning({
      id: communications.id,
      leadId: communications.leadId,
      patientId: communications.patientId,
      hospitalId: communications.hospitalId,
      type: communications.type,
      createdByUserId: communications.createdByUserId,
    })
  if (!row) return null
  // Live monitoring: an email or SMS counts as sent once a provider took it (once per message).
  await recordMessageSent(tx, row, change.status)
  return { id: row.id, leadId: row.leadId, patientId: row.patientId }
}
