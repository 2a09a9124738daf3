import { and, desc, eq, sql } from 'drizzle-orm'
import { formatPhone, normalizePhone } from '../../../shared/phone'
import type { Tx } from '../../db/client'
import { communications, leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { recordAudit } from '../audit/audit.service'
import { recordConsent } from '../messaging/consent'
import { notifyMessage } from '../messaging/notify'
import type { KeywordResult } from './keywords'
import { autoAssign, newLeadPriority, readLeadPolicy } from '../leads/lead-intake'

/** An inbound WhatsApp or SMS message, as a provider's webhook delivered it. */
export interface InboundMessage {
  hospitalId: string
  channel: 'whatsapp' | 'sms'
  /** 'sandbox': a reply written into the demo (seed/messaging.ts) through this same path. */
  provider: 'twilio' | 'meta' | 'sandbox'
  providerMessageId: string
  /** The sender as the provider wrote it ('+9198…', '9198…', 'whatsapp:+9198…'). */
  from: string
  text: string
  /** WhatsApp profile name: a new lead's name. */
  profileName?: string | undefined
  /** An opt-out/opt-in the message asks for (keyword or button). */
  consent: KeywordResult | null
  metadata: Record<string, unknown>
  /** When the provider received it (a webhook: now; the demo seed: its history's time). */
  receivedAt?: Date | undefined
}

/** The sender's number, E.164; null when it is not a phone number at all. */
export function senderPhone(from: string): string | null {
  const raw = from.replace(/^whatsapp:/i, '').trim()
  const normalised = normalizePhone(raw.startsWith('+') ? raw : `+${raw}`)
  if (normalised) return normalised
  // A valid-looking international number libphonenumber does not know yet: kept as sent.
  const digits = raw.replace(/^\+/, '')
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null
}

interface Person {
  leadId: string | null
  patientId: string | null
}

/**
 * The lead with this phone (one per phone and hospital; with its patient after a conversion),
 * else the newest patient with it, else a new lead (source 'manual', named after the WhatsApp
 * profile or the number) so that no reply is lost.
 */
async function personOf(tx: Tx, message: InboundMessage, phone: string): Promise<Person> {
  const [lead] = await tx
    .select({ id: leads.id, patientId: leads.patientId })
    .from(leads)
    .where(eq(leads.phone, phone))
    .orderBy(desc(leads.createdAt))
    .limit(1)
  if (lead) return { leadId: lead.id, patientId: lead.patientId }
  const [patient] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.phone, phone))
    .orderBy(desc(patients.createdAt))
    .limit(1)
  if (patient) return { leadId: null, patientId: patient.id }
  const name = message.profileName?.trim().slice(0, 200) || formatPhone(phone)
  const via = message.channel === 'whatsapp' ? 'WhatsApp' : 'SMS'
  const policy = await readLeadPolicy(tx)
  const [created] = await tx
    .insert(leads)
    .values({
      hospitalId: message.hospitalId,
      name,
      phone,
      source: 'manual',
      priority: newLeadPriority(policy, null, {
        source: 'manual',
        serviceInterest: null,
        enquiredAt: null,
      }),
      notes: `First contact: an inbound ${via} message.`,
    })
    .onConflictDoNothing({ target: [leads.hospitalId, leads.phone] })
    .returning({ id: leads.id, name: leads.name })
  if (!created) {
    // A concurrent delivery from the same number created it first.
    const [other] = await tx
      .select({ id: leads.id, patientId: leads.patientId })
      .from(leads)
      .where(eq(leads.phone, phone))
    if (!other) throw new Error('inbound: lead vanished')
    return { leadId: other.id, patientId: other.patientId }
  }
  if (policy.autoAssignLeads) await autoAssign(tx, message.hospitalId, [created.id])
  await recordAudit(tx, {
    hospitalId: message.hospitalId,
    actorUserId: null,
    action: 'lead.created',
    entityType: 'lead',
    entityId: created.id,
    summary: `Added lead ${created.name} from an inbound ${via} message from an unknown number`,
  })
  return { leadId: created.id, patientId: null }
}

export type InboundResult =
  | { stored: true; id: string; leadId: string | null; patientId: string | null }
  | { stored: false; reason: 'duplicate' | 'bad-sender' }

/**
 * Stores an inbound message in the caller's tenant transaction: a communication (inbound,
 * received, unread) of the sender's lead or patient; a keyword or button records the consent;
 * every instance hears of it (NOTIFY). A second delivery of the same provider message id is
 * dropped.
 */
export async function storeInbound(tx: Tx, message: InboundMessage): Promise<InboundResult> {
  const phone = senderPhone(message.from)
  if (!phone) return { stored: false, reason: 'bad-sender' }
  const [seen] = await tx
    .select({ id: communications.id })
    .from(communications)
    .where(
      and(
        eq(communications.provider, message.provider),
        eq(communications.providerMessageId, message.providerMessageId),
      ),
    )
  if (seen) return { stored: false, reason: 'duplicate' }
  const person = await personOf(tx, message, phone)
  // A webhook's message is stored at the database's now(); the seed's at its history's time.
  const at = message.receivedAt
  const [row] = await tx
    .insert(communications)
    .values({
      hospitalId: message.hospitalId,
      leadId: person.leadId,
      patientId: person.patientId,
      type: message.channel,
      direction: 'inbound',
      content: message.text,
      status: 'received',
      metadata: message.metadata,
      createdByUserId: null,
      contactAddress: phone,
      provider: message.provider,
      providerMessageId: message.providerMessageId,
      sandbox: message.provider === 'sandbox',
      ...(at ? { createdAt: at } : {}),
      statusChangedAt: at ?? new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: communications.id })
  if (!row) return { stored: false, reason: 'duplicate' }
  if (person.leadId) {
    await tx
      .update(leads)
      .set({
        lastContactAt: at
          ? sql`greatest(${leads.lastContactAt}, ${at.toISOString()}::timestamptz)`
          : sql`greatest(${leads.lastContactAt}, now())`,
        updatedAt: new Date(),
      })
      .where(eq(leads.id, person.leadId))
  }
  if (message.consent) {
    await recordConsent(tx, {
      hospitalId: message.hospitalId,
      channel: message.channel,
      contactAddress: phone,
      action: message.consent.action,
      method: message.consent.method,
      communicationId: row.id,
      at,
    })
  }
  await notifyMessage(tx, {
    hospitalId: message.hospitalId,
    id: row.id,
    leadId: person.leadId,
    patientId: person.patientId,
    status: 'received',
    failureReason: null,
    direction: 'inbound',
  })
  return { stored: true, id: row.id, ...person }
}
