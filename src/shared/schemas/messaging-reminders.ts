import { z } from 'zod'
import { messageChannels, reminderStatuses, reminderTypes } from '../messaging'

/* Settings → Notifications, its Pending Reminders card and the Sandbox Outbox (issue 25). */

const hhmm = z
  .string({ message: 'Time must be HH:mm' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'Time must be HH:mm, e.g. 10:00' })

export const notificationSettingsView = z.object({
  emailEnabled: z.boolean(),
  smsEnabled: z.boolean(),
  pushEnabled: z.boolean(),
  appointmentReminders: z.boolean(),
  quietHoursStart: z.string(),
  quietHoursEnd: z.string(),
  followUpDays: z.number(),
})
export type NotificationSettingsView = z.infer<typeof notificationSettingsView>

export const saveNotificationSettingsInput = z.strictObject({
  emailEnabled: z.boolean({ message: 'Must be true or false' }).optional(),
  smsEnabled: z.boolean({ message: 'Must be true or false' }).optional(),
  pushEnabled: z.boolean({ message: 'Must be true or false' }).optional(),
  appointmentReminders: z.boolean({ message: 'Must be true or false' }).optional(),
  quietHoursStart: hhmm.optional(),
  quietHoursEnd: hhmm.optional(),
  followUpDays: z
    .number({ message: 'Follow-up days must be a number' })
    .int({ message: 'Follow-up days must be a whole number' })
    .min(1, { message: 'Follow-up days must be between 1 and 90' })
    .max(90, { message: 'Follow-up days must be between 1 and 90' })
    .optional(),
})
export type SaveNotificationSettingsInput = z.infer<typeof saveNotificationSettingsInput>

/** The quiet-hours window must open before it closes (checked against the stored values too). */
export const QUIET_HOURS_ORDER_MESSAGE = 'Quiet hours must start before they end'

// ---- Reminders ----

export const reminder = z.object({
  /** A stored reminder's uuid, or `follow-up:<leadId>` for a computed lead follow-up. */
  id: z.string(),
  type: z.enum(reminderTypes),
  message: z.string(),
  status: z.enum(reminderStatuses),
  channel: z.enum(messageChannels),
  dueAt: z.string(),
  leadId: z.string().nullable(),
  patientId: z.string().nullable(),
  name: z.string(),
})
export type Reminder = z.infer<typeof reminder>

/** The card shows up to 5 (spec §9). */
export const REMINDERS_PAGE_SIZE = 5

export const remindersQuery = z.strictObject({
  status: z.enum(reminderStatuses, { message: 'Unknown status' }).default('pending'),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(100, { message: 'limit must be at most 100' })
    .default(REMINDERS_PAGE_SIZE),
  offset: z.coerce
    .number({ message: 'offset must be a number' })
    .int({ message: 'offset must be a whole number' })
    .min(0, { message: 'offset must be at least 0' })
    .max(100_000, { message: 'offset is too large' })
    .default(0),
})

export const remindersPage = z.object({ data: z.array(reminder), total: z.number() })
export type RemindersPage = z.infer<typeof remindersPage>

export const reminderIdParam = z.strictObject({
  id: z
    .string()
    .regex(/^(follow-up:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
      message: 'Must be a valid reminder id',
    }),
})

export const reminderSent = z.object({
  id: z.string(),
  status: z.enum(reminderStatuses),
  communicationId: z.string(),
  channel: z.enum(messageChannels),
})

// ---- Sandbox Outbox ----

export const sandboxMessage = z.object({
  id: z.string(),
  channel: z.string(),
  to: z.string().nullable(),
  subject: z.string().nullable(),
  text: z.string(),
  status: z.string(),
  createdAt: z.string(),
  leadId: z.string().nullable(),
  patientId: z.string().nullable(),
})
export const sandboxOutbox = z.object({ messages: z.array(sandboxMessage) })
export type SandboxOutbox = z.infer<typeof sandboxOutbox>
