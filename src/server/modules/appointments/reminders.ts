import { and, eq, sql } from 'drizzle-orm'
import { formatDate, formatTime } from '../../../shared/dates'
import type { MessageChannel } from '../../../shared/messaging'
import type { Tx } from '../../db/client'
import { reminders } from '../../db/schema/messaging'
import { patients } from '../../db/schema/patients'
import { enqueue } from '../../jobs/queue'
import { optedOut } from '../messaging/consent'
import { addressFor } from '../messaging/rules'
import { doctorLabel, type HospitalContext } from './context'

/*
 * Appointment reminders (issue 26): one `reminders` row per (appointment, offset, channel) and
 * one job per row and due time. The job (reminder-job.ts) sends through the messaging outbox.
 */

/** The job that sends one appointment reminder when it is due. */
export const APPOINTMENT_REMINDER_JOB = 'appointments.reminder'
/** Attempts of a reminder job (a database hiccup is retried; refusals are final). */
export const REMINDER_JOB_ATTEMPTS = 5

export interface ReminderJobPayload {
  reminderId: string
  /** The due time this job was enqueued for (ISO): a moved reminder makes the job a no-op. */
  dueAt: string
}

export interface ReminderAppointment {
  id: string
  patientId: string
  startsAt: Date
  serviceType: string
  doctorName: string | null
}

/**
 * The patient's preferred channel: WhatsApp when they have a mobile and have not opted out of
 * it, else SMS (same condition), else email (when they have one and have not opted out), else
 * none (no reminders are scheduled).
 */
export async function preferredChannel(
  tx: Tx,
  patient: { phone: string | null; email: string | null },
): Promise<MessageChannel | null> {
  for (const channel of ['whatsapp', 'sms', 'email'] as const) {
    const target = addressFor(channel, patient)
    if ('skip' in target) continue
    if ((await optedOut(tx, channel, [target.address])).size) continue
    return channel
  }
  return null
}

/** The reminder's text as Pending Reminders shows it and the message carries it. */
export function reminderMessage(
  a: ReminderAppointment & { patientName: string },
  hospital: HospitalContext,
): string {
  const at = `${formatDate(a.startsAt, hospital.timeZone)} at ${formatTime(a.startsAt, hospital.timeZone)}`
  const where = hospital.name ? ` at ${hospital.name}` : ''
  return `Namaste ${a.patientName}, a reminder of your ${a.serviceType} appointment with ${doctorLabel(a.doctorName)}${where} on ${at}. Please arrive 10 minutes early. Reply to reschedule.`
}

/** The offsets to use: whole positive minutes, each once, largest (earliest) first. */
export function offsetsOf(hospital: HospitalContext): number[] {
  return [...new Set(hospital.reminderOffsets)]
    .filter((m) => Number.isInteger(m) && m > 0)
    .sort((a, b) => b - a)
}

/**
 * Schedules the appointment's reminders in the caller's tenant transaction: for each of the
 * hospital's offsets whose time is still ahead, a pending row (an earlier row of the same
 * appointment, offset and channel, also a cancelled or sent one of a rescheduled appointment,
 * becomes pending again at the new time) and a job at that time. Returns the rows' count.
 */
export async function scheduleReminders(
  tx: Tx,
  opts: {
    hospitalId: string
    appointment: ReminderAppointment
    hospital: HospitalContext
    now: Date
  },
): Promise<number> {
  const { appointment: a, hospitalId } = opts
  const [patient] = await tx
    .select({ name: patients.name, phone: patients.phone, email: patients.email })
    .from(patients)
    .where(eq(patients.id, a.patientId))
  if (!patient) return 0
  const channel = await preferredChannel(tx, patient)
  if (!channel) return 0
  const message = reminderMessage({ ...a, patientName: patient.name }, opts.hospital)
  let scheduled = 0
  for (const offset of offsetsOf(opts.hospital)) {
    const dueAt = new Date(a.startsAt.getTime() - offset * 60_000)
    if (dueAt.getTime() <= opts.now.getTime()) continue
    const [row] = await tx
      .insert(reminders)
      .values({
        hospitalId,
        type: 'appointment',
        message,
        status: 'pending',
        channel,
        patientId: a.patientId,
        dueAt,
        appointmentId: a.id,
        offsetMinutes: offset,
      })
      .onConflictDoUpdate({
        target: [
          reminders.hospitalId,
          reminders.appointmentId,
          reminders.offsetMinutes,
          reminders.channel,
        ],
        targetWhere: sql`appointment_id is not null`,
        set: { status: 'pending', dueAt, message, communicationId: null },
      })
      .returning({ id: reminders.id })
    if (!row) continue
    await enqueueReminderJob(tx, hospitalId, row.id, dueAt)
    scheduled++
  }
  return scheduled
}

/** The reminder's job at its due time; its dedupe key is per reminder and due time. */
export function reminderJob(hospitalId: string, reminderId: string, dueAt: Date) {
  const payload: ReminderJobPayload = { reminderId, dueAt: dueAt.toISOString() }
  return {
    name: APPOINTMENT_REMINDER_JOB,
    hospitalId,
    payload,
    runAt: dueAt,
    dedupeKey: `${APPOINTMENT_REMINDER_JOB}:${reminderId}:${dueAt.getTime()}`,
    maxAttempts: REMINDER_JOB_ATTEMPTS,
  }
}

export async function enqueueReminderJob(
  tx: Tx,
  hospitalId: string,
  reminderId: string,
  dueAt: Date,
): Promise<void> {
  await enqueue(tx, reminderJob(hospitalId, reminderId, dueAt))
}

/** Cancels the appointment's pending reminders (their jobs then find them cancelled). */
export async function cancelReminders(tx: Tx, appointmentId: string): Promise<number> {
  const rows = await tx
    .update(reminders)
    .set({ status: 'cancelled' })
    .where(and(eq(reminders.appointmentId, appointmentId), eq(reminders.status, 'pending')))
    .returning({ id: reminders.id })
  return rows.length
}

/**
 * A rescheduled (or re-served) appointment: its pending reminders are cancelled, then scheduled
 * again for the new time; the jobs of the old times find their reminder moved and do nothing.
 */
export async function moveReminders(
  tx: Tx,
  opts: {
    hospitalId: string
    appointment: ReminderAppointment
    hospital: HospitalContext
    now: Date
  },
): Promise<number> {
  await cancelReminders(tx, opts.appointment.id)
  return scheduleReminders(tx, opts)
}
