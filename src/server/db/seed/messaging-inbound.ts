import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm'
import type { Tx } from '../client'
import { communications, leads } from '../schema/leads'
import { reminders } from '../schema/messaging'
import { patients } from '../schema/patients'
import { recordConsent } from '../../modules/messaging/consent'
import { storeInbound } from '../../modules/messaging-webhooks/inbound.service'
import { keywordOf } from '../../modules/messaging-webhooks/keywords'

/**
 * The demo's inbound WhatsApp messages, consents and stored reminders, written through the
 * services production uses (issue 40 items 1 and 20): a reply goes through storeInbound, the
 * function the WhatsApp webhooks call, so the 24-hour window, the bell and opt-outs read it
 * exactly as they read a real one; a consent through recordConsent. Only the times are the
 * demo's own (its history's, relative to now and in the hospital's working hours).
 */

export interface DemoReply {
  hospitalId: string
  phone: string
  text: string
  at: Date
  /** When staff read it; null leaves it unread (the bell counts it). */
  readAt: Date | null
  /** A stable provider message id (a second run would be a duplicate delivery). */
  messageId: string
  profileName?: string | undefined
}

/** Stores one demo reply as the webhook would; the id of its communication (null: dropped). */
export async function storeDemoReply(tx: Tx, r: DemoReply): Promise<string | null> {
  const stored = await storeInbound(tx, {
    hospitalId: r.hospitalId,
    channel: 'whatsapp',
    provider: 'sandbox',
    providerMessageId: r.messageId,
    from: r.phone,
    text: r.text,
    profileName: r.profileName,
    consent: keywordOf(r.text),
    metadata: {},
    receivedAt: r.at,
  })
  if (!stored.stored) return null
  if (r.readAt) {
    await tx
      .update(communications)
      .set({ readAt: r.readAt })
      .where(eq(communications.id, stored.id))
  }
  return stored.id
}

/**
 * The lead seed's WhatsApp replies (lead-messages.ts writes each lead's story in one insert)
 * are stored again through storeInbound, oldest first, keeping their text, time and read
 * state: the same rows a webhook would have written (the sender's number, the provider, the
 * lead's last contact). Only a replied-to demo's rows are touched: inbound WhatsApp of a lead
 * with no provider and no address, which no real path writes.
 */
export async function replayLeadReplies(tx: Tx, hospitalId: string): Promise<number> {
  const rows = await tx
    .select({
      id: communications.id,
      text: communications.content,
      at: communications.createdAt,
      readAt: communications.readAt,
      phone: leads.phone,
    })
    .from(communications)
    .innerJoin(
      leads,
      and(eq(leads.hospitalId, communications.hospitalId), eq(leads.id, communications.leadId)),
    )
    .where(
      and(
        eq(communications.type, 'whatsapp'),
        eq(communications.direction, 'inbound'),
        isNull(communications.provider),
        isNull(communications.contactAddress),
        isNotNull(communications.leadId),
      ),
    )
    .orderBy(asc(communications.createdAt), asc(communications.id))
  let n = 0
  for (const r of rows) {
    await tx.delete(communications).where(eq(communications.id, r.id))
    n += 1
    await storeDemoReply(tx, {
      hospitalId,
      phone: r.phone,
      text: r.text,
      at: r.at,
      readAt: r.readAt,
      messageId: `sbx_lead_reply_${n}`,
    })
  }
  return n
}

/** An opt-in given on the enquiry form (the notice's version), as staff record one. */
export async function recordFormOptIn(
  tx: Tx,
  o: { hospitalId: string; phone: string; at: Date },
): Promise<void> {
  await recordConsent(tx, {
    hospitalId: o.hospitalId,
    channel: 'whatsapp',
    contactAddress: o.phone,
    action: 'opt_in',
    method: 'form',
    noticeVersion: 'messaging-notice-v1',
    at: o.at,
  })
}

/** A staff-recorded opt-out (Settings → consent or the lead's page), as its route records it. */
export async function recordStaffOptOut(
  tx: Tx,
  o: { hospitalId: string; channel: 'sms' | 'email' | 'whatsapp'; address: string; at: Date },
): Promise<void> {
  await recordConsent(tx, {
    hospitalId: o.hospitalId,
    channel: o.channel,
    contactAddress: o.address,
    action: 'opt_out',
    method: 'staff',
    at: o.at,
  })
}

/**
 * Payment reminders for patients with an email address: email is on by default in Settings →
 * Notifications and needs no WhatsApp window, so Send Now can send each of them (appointment
 * reminders come from the appointments demo, scheduled for real visits).
 */
export async function seedPaymentReminders(
  tx: Tx,
  o: { hospitalId: string; now: Date; dueAt: (daysAhead: number) => Date },
): Promise<number> {
  const pts = await tx
    .select({ id: patients.id, name: patients.name })
    .from(patients)
    .where(isNotNull(patients.email))
    .orderBy(asc(patients.createdAt), asc(patients.id))
    .limit(2)
  const plan = [
    {
      inDays: 0,
      text: (n: string) => `Payment reminder for ${n}: ₹1,500 is due for the last consultation.`,
    },
    {
      inDays: 3,
      text: (n: string) => `Payment reminder for ${n}: ₹2,750 for the lab tests is pending.`,
    },
  ]
  const values = pts.flatMap((p, i) => {
    const r = plan[i]
    return r
      ? [
          {
            hospitalId: o.hospitalId,
            type: 'payment' as const,
            message: r.text(p.name),
            channel: 'email' as const,
            patientId: p.id,
            dueAt: o.dueAt(r.inDays),
            createdAt: o.now,
          },
        ]
      : []
  })
  if (values.length) await tx.insert(reminders).values(values)
  return values.length
}
