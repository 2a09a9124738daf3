import { and, eq, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { communications, leads } from '../../db/schema/leads'
import { messageTemplates } from '../../db/schema/messaging'
import { patients } from '../../db/schema/patients'
import type { OutboundMessage, TemplateRef } from '../../integrations/messaging/provider'
import { revealBookingCode } from '../booking/booking-code'
import type { CommunicationRow } from '../leads/leads.rows'
import { notifyMessage } from './notify'
import { dltPattern, opensConversation, type TemplateRow } from './rules'
import { fillValues } from './send.service'
import { advanceStatus, type StatusChange } from './status'

/**
 * The send job's reads and writes (send-job.ts), each inside the job's fenced tenant
 * transaction: the message with what its provider needs, its hand-over ('sending'), and its
 * outcome, each announced on the 'messaging' channel.
 */
export interface SendState {
  row: CommunicationRow
  template: TemplateRow | null
  contactName: string
}

export async function loadForSend(tx: Tx, id: string): Promise<SendState | null> {
  const [row] = await tx.select().from(communications).where(eq(communications.id, id))
  if (!row || row.direction !== 'outbound' || !row.contactAddress) return null
  const [template] = row.templateId
    ? await tx.select().from(messageTemplates).where(eq(messageTemplates.id, row.templateId))
    : []
  const [person] = row.patientId
    ? await tx.select({ name: patients.name }).from(patients).where(eq(patients.id, row.patientId))
    : row.leadId
      ? await tx.select({ name: leads.name }).from(leads).where(eq(leads.id, row.leadId))
      : []
  return { row, template: template ?? null, contactName: person?.name ?? '' }
}

/** Moves a held message's send_after (quiet hours found at send time, in the hospital's zone). */
export async function holdUntil(tx: Tx, row: CommunicationRow, at: Date): Promise<void> {
  await tx
    .update(communications)
    .set({ sendAfter: at })
    .where(and(eq(communications.id, row.id), eq(communications.status, 'queued')))
}

/** What the provider is asked to send. */
export function outboundMessage(
  state: SendState,
  options: { hospitalName: string; statusCallbackUrl: string },
): OutboundMessage {
  const { row } = state
  const channel = row.type as OutboundMessage['channel']
  const subject = typeof row.metadata.subject === 'string' ? row.metadata.subject : undefined
  return {
    channel,
    to: row.contactAddress ?? '',
    idempotencyKey: row.id,
    // A booking code is stored masked; only the provider gets it (booking-code.ts).
    text: revealBookingCode(row),
    ...(channel === 'email' ? { subject } : {}),
    template: templateRef(state, options.hospitalName),
    statusCallbackUrl: options.statusCallbackUrl,
  }
}

function templateRef(state: SendState, hospital: string): TemplateRef | undefined {
  const t = state.template
  if (!t) return undefined
  const values = fillValues(state.contactName, hospital)
  const variables = t.variables.map((name) => values[name] ?? '')
  if (t.channel === 'whatsapp' && opensConversation(t, state.row.provider ?? 'sandbox')) {
    return {
      name: t.providerTemplateName ?? undefined,
      contentSid: t.contentSid ?? undefined,
      language: t.language,
      variables,
      category: t.category,
    }
  }
  if (t.channel === 'sms' && t.dltTemplateId) {
    return {
      language: t.language,
      variables,
      category: t.category,
      dltTemplateId: t.dltTemplateId,
      dltBody: dltPattern(t.body),
    }
  }
  return undefined
}

async function announce(
  tx: Tx,
  row: { id: string; leadId: string | null; patientId: string | null; hospitalId: string },
  status: string,
  failureReason: string | null = null,
) {
  await notifyMessage(tx, {
    hospitalId: row.hospitalId,
    id: row.id,
    leadId: row.leadId,
    patientId: row.patientId,
    status,
    failureReason,
    direction: 'outbound',
  })
}

/**
 * queued → sending, recording who really carries it (a provider missing a required field is
 * the sandbox). False when the row is no longer queued (another attempt moved it).
 */
export async function markSending(
  tx: Tx,
  row: CommunicationRow,
  provider: { name: CommunicationRow['provider'] },
): Promise<Date | null> {
  const [moved] = await tx
    .update(communications)
    .set({
      status: 'sending',
      statusChangedAt: sql`clock_timestamp()`,
      provider: provider.name,
      sandbox: provider.name === 'sandbox',
    })
    .where(and(eq(communications.id, row.id), eq(communications.status, 'queued')))
    .returning({ at: communications.statusChangedAt })
  if (!moved) return null
  await announce(tx, row, 'sending')
  return moved.at ?? new Date()
}

/**
 * sending → queued after a failure that proves the provider never took the message (it was
 * unreachable, or answered 429/5xx): the next attempt sends without a look-up.
 */
export async function backToQueued(tx: Tx, row: CommunicationRow): Promise<void> {
  await tx
    .update(communications)
    .set({ status: 'queued', statusChangedAt: new Date() })
    .where(and(eq(communications.id, row.id), eq(communications.status, 'sending')))
}

/** A forward status change (status.ts) with its announcement; false when nothing moved. */
export async function recordOutcome(
  tx: Tx,
  row: CommunicationRow,
  change: StatusChange,
): Promise<boolean> {
  const moved = await advanceStatus(tx, { id: row.id }, change)
  if (!moved && change.providerMessageId) {
    // A status callback got there first: keep the provider's id all the same.
    await tx
      .update(communications)
      .set({ providerMessageId: change.providerMessageId })
      .where(and(eq(communications.id, row.id), sql`${communications.providerMessageId} is null`))
  }
  if (moved) await announce(tx, row, change.status, change.failureReason ?? null)
  return Boolean(moved)
}
