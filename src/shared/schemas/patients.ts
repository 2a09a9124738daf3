import { z } from 'zod'
import { MOBILE_PHONE_MESSAGE, normalizeMobilePhone } from '../phone'
import { isoDate, optionalEmail, optionalText, paginationQuery, phoneNumber } from './common'
import { TZDate } from '@date-fns/tz'
import { DEFAULT_TIME_ZONE } from '../dates'
import { genders, patientSorts } from '../patient-labels'

// Genders, their labels and the list's orders live in shared/patient-labels.ts: the patients
// list imports them without this file's phone check (libphonenumber's `max` metadata).
export * from '../patient-labels'

/** A patient's phone: Indian numbers must be mobiles (the clinic calls and messages them). */
const phoneField = phoneNumber(normalizeMobilePhone, {
  required: 'Phone is required',
  invalid: MOBILE_PHONE_MESSAGE,
})

const dateOfBirth = isoDate
  .refine((v) => v >= '1900-01-01', { message: 'Date of birth must be after 1900' })
  // Today in India (an age of 0 years is born today), not the UTC date, which lags until 05:30.
  .refine((v) => v <= estimatedDateOfBirth(0), {
    message: 'Date of birth cannot be in the future',
  })

/** Age in whole years, for a patient who does not know their date of birth. */
const AGE_MESSAGE = 'Age must be a whole number of years from 0 to 130'
const ageYears = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,3}$/)
        .transform(Number),
    ],
    {
      message: AGE_MESSAGE,
    },
  )
  .pipe(
    z
      .number()
      .int({ message: AGE_MESSAGE })
      .min(0, { message: AGE_MESSAGE })
      .max(130, { message: AGE_MESSAGE }),
  )
  .nullish()

const email = optionalEmail

/** ABHA (Ayushman Bharat Health Account) number: 14 digits, shown as 12-3456-7890-1234. */
const abhaNumber = z
  .string({ message: 'Must be text' })
  .trim()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .refine((v) => v === '' || /^\d{14}$/.test(v), { message: 'ABHA number must have 14 digits' })
  .transform((v) =>
    v === '' ? null : `${v.slice(0, 2)}-${v.slice(2, 6)}-${v.slice(6, 10)}-${v.slice(10)}`,
  )
  .nullish()
  .transform((v) => v ?? null)

const patientFields = {
  name: z
    .string({ message: 'Full name is required' })
    .trim()
    .min(1, { message: 'Full name is required' })
    .max(200, { message: 'Full name must be at most 200 characters' }),
  phone: phoneField,
  email,
  dateOfBirth: dateOfBirth.nullish().transform((v) => v ?? null),
  gender: z.enum(genders, { message: 'Choose male, female, other or prefer not to say' }).nullish(),
  address: optionalText(500),
  emergencyContact: optionalText(300),
  medicalHistory: optionalText(5000),
  allergies: optionalText(2000),
  insuranceProvider: optionalText(200),
  insuranceNumber: optionalText(100),
  abhaNumber,
  /** Instead of dateOfBirth: the date of birth is then estimated (dateOfBirthEstimated). */
  ageYears,
}

const DATE_OR_AGE = 'Give either a date of birth or an age, not both'

function oneOfDateOrAge(
  v: { dateOfBirth?: string | null | undefined; ageYears?: number | null | undefined },
  ctx: z.RefinementCtx,
): void {
  if (v.dateOfBirth != null && v.ageYears != null)
    ctx.addIssue({ code: 'custom', path: ['ageYears'], message: DATE_OR_AGE })
}

/** POST /api/patients/manual (spec "Manual patient payload"). Unknown fields are rejected. */
export const createPatientInput = z.strictObject(patientFields).superRefine(oneOfDateOrAge)
export type CreatePatientInput = z.input<typeof createPatientInput>

/** PATCH /api/patients/:id: any subset of the same fields; name and phone cannot be cleared. */
export const updatePatientInput = z
  .strictObject(patientFields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Send at least one field to change' })
  .superRefine(oneOfDateOrAge)
export type UpdatePatientInput = z.input<typeof updatePatientInput>

/** The date of birth to store for what a create or patch sent (ageYears becomes an estimate). */
export function dateOfBirthToStore(
  v: { dateOfBirth?: string | null | undefined; ageYears?: number | null | undefined },
  today: Date = new Date(),
): { dateOfBirth: string | null; dateOfBirthEstimated: boolean } | undefined {
  if (v.ageYears != null)
    return { dateOfBirth: estimatedDateOfBirth(v.ageYears, today), dateOfBirthEstimated: true }
  if (v.dateOfBirth !== undefined)
    return { dateOfBirth: v.dateOfBirth, dateOfBirthEstimated: false }
  return undefined
}

export { TOTAL_COUNT_HEADER } from '../total-count'

/** GET /api/patients?search=&sort=recent|name&limit=&cursor=&count=1 */
export const listPatientsQuery = z.strictObject({
  search: z
    .string()
    .trim()
    .max(200, { message: 'search must be at most 200 characters' })
    .optional(),
  sort: z.enum(patientSorts, { message: 'sort must be recent or name' }).optional(),
  /** 1: also count the matches (x-total-count). */
  count: z.enum(['0', '1'], { message: 'count must be 0 or 1' }).optional(),
  ...paginationQuery,
})
export type ListPatientsQuery = z.input<typeof listPatientsQuery>

/** GET /api/patients/duplicates?phone=<as typed>&excludeId=<uuid> */
export const phoneMatchesQuery = z.strictObject({
  phone: phoneField,
  excludeId: z.uuid({ message: 'excludeId must be a valid id' }).optional(),
})
export type PhoneMatchesQuery = z.input<typeof phoneMatchesQuery>

/** How many patients of the hospital have the phone, and the newest few of them. */
export const phoneMatches = z.object({
  count: z.number(),
  patients: z
    .object({ id: z.string(), name: z.string(), patientNumber: z.string(), phone: z.string() })
    .array(),
})
export type PhoneMatches = z.infer<typeof phoneMatches>
/** At most this many patients come back in phoneMatches.patients. */
export const PHONE_MATCHES_SHOWN = 5

export const patient = z.object({
  id: z.string(),
  hospitalId: z.string(),
  /** Per-hospital sequential number (UHID/MRN), e.g. 'SMH-000123'. */
  patientNumber: z.string(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  gender: z.enum(genders).nullable(),
  dateOfBirth: z.string().nullable(),
  /** True when dateOfBirth was estimated from an age. */
  dateOfBirthEstimated: z.boolean(),
  address: z.string().nullable(),
  emergencyContact: z.string().nullable(),
  insuranceProvider: z.string().nullable(),
  insuranceNumber: z.string().nullable(),
  medicalHistory: z.string().nullable(),
  allergies: z.string().nullable(),
  abhaNumber: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the patient was erased (DPDP data rights): the personal fields are cleared. */
  erasedAt: z.string().nullable().optional(),
})
export type Patient = z.infer<typeof patient>

/**
 * An estimated date of birth for an age in years: today in the hospital's time zone, that many
 * years back (29 February becomes 28 February in a year that has none).
 */
export function estimatedDateOfBirth(
  ageYears: number,
  today: Date = new Date(),
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  const now = new TZDate(today.getTime(), timeZone)
  const year = now.getFullYear() - ageYears
  const month = now.getMonth() + 1
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate()
  const day = Math.min(now.getDate(), lastDay)
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`
}

const PREFIX_SKIPPED_WORDS = new Set(['of', 'and', 'the', 'for', 'at', 'in', 'by'])

/**
 * The patient-number prefix a hospital starts with, from its name: the initials of the words
 * before the first comma, at most 4 ('Sanjeevani Multispeciality Hospital, Pune' gives 'SMH'),
 * or the first 3 letters of a one-word name ('Apollo' gives 'APO'), in A-Z only; 'PT' when
 * the name has no such word. Migration 0005 backfills existing hospitals with the same rule
 * in SQL (patient_number_prefix); change both together.
 */
export function patientNumberPrefix(hospitalName: string): string {
  const words = (hospitalName.split(',')[0] ?? '')
    .replace(/['\u2019]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => /^[A-Za-z]/.test(w) && !PREFIX_SKIPPED_WORDS.has(w.toLowerCase()))
  if (words.length === 0) return 'PT'
  if (words.length === 1)
    return (words[0] ?? '')
      .replace(/[^A-Za-z]/g, '')
      .slice(0, 3)
      .toUpperCase()
  return words
    .slice(0, 4)
    .map((w) => w[0] ?? '')
    .join('')
    .toUpperCase()
}

/** 'SMH-000123': the prefix and the number, zero-padded to 6 digits (more once past 999999). */
export function formatPatientNumber(prefix: string, value: number): string {
  return `${prefix}-${String(value).padStart(6, '0')}`
}
