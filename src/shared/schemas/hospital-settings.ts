import { z } from 'zod'
import { GSTIN_PATTERN, gstinCheckCharacter, isGstStateCode } from '../gst-states'
import type { WorkingHours } from '../scheduling'

/*
 * Settings → General (issue 26): the hospital's name, time zone, booking link, GST details,
 * UPI id, invoice prefix, working hours and reminder offsets, and the booking page card.
 * GET /api/hospital/settings (members), PATCH /api/hospital/settings (hospital:manage),
 * GET/PUT /api/settings/booking. The form uses these schemas too.
 */

export const weekdays = ['0', '1', '2', '3', '4', '5', '6'] as const
export type Weekday = (typeof weekdays)[number]
export const weekdayNames: Record<Weekday, string> = {
  '0': 'Sunday',
  '1': 'Monday',
  '2': 'Tuesday',
  '3': 'Wednesday',
  '4': 'Thursday',
  '5': 'Friday',
  '6': 'Saturday',
}

/** Reminder offsets (minutes before the appointment): 1 to 4 of them, 15 minutes to 7 days. */
export const MIN_REMINDER_OFFSET = 15
export const MAX_REMINDER_OFFSET = 7 * 24 * 60
export const MAX_REMINDER_OFFSETS = 4

export const HOURS_ORDER_MESSAGE = 'Opening time must be before closing time'
export const GSTIN_STATE_MESSAGE = 'The GSTIN’s first 2 digits must be the state code'
export const SLUG_TAKEN_MESSAGE = 'Another hospital already uses this booking link'

const hhmm = z
  .string({ message: 'Time must be HH:mm' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'Time must be HH:mm, e.g. 09:00' })

const dayHours = z
  .tuple([hhmm, hhmm], { message: 'Give an opening and a closing time, or mark the day closed' })
  .nullable()
  .refine((v) => v === null || v[0] < v[1], { message: HOURS_ORDER_MESSAGE })

export const workingHoursInput = z.strictObject(
  Object.fromEntries(weekdays.map((d) => [d, dayHours])) as Record<Weekday, typeof dayHours>,
  { message: 'Give the hours of each day of the week' },
) as unknown as z.ZodType<WorkingHours, WorkingHours>

/** An IANA zone name ('Asia/Kolkata') that this runtime knows; offsets like '+05:30' are not. */
export function isTimeZone(value: string): boolean {
  if (!/^(UTC|[A-Za-z]+(\/[A-Za-z0-9_+-]+){1,2})$/.test(value)) return false
  try {
    new Intl.DateTimeFormat('en-IN', { timeZone: value })
    return true
  } catch {
    return false
  }
}

const timeZone = z
  .string({ message: 'Choose a time zone' })
  .trim()
  .max(64, { message: 'Choose a valid time zone, e.g. Asia/Kolkata' })
  .refine(isTimeZone, { message: 'Choose a valid time zone, e.g. Asia/Kolkata' })

/** Optional text: trimmed, '' or null clears it. */
function clearable<T extends z.ZodType<string, string>>(inner: T) {
  return z
    .string({ message: 'Must be text' })
    .trim()
    .max(100, { message: 'Must be at most 100 characters' })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .pipe(inner.nullable())
}

const gstin = clearable(
  z
    .string()
    .transform((v) => v.toUpperCase())
    .refine((v) => GSTIN_PATTERN.test(v), {
      message: 'Enter a 15-character GSTIN, e.g. 27AAPFU0939F1ZV',
    })
    .refine((v) => !GSTIN_PATTERN.test(v) || isGstStateCode(v.slice(0, 2)), {
      message: 'The GSTIN must start with a GST state code',
    })
    .refine((v) => !GSTIN_PATTERN.test(v) || gstinCheckCharacter(v) === v.charAt(14), {
      message: 'This GSTIN’s last character does not check out: look for a typo',
    }),
)

const stateCode = z
  .string({ message: 'Choose a state' })
  .refine(isGstStateCode, { message: 'Choose a state from the GST list' })
  .nullable()

const upiId = clearable(
  z
    .string()
    .transform((v) => v.toLowerCase())
    .refine((v) => /^[a-z0-9._-]{2,64}@[a-z][a-z0-9]{1,63}$/.test(v), {
      message: 'Enter a UPI ID like clinic@okaxis',
    }),
)

/** The grievance officer (DPDP Act 2023): a name and an email, shown on the booking page. */
export const GRIEVANCE_EMAIL_MESSAGE = 'Enter a valid email address, e.g. grievance@clinic.in'
const grievanceName = clearable(
  z.string().min(2, { message: 'Name must be at least 2 characters' }),
)
const grievanceEmail = clearable(
  z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.email({ message: GRIEVANCE_EMAIL_MESSAGE })),
)

export const hospitalSettingsShape = {
  name: z
    .string({ message: 'Hospital name is required' })
    .trim()
    .min(2, { message: 'Hospital name must be at least 2 characters' })
    .max(120, { message: 'Hospital name must be at most 120 characters' }),
  timeZone,
  slug: z
    .string({ message: 'Booking link is required' })
    .trim()
    .toLowerCase()
    .min(3, { message: 'Booking link must be at least 3 characters' })
    .max(60, { message: 'Booking link must be at most 60 characters' })
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, {
      message: 'Use lower-case letters, digits and single hyphens, e.g. sunrise-clinic',
    }),
  gstin,
  stateCode,
  upiId,
  invoicePrefix: z
    .string({ message: 'Invoice prefix is required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{1,10}$/, { message: 'Use 1 to 10 capital letters or digits, e.g. SMH' }),
  workingHours: workingHoursInput,
  reminderOffsets: z
    .array(
      z
        .number({ message: 'Each reminder must be a number of minutes' })
        .int({ message: 'Each reminder must be a whole number of minutes' })
        .min(MIN_REMINDER_OFFSET, { message: 'A reminder goes at least 15 minutes before' })
        .max(MAX_REMINDER_OFFSET, { message: 'A reminder goes at most 7 days before' }),
      { message: 'Give the reminders as minutes before the appointment' },
    )
    .min(1, { message: 'Keep at least one reminder' })
    .max(MAX_REMINDER_OFFSETS, { message: 'At most 4 reminders' })
    .refine((v) => new Set(v).size === v.length, { message: 'Each reminder time only once' })
    .transform((v) => [...v].sort((a, b) => b - a)),
  grievanceName,
  grievanceEmail,
}

/** The GSTIN's state must be the hospital's state when both are given. */
function gstinMatchesState(
  v: { gstin?: string | null | undefined; stateCode?: string | null | undefined },
  ctx: z.RefinementCtx,
): void {
  if (v.gstin && v.stateCode && v.gstin.slice(0, 2) !== v.stateCode) {
    ctx.addIssue({ code: 'custom', path: ['gstin'], message: GSTIN_STATE_MESSAGE })
  }
}

/** PATCH /api/hospital/settings: any of the fields; the rest keep their value. */
export const updateHospitalSettingsInput = z
  .strictObject(hospitalSettingsShape)
  .partial()
  .superRefine(gstinMatchesState)
export type UpdateHospitalSettingsInput = z.infer<typeof updateHospitalSettingsInput>

/** The whole General form (every field present). */
export const hospitalSettingsForm = z
  .strictObject(hospitalSettingsShape)
  .superRefine(gstinMatchesState)
export type HospitalSettingsFormInput = z.input<typeof hospitalSettingsForm>
export type HospitalSettingsFormOutput = z.output<typeof hospitalSettingsForm>

export const hospitalSettings = z.object({
  name: z.string(),
  timeZone: z.string(),
  slug: z.string(),
  gstin: z.string().nullable(),
  stateCode: z.string().nullable(),
  upiId: z.string().nullable(),
  invoicePrefix: z.string(),
  workingHours: z.record(z.string(), z.tuple([z.string(), z.string()]).nullable()),
  reminderOffsets: z.array(z.number()),
  grievanceName: z.string().nullable(),
  grievanceEmail: z.string().nullable(),
})
export type HospitalSettings = Omit<z.infer<typeof hospitalSettings>, 'workingHours'> & {
  workingHours: WorkingHours
}

// ---- The booking page card ----

/** The public page's path for a slug. */
export function bookingPath(slug: string): string {
  return `/book/${slug}`
}

export const bookingSettings = z.object({
  enabled: z.boolean(),
  /** Doctors offered on the page; none listed: every doctor of the hospital. */
  doctorIds: z.array(z.string()),
  services: z.array(z.object({ id: z.string(), name: z.string(), bookable: z.boolean() })),
  doctors: z.array(z.object({ id: z.string(), name: z.string() })),
  url: z.string(),
})
export type BookingSettings = z.infer<typeof bookingSettings>

const MAX_BOOKING_IDS = 200
const ids = (what: string) =>
  z
    .array(z.uuid({ message: `Each ${what} must be a valid id` }), {
      message: `Give the ${what}s as a list of ids`,
    })
    .max(MAX_BOOKING_IDS, { message: `At most ${MAX_BOOKING_IDS} ${what}s` })
    .transform((v) => [...new Set(v.map((id) => id.toLowerCase()))])

/** PUT /api/settings/booking. */
export const saveBookingSettingsInput = z.strictObject({
  enabled: z.boolean({ message: 'Must be true or false' }),
  doctorIds: ids('doctor'),
  bookableServiceIds: ids('service'),
})
export type SaveBookingSettingsInput = z.infer<typeof saveBookingSettingsInput>
