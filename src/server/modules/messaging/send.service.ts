import type { MessageChannel } from '../../../shared/messaging'
import { fillTemplate, matchesDltTemplate } from '../../../shared/message-text'
import { EMPTY_MESSAGE } from '../../../shared/schemas/messaging-send'
import type { Tx } from '../../db/client'
import { reminders } from '../../db/schema/messaging'
import { AppError } from '../../http/app-error'
import { enqueue } from '../../jobs/queue'
import { recordAudit } from '../audit/audit.service'
import { touchLeads } from '../leads/communications.service'
import { type CommunicationRow, insertCommunication } from '../leads/leads.rows'
import { optedOut } from './consent'
import { notifyMessage } from './notify'
import { heldByQuietHours, nextOpening } from './quiet-hours'
import {
  addressError,
  addressFor,
  channelLabels,
  DLT_MISMATCH,
  dltPattern,
  findContact,
  type Contact,
  findTemplate,
  type HospitalProfile,
  hospitalSending,
  lastInboundWhatsapp,
  OUTSIDE_WINDOW_MESSAGE,
  opensConversation,
  optedOutMessage,
  type TemplateRow,
} from './rules'
import { eq } from 'drizzle-orm'

/** The job that hands one queued message to its provider (send-job.ts). */
export const SEND_JOB = 'messaging.send'
/** Attempts of a send before a temporary failure (429, 5xx, network) is final. */
export const SEND_ATTEMPTS = 6

export interface QueueMessageInput {
  hospitalId: string
  userId: string | null
  impersonatorUserId?: string | null | undefined
  leadId?: string | null | undefined
  patientId?: string | null | undefined
  channel: MessageChannel
  content: string
  subject?: string | null | undefined
  templateId?: string | null | undefined
  batchId?: string | null | undefined
  reminderId?: string | null | undefined
  /**
   * A transactional message (a booking page's one-time code) to someone who is neither a lead
   * nor a patient yet: the name and address to use instead of leadId/patientId, and the booking
   * hold it is for. Such a message is never held for quiet hours and needs no WhatsApp window on
   * the sandbox, but opt-outs still apply.
   */
  to?: TransactionalRecipient | undefined
  /**
   * The hospital's name and time zone (hospitalProfile, read before the tenant transaction).
   * Without it quiet hours are reckoned in India's time and the send job checks them again in
   * the hospital's own zone before sending.
   */
  hospital?: HospitalProfile | undefined
  /** Staff's own metadata (the server adds template and subject). */
  metadata?: Record<string, string | number | boolean> | undefined
}

export interface TransactionalRecipient {
  name: string
  /** E.164 phone (WhatsApp, SMS) or email. */
  address: string
  bookingHoldId: string
}

/** The contact of a transactional message: its own name and address, no lead or patient. */
function recipientContact(to: TransactionalRecipient, channel: MessageChannel): Contact {
  const address = to.address.trim()
  return {
    leadId: null,
    patientId: null,
    leadStatus: null,
    name: to.name,
    phone: channel === 'email' ? null : address,
    email: channel === 'email' ? address : null,
  }
}

/** The values a message's {placeholders} are filled with. */
export const fillValues = (name: string, hospitalName: string): Record<string, string> => ({
  name,
  clinic: hospitalName,
  hospital: hospitalName,
})

/** The template's name as Communication History shows it (the spec's metadata.template). */
export const templateLabel = (template: TemplateRow | null): string =>
  template ? (template.key ?? template.name) : 'custom'

/**
 * Queues one message inside the caller's tenant transaction (the outbox): checks the rules,
 * writes the communication `queued` and enqueues its send job, both committing or neither.
 * Refusals are AppErrors: 404 (contact, template), 400 (empty, no address, invalid number, DLT
 * mismatch), 409 OPTED_OUT and OUTSIDE_WINDOW. Promotional messages get send_after = the next
 * opening of the hospital's day window, and their job runs then.
 */
export async function queueMessage(tx: Tx, input: QueueMessageInput): Promise<CommunicationRow> {
  const { channel } = input
  const contact = input.to ? recipientContact(input.to, channel) : await findContact(tx, input)
  const template = input.templateId ? await findTemplate(tx, input.templateId, channel) : null
  const sending = await hospitalSending(tx, input.hospital)
  const raw = input.content.trim() || template?.body || ''
  if (!raw.trim()) {
    throw new AppError('VALIDATION', EMPTY_MESSAGE, [{ path: 'content', message: EMPTY_MESSAGE }])
  }
  const content = fillTemplate(raw, fillValues(contact.name, sending.hospitalName))
  const target = addressFor(channel, contact)
  if ('skip' in target) throw addressError(target.skip, channel)
  const address = target.address
  if ((await optedOut(tx, channel, [address])).has(address)) {
    throw new AppError('OPTED_OUT', optedOutMessage(channel))
  }
  const provider = sending.providers[channel]
  const transactionalSandbox = Boolean(input.to) && provider === 'sandbox'
  if (
    channel === 'whatsapp' &&
    !opensConversation(template, sending.providers.whatsapp) &&
    !transactionalSandbox
  ) {
    const inbound = await lastInboundWhatsapp(tx, [address])
    if (!inbound.has(address)) throw new AppError('OUTSIDE_WINDOW', OUTSIDE_WINDOW_MESSAGE)
  }
  if (
    channel === 'sms' &&
    provider === 'msg91' &&
    template?.dltTemplateId &&
    !matchesDltTemplate(dltPattern(template.body), content)
  ) {
    throw new AppError('VALIDATION', DLT_MISMATCH, [{ path: 'content', message: DLT_MISMATCH }])
  }
  const sendAfter =
    !input.to && heldByQuietHours(channel, template?.category)
      ? nextOpening(new Date(), sending.window)
      : null
  const subject =
    channel === 'email'
      ? input.subject?.trim() || template?.subject || `Message from ${sending.hospitalName}`
      : null
  const row = await insertCommunication(tx, {
    hospitalId: input.hospitalId,
    leadId: contact.leadId,
    patientId: contact.patientId,
    type: channel,
    direction: 'outbound',
    content,
    status: 'queued',
    metadata: {
      ...input.metadata,
      template: templateLabel(template),
      ...(subject
        ? { subject: fillTemplate(subject, fillValues(contact.name, sending.hospitalName)) }
        : {}),
      ...(input.reminderId ? { reminderId: input.reminderId } : {}),
    },
    createdByUserId: input.userId,
    contactAddress: address,
    provider: provider as CommunicationRow['provider'],
    sandbox: provider === 'sandbox',
    templateId: template?.id ?? null,
    batchId: input.batchId ?? null,
    sendAfter,
    statusChangedAt: new Date(),
    bookingHoldId: input.to?.bookingHoldId ?? null,
  })
  await enqueue(tx, {
    name: SEND_JOB,
    hospitalId: input.hospitalId,
    payload: { id: row.id },
    ...(sendAfter ? { runAt: sendAfter } : {}),
    dedupeKey: `${SEND_JOB}:${row.id}`,
    maxAttempts: SEND_ATTEMPTS,
  })
  if (input.reminderId) {
    await tx
      .update(reminders)
      .set({ communicationId: row.id })
      .where(eq(reminders.id, input.reminderId))
  }
  if (contact.leadId) await touchLeads(tx, [contact.leadId], channel, 'outbound')
  await recordAudit(tx, {
    hospitalId: input.hospitalId,
    actorUserId: input.userId,
    impersonatorUserId: input.impersonatorUserId,
    action: 'message.queued',
    ...auditSubject(contact, input.to),
    summary: `Queued ${channel === 'whatsapp' ? 'a' : 'an'} ${channelLabels[channel]} message to ${contact.name}${sendAfter ? ' (held for quiet hours)' : ''}`,
  })
  await notifyMessage(tx, {
    hospitalId: input.hospitalId,
    id: row.id,
    leadId: row.leadId,
    patientId: row.patientId,
    status: row.status,
    failureReason: null,
    direction: 'outbound',
  })
  return row
}

/** What a queued message's audit row is about: the booking hold, the lead or the patient. */
function auditSubject(contact: Contact, to: TransactionalRecipient | undefined) {
  if (to) return { entityType: 'booking_hold', entityId: to.bookingHoldId }
  return contact.leadId && !contact.patientId
    ? { entityType: 'lead', entityId: contact.leadId }
    : { entityType: 'patient', entityId: contact.patientId }
}
