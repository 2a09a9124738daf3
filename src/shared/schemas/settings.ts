import { z } from 'zod'
import { currencies } from '../currency'
import { normalizePhone } from '../phone'
import { hospitalSettingsShape } from './hospital-settings'
import { saveNotificationSettingsInput } from './messaging-reminders'

/*
 * Settings' one save model (issue 27): GET /api/settings (any member) and PUT /api/settings
 * (hospital:manage). The body is sectioned; every section and every key in it is optional (a
 * partial save changes only what is sent), and unknown keys are refused with a 400. The same
 * schema drives the Settings form. Where each section is kept:
 * - general: the `hospitals` row (with GET/PATCH /api/hospital/settings' rules) and
 *   hospital_settings.region;
 * - leadManagement: lead_settings;
 * - notifications: notification_settings (the messaging issue's toggles and quiet hours);
 * - security and data: hospital_settings (drizzle/0024).
 */

export const regions = [
  'India',
  'United States',
  'United Kingdom',
  'United Arab Emirates',
  'Singapore',
  'Australia',
  'Canada',
  'Other',
] as const

/** The spec's four US zones (§2 Settings → General), listed beside India's. */
export const usTimeZones = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
] as const

const bool = z.boolean({ message: 'Must be true or false' })
const whole = (label: string, min: number, max: number) =>
  z
    .number({ message: `${label} must be a number` })
    .int({ message: `${label} must be a whole number` })
    .min(min, { message: `${label} must be between ${min} and ${max}` })
    .max(max, { message: `${label} must be between ${min} and ${max}` })

const PHONE_MESSAGE = 'Enter a valid phone number, e.g. 020 2550 1234'
const EMAIL_MESSAGE = 'Enter a valid email address, e.g. contact@clinic.in'

const hospitalPhone = z
  .string({ message: PHONE_MESSAGE })
  .trim()
  .max(32, { message: PHONE_MESSAGE })
  .transform((value, ctx) => {
    if (value === '') return null
    const e164 = normalizePhone(value)
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: PHONE_MESSAGE })
      return z.NEVER
    }
    return e164
  })
  .nullable()

/** The spec's General fields beyond issue 26's (name, zone, GST, UPI, prefix, hours...). */
export const generalShape = {
  ...hospitalSettingsShape,
  currency: z
    .string({ message: 'Choose a currency' })
    .refine((c) => currencies.some((x) => x.code === c), {
      message: 'Choose a currency from the list',
    }),
  region: z.enum(regions, { message: 'Choose a region from the list' }),
  address: z
    .string({ message: 'Must be text' })
    .trim()
    .max(500, { message: 'Address must be at most 500 characters' })
    .transform((v) => (v === '' ? null : v))
    .nullable(),
  phone: hospitalPhone,
  email: z
    .string({ message: EMAIL_MESSAGE })
    .trim()
    .max(254, { message: EMAIL_MESSAGE })
    .pipe(z.email({ message: EMAIL_MESSAGE }))
    .transform((v) => v.toLowerCase()),
}

export const leadManagementShape = {
  autoAssignLeads: bool,
  priorityScoring: bool,
  followUpDays: whole('Follow-up reminder days', 1, 90),
  maxContactAttempts: whole('Max contact attempts', 1, 20),
}

const notificationInput = saveNotificationSettingsInput.shape
export const notificationsShape = {
  emailEnabled: bool,
  smsEnabled: bool,
  pushEnabled: bool,
  appointmentReminders: bool,
  quietHoursStart: notificationInput.quietHoursStart.unwrap(),
  quietHoursEnd: notificationInput.quietHoursEnd.unwrap(),
}

export const securityShape = {
  requireTwoFactor: bool,
  sessionTimeout: bool,
  sessionHours: whole('Session duration', 1, 72),
}

export const dataShape = {
  autoBackups: bool,
  backupRetentionDays: whole('Backup retention', 1, 365),
}

const GSTIN_STATE_MESSAGE = 'The GSTIN’s first 2 digits must be the state code'

/** PUT /api/settings: any sections, any keys in them; nothing unknown. */
export const saveSettingsInput = z
  .strictObject(
    {
      general: z.strictObject(generalShape).partial().optional(),
      leadManagement: z.strictObject(leadManagementShape).partial().optional(),
      notifications: z.strictObject(notificationsShape).partial().optional(),
      security: z.strictObject(securityShape).partial().optional(),
      data: z.strictObject(dataShape).partial().optional(),
    },
    { message: 'Send the settings as an object of sections' },
  )
  .superRefine((v, ctx) => {
    const g = v.general
    if (g?.gstin && g.stateCode && g.gstin.slice(0, 2) !== g.stateCode) {
      ctx.addIssue({ code: 'custom', path: ['general', 'gstin'], message: GSTIN_STATE_MESSAGE })
    }
  })
export type SaveSettingsInput = z.infer<typeof saveSettingsInput>
export type SaveSettingsFormInput = z.input<typeof saveSettingsInput>

/** The whole Settings form: every key of every section present. */
export const settingsForm = z
  .strictObject({
    general: z.strictObject(generalShape),
    leadManagement: z.strictObject(leadManagementShape),
    notifications: z.strictObject(notificationsShape),
    security: z.strictObject(securityShape),
    data: z.strictObject(dataShape),
  })
  .superRefine((v, ctx) => {
    const g = v.general
    if (g.gstin && g.stateCode && g.gstin.slice(0, 2) !== g.stateCode) {
      ctx.addIssue({ code: 'custom', path: ['general', 'gstin'], message: GSTIN_STATE_MESSAGE })
    }
  })
export type SettingsFormInput = z.input<typeof settingsForm>
export type SettingsFormOutput = z.output<typeof settingsForm>

/** GET /api/settings and PUT's answer: every section, stored values or the defaults. */
export interface Settings {
  general: {
    name: string
    timeZone: string
    slug: string
    gstin: string | null
    stateCode: string | null
    upiId: string | null
    invoicePrefix: string
    workingHours: z.output<typeof hospitalSettingsShape.workingHours>
    reminderOffsets: number[]
    grievanceName: string | null
    grievanceEmail: string | null
    currency: string
    region: string
    address: string | null
    phone: string | null
    email: string
  }
  leadManagement: {
    autoAssignLeads: boolean
    priorityScoring: boolean
    followUpDays: number
    maxContactAttempts: number
  }
  notifications: {
    emailEnabled: boolean
    smsEnabled: boolean
    pushEnabled: boolean
    appointmentReminders: boolean
    quietHoursStart: string
    quietHoursEnd: string
  }
  security: { requireTwoFactor: boolean; sessionTimeout: boolean; sessionHours: number }
  data: { autoBackups: boolean; backupRetentionDays: number }
}

/** Spec §9's lead-management defaults (a hospital without a lead_settings row). */
export const leadManagementDefaults = {
  autoAssignLeads: false,
  priorityScoring: true,
  followUpDays: 3,
  maxContactAttempts: 5,
} as const
