import { and, eq, type SQL } from 'drizzle-orm'
import type { MessageChannel } from '../../../shared/messaging'
import type { Tx } from '../../db/client'
import { communications } from '../../db/schema/leads'
import { optedOut, recordConsent } from '../messaging/consent'
import { notifyMessage } from '../messaging/notify'
import { advanceStatus, type StatusChange } from '../messaging/status'

export type MessageRef = { id: string } | { provider: string; providerMessageId: string }

/**
 * A provider's status callback, in the routed hospital's transaction: the message moves
 * forward only (a replayed or late status is a no-op, status.ts), and a move is announced to
 * every instance (NOTIFY). Returns whether it moved.
 */
export async function applyStatus(
  tx: Tx,
  hospitalId: string,
  ref: MessageRef,
  change: StatusChange,
): Promise<boolean> {
  const moved = await advanceStatus(tx, ref, change)
  if (!moved) return false
  await notifyMessage(tx, {
    hospitalId,
    id: moved.id,
    leadId: moved.leadId,
    patientId: moved.patientId,
    status: change.status,
    failureReason: change.status === 'failed' ? (change.failureReason ?? null) : null,
    direction: 'outbound',
  })
  return true
}

const channels: readonly string[] = ['whatsapp', 'sms', 'email']

/**
 * The provider says the recipient of this message opted out (Twilio 21610): an opt-out record
 * (method 'provider') for its address and channel, unless the newest record already says so
 * (a replayed callback adds nothing).
 */
export async function recordProviderOptOut(
  tx: Tx,
  hospitalId: string,
  ref: MessageRef,
): Promise<boolean> {
  const match: SQL | undefined =
    'id' in ref
      ? eq(communications.id, ref.id)
      : and(
          eq(communications.provider, ref.provider as 'twilio'),
          eq(communications.providerMessageId, ref.providerMessageId),
        )
  const [row] = await tx
    .select({
      id: communications.id,
      type: communications.type,
      address: communications.contactAddress,
    })
    .from(communications)
    .where(and(match, eq(communications.direction, 'outbound')))
  if (!row?.address || !channels.includes(row.type)) return false
  const channel = row.type as MessageChannel
  if ((await optedOut(tx, channel, [row.address])).has(row.address)) return false
  await recordConsent(tx, {
    hospitalId,
    channel,
    contactAddress: row.address,
    action: 'opt_out',
    method: 'provider',
    communicationId: row.id,
  })
  return true
}
