import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { ConsentAction, ConsentMethod, MessageChannel } from '../../../shared/messaging'
import type { Tx } from '../../db/client'
import { consentRecords } from '../../db/schema/messaging'

/**
 * DPDP consent (Act 2023; ENGINEERING.md "Consent"): every opt-in and opt-out is a record that
 * is kept; a contact's current choice on a channel is its newest record. Sends check it (single
 * and bulk), inbound STOP/START and provider opt-out errors write it, staff can record either.
 */
export interface ConsentInput {
  hospitalId: string
  channel: MessageChannel
  /** E.164 phone or lower-case email. */
  contactAddress: string
  action: ConsentAction
  method: ConsentMethod
  purpose?: string | undefined
  noticeVersion?: string | null | undefined
  recordedByUserId?: string | null | undefined
  communicationId?: string | null | undefined
  /** When it was given (the demo seed's history); now by default. */
  at?: Date | undefined
}

/** Adds a consent record in the caller's tenant transaction. */
export async function recordConsent(tx: Tx, input: ConsentInput): Promise<{ id: string }> {
  const [row] = await tx
    .insert(consentRecords)
    .values({
      hospitalId: input.hospitalId,
      channel: input.channel,
      contactAddress: input.contactAddress,
      action: input.action,
      method: input.method,
      purpose: input.purpose ?? 'messaging',
      noticeVersion: input.noticeVersion ?? null,
      recordedByUserId: input.recordedByUserId ?? null,
      communicationId: input.communicationId ?? null,
      ...(input.at ? { createdAt: input.at } : {}),
    })
    .returning({ id: consentRecords.id })
  if (!row) throw new Error('consent record not stored')
  return row
}

/** Of `addresses`, those whose newest record on `channel` is an opt-out. */
export async function optedOut(
  tx: Tx,
  channel: MessageChannel,
  addresses: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(addresses)]
  if (unique.length === 0) return new Set()
  const rows = await tx
    .selectDistinctOn([consentRecords.contactAddress], {
      address: consentRecords.contactAddress,
      action: consentRecords.action,
    })
    .from(consentRecords)
    .where(and(eq(consentRecords.channel, channel), inArray(consentRecords.contactAddress, unique)))
    .orderBy(consentRecords.contactAddress, desc(consentRecords.createdAt), desc(sql`ctid`))
  return new Set(rows.filter((r) => r.action === 'opt_out').map((r) => r.address))
}
