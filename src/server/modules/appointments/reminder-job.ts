import { and, eq } from 'drizzle-orm'
import type { MessageChannel } from '../../../shared/messaging'
import { activeAppointmentStatuses } from '../../../shared/scheduling'
import type { Tx } from '../../db/client'
import { appointments } from '../../db/schema/appointments'
import { messageTemplates, reminders } from '../../db/schema/messaging'
import { AppError } from '../../http/app-error'
import type { ClaimedJob, JobContext } from '../../jobs/registry'
import { registerHandler } from '../../jobs/registry'
import { queueMessage } from '../messaging/send.service'
import type { HospitalProfile } from '../messaging/rules'
import { readNotifications } from '../messaging-settings/notifications.service'
import { ensureSpecTemplates } from '../messaging-settings/spec-templates'
import { hospitalContext } from './context'
import { APPOINTMENT_REMINDER_JOB, type ReminderJobPayload } from './reminders'

/** What one run of a reminder job did (stored as the job's result). */
export type ReminderJobResult =
  { sent: true; channel: MessageChannel; communicationId: string } | { sent: false; reason: string }

/** The channels to try, the reminder's own first: WhatsApp, then SMS, then email. */
const FALLBACK: Record<MessageChannel, MessageChannel[]> = {
  whatsapp: ['whatsapp', 'sms', 'email'],
  sms: ['sms', 'email'],
  email: ['email'],
}

/** Refusals of one channel that another channel may get past. */
const CHANNEL_REFUSALS = new Set(['OPTED_OUT', 'OUTSIDE_WINDOW', 'VALIDATION', 'NOT_FOUND'])

async function reminderTemplate(tx: Tx, hospitalId: string, channel: MessageChannel) {
  await ensureSpecTemplates(tx, hospitalId)
  const [t] = await tx
    .select({ id: messageTemplates.id })
    .from(messageTemplates)
    .where(
      and(eq(messageTemplates.channel, channel), eq(messageTemplates.key, 'appointment-reminder')),
    )
  return t?.id ?? null
}

const settle = (tx: Tx, id: string, status: 'cancelled' | 'failed') =>
  tx.update(reminders).set({ status }).where(eq(reminders.id, id))

/**
 * Sends one due appointment reminder, in the job's fenced tenant transaction. The reminder
 * row is locked, so two workers (or a retry) send it once: the second finds it sent. Nothing
 * is sent when the reminder was moved (another due time than this job's), cancelled or already
 * sent, when the appointment is no longer scheduled or confirmed or has started, or when
 * Settings → Notifications turns appointment reminders off. The message goes through the
 * outbox (queueMessage: consent, WhatsApp window, no quiet hours for service messages); a
 * channel that refuses (opt-out, closed WhatsApp window, SMS or email off) passes to the next.
 */
export async function sendDueReminder(
  tx: Tx,
  opts: { hospitalId: string; payload: ReminderJobPayload; hospital: HospitalProfile; now: Date },
): Promise<ReminderJobResult> {
  const [r] = await tx
    .select()
    .from(reminders)
    .where(eq(reminders.id, opts.payload.reminderId))
    .for('update')
  if (!r || !r.appointmentId) return { sent: false, reason: 'missing' }
  if (r.status !== 'pending') return { sent: false, reason: r.status }
  if (r.dueAt.toISOString() !== opts.payload.dueAt) return { sent: false, reason: 'moved' }
  const [a] = await tx
    .select({ status: appointments.status, startsAt: appointments.startsAt })
    .from(appointments)
    .where(eq(appointments.id, r.appointmentId))
    .for('share')
  const active = (activeAppointmentStatuses as readonly string[]).includes(a?.status ?? '')
  if (!a || !active || a.startsAt.getTime() <= opts.now.getTime()) {
    await settle(tx, r.id, 'cancelled')
    return { sent: false, reason: a && active ? 'past' : 'appointment closed' }
  }
  const settings = await readNotifications(tx)
  if (!settings.appointmentReminders) {
    await settle(tx, r.id, 'cancelled')
    return { sent: false, reason: 'appointment reminders off' }
  }
  for (const channel of FALLBACK[r.channel]) {
    if (channel === 'sms' && !settings.smsEnabled) continue
    if (channel === 'email' && !settings.emailEnabled) continue
    try {
      const row = await queueMessage(tx, {
        hospitalId: opts.hospitalId,
        userId: null,
        patientId: r.patientId,
        leadId: r.patientId ? null : r.leadId,
        channel,
        content: r.message,
        subject: channel === 'email' ? 'Reminder: your appointment at {clinic}' : null,
        templateId:
          channel === 'whatsapp' ? await reminderTemplate(tx, opts.hospitalId, channel) : null,
        reminderId: r.id,
        hospital: opts.hospital,
      })
      await tx
        .update(reminders)
        .set({ status: 'sent', communicationId: row.id })
        .where(eq(reminders.id, r.id))
      return { sent: true, channel, communicationId: row.id }
    } catch (error) {
      if (error instanceof AppError && CHANNEL_REFUSALS.has(error.code)) continue
      throw error
    }
  }
  await settle(tx, r.id, 'failed')
  return { sent: false, reason: 'no channel' }
}

async function reminderJob(job: ClaimedJob, ctx: JobContext): Promise<ReminderJobResult> {
  const payload = job.payload as Partial<ReminderJobPayload>
  if (
    !job.hospitalId ||
    typeof payload.reminderId !== 'string' ||
    typeof payload.dueAt !== 'string'
  )
    return { sent: false, reason: 'bad payload' }
  const hospitalId = job.hospitalId
  const { name, timeZone } = await hospitalContext(ctx.db, hospitalId)
  return ctx.withTenant((tx) =>
    sendDueReminder(tx, {
      hospitalId,
      payload: { reminderId: payload.reminderId as string, dueAt: payload.dueAt as string },
      hospital: { name, timeZone },
      now: new Date(),
    }),
  )
}

let registered = false

/** Registers the reminder job's handler once per process (buildApp and all-jobs both call it). */
export function registerAppointmentJobs(): void {
  if (registered) return
  registered = true
  registerHandler(APPOINTMENT_REMINDER_JOB, reminderJob)
}
