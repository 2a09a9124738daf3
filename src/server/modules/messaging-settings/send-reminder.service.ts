import { and, eq } from 'drizzle-orm'
import type { MessageChannel, SpecTemplateKey } from '../../../shared/messaging'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { messageTemplates, reminders } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { optedOut } from '../messaging/consent'
import {
  addressFor,
  lastInboundWhatsapp,
  opensConversation,
  whatsappProviderOf,
} from '../messaging/rules'
import { queueMessage } from '../messaging/send.service'
import { timeZoneOf } from '../leads/leads.stats'
import { readNotifications } from './notifications.service'
import { dueFollowUps, FOLLOW_UP_PREFIX, type ReminderOptions } from './reminders.service'
import { ensureSpecTemplates } from './spec-templates'

export const ALREADY_SENT = 'This reminder was already sent.'
export const NOT_DUE =
  'This follow-up is no longer due: the lead was contacted, converted or rejected.'
export const SMS_OFF = 'SMS reminders are off in Settings → Notifications.'
export const APPOINTMENT_REMINDERS_OFF =
  'Appointment reminders are off in Settings → Notifications.'
export const NO_CHANNEL =
  'No channel can reach this lead now: WhatsApp needs a reply in the last 24 hours or an approved template, SMS is off in Settings → Notifications, and there is no email address (or they opted out).'

export interface ReminderSent {
  id: string
  status: 'sent'
  communicationId: string
  channel: MessageChannel
}

async function specTemplate(
  tx: Tx,
  hospitalId: string,
  channel: MessageChannel,
  key: SpecTemplateKey = 'follow-up',
) {
  await ensureSpecTemplates(tx, hospitalId)
  const [t] = await tx
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.channel, channel), eq(messageTemplates.key, key)))
  return t ?? null
}

/** The spec template a stored reminder goes with on WhatsApp (as the reminder job sends it). */
const reminderTemplateKeys: Partial<Record<string, SpecTemplateKey>> = {
  appointment: 'appointment-reminder',
  follow_up: 'follow-up',
}

/**
 * The lead's best channel for a follow-up: WhatsApp when its 24-hour window is open or the
 * hospital's follow-up template is approved to open one; else SMS when SMS is on in the
 * notification settings; else email. A channel the lead opted out of, or has no address for,
 * is passed over.
 */
async function bestChannel(
  tx: Tx,
  hospitalId: string,
  lead: { phone: string; email: string | null },
) {
  const settings = await readNotifications(tx)
  const provider = await whatsappProviderOf(tx)
  for (const channel of ['whatsapp', 'sms', 'email'] as const) {
    if (channel === 'sms' && !settings.smsEnabled) continue
    if (channel === 'email' && !settings.emailEnabled) continue
    const target = addressFor(channel, lead)
    if ('skip' in target) continue
    if ((await optedOut(tx, channel, [target.address])).size) continue
    const template = await specTemplate(tx, hospitalId, channel)
    if (channel === 'whatsapp') {
      const open = (await lastInboundWhatsapp(tx, [target.address])).has(target.address)
      if (!open && !opensConversation(template, provider)) continue
    }
    return { channel, template }
  }
  throw new AppError('CONFLICT', NO_CHANNEL)
}

async function sendFollowUp(tx: Tx, opts: ReminderOptions, leadId: string, tz: string) {
  const [lead] = await tx
    .select({ id: leads.id, phone: leads.phone, email: leads.email })
    .from(leads)
    .where(eq(leads.id, leadId))
    .for('update')
  if (!lead) throw notFound('Reminder')
  const [due] = await tx
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.id, leadId), dueFollowUps(tz).where))
  if (!due) throw new AppError('CONFLICT', NOT_DUE)
  const { channel, template } = await bestChannel(tx, opts.hospitalId, lead)
  const row = await queueMessage(tx, {
    hospitalId: opts.hospitalId,
    userId: opts.userId,
    impersonatorUserId: opts.impersonatorUserId,
    leadId,
    channel,
    content: '',
    templateId: template?.id ?? null,
  })
  return {
    id: `${FOLLOW_UP_PREFIX}${leadId}`,
    status: 'sent' as const,
    communicationId: row.id,
    channel,
  }
}

async function storedTemplateId(
  tx: Tx,
  hospitalId: string,
  r: { channel: MessageChannel; type: string },
): Promise<string | null> {
  const key = reminderTemplateKeys[r.type]
  if (r.channel !== 'whatsapp' || !key) return null
  return (await specTemplate(tx, hospitalId, 'whatsapp', key))?.id ?? null
}

async function sendStored(tx: Tx, opts: ReminderOptions, id: string): Promise<ReminderSent> {
  const [r] = await tx.select().from(reminders).where(eq(reminders.id, id)).for('update')
  if (!r) throw notFound('Reminder')
  if (r.status !== 'pending') throw new AppError('CONFLICT', ALREADY_SENT)
  const settings = await readNotifications(tx)
  if (r.channel === 'sms' && !settings.smsEnabled) throw new AppError('CONFLICT', SMS_OFF)
  if (r.type === 'appointment' && !settings.appointmentReminders) {
    throw new AppError('CONFLICT', APPOINTMENT_REMINDERS_OFF)
  }
  const row = await queueMessage(tx, {
    hospitalId: opts.hospitalId,
    userId: opts.userId,
    impersonatorUserId: opts.impersonatorUserId,
    ...(r.patientId ? { patientId: r.patientId } : { leadId: r.leadId }),
    channel: r.channel,
    content: r.message,
    // WhatsApp outside the 24-hour window needs the approved template, as the reminder job uses.
    templateId: await storedTemplateId(tx, opts.hospitalId, r),
    reminderId: r.id,
  })
  await tx
    .update(reminders)
    .set({ status: 'sent', communicationId: row.id })
    .where(eq(reminders.id, r.id))
  return { id: r.id, status: 'sent', communicationId: row.id, channel: r.channel }
}

/**
 * POST /api/reminders/:id/send: queues the reminder now through the send pipeline
 * (queueMessage: consent, the WhatsApp window, quiet hours, the outbox) and marks a stored one
 * sent with its message. 404 for another hospital's; 409 when already sent or no longer due,
 * or when Settings → Notifications turns that kind of reminder off.
 */
export async function sendReminder(opts: ReminderOptions & { id: string }): Promise<ReminderSent> {
  const tz = opts.id.startsWith(FOLLOW_UP_PREFIX) ? await timeZoneOf(opts.db, opts.hospitalId) : ''
  return withTenant(opts.db, opts, (tx) =>
    opts.id.startsWith(FOLLOW_UP_PREFIX)
      ? sendFollowUp(tx, opts, opts.id.slice(FOLLOW_UP_PREFIX.length), tz)
      : sendStored(tx, opts, opts.id),
  )
}
