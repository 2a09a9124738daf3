import { z } from 'zod'
import { normalizePhone } from '../phone'
import { isoDate, optionalEmail, optionalText, paginationQuery, phoneNumber } from './common'

export const genders = ['male', 'female', 'other', 'prefer_not_to_say'] as const
export type Gender = (typeof genders)[number]
export const genderLabels: Record<Gender, string> = {
  male: 'Male',
  female: 'Female',
  other: 'Other',
  prefer_not_to_say: 'Prefer not to say',
}

const phoneField = phoneNumber(normalizePhone, {
  required: 'Phone is required',
  invalid: 'Enter a valid phone number, e.g. 98765 43210',
})

const dateOfBirth = isoDate
  .refine((v) => v >= '1900-01-01', { message: 'Date of birth must be after 1900' })
  .refine((v) => v <= new Date().toISOString().slice(0, 10), {
    message: 'Date of birth cannot be in the future',
  })

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
}

/** POST /api/patients/manual (spec "Manual patient payload"). Unknown fields are rejected. */
export const createPatientInput = z.strictObject(patientFields)
export type CreatePatientInput = z.input<typeof createPatientInput>

/** PATCH /api/patients/:id: any subset of the same fields; name and phone cannot be cleared. */
export const updatePatientInput = z
  .strictObject(patientFields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Send at least one field to change' })
export type UpdatePatientInput = z.input<typeof updatePatientInput>

export const listPatientsQuery = z.strictObject({
  search: z
    .string()
    .trim()
    .max(200, { message: 'search must be at most 200 characters' })
    .optional(),
  ...paginationQuery,
})

export const patient = z.object({
  id: z.string(),
  hospitalId: z.string(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  gender: z.enum(genders).nullable(),
  dateOfBirth: z.string().nullable(),
  address: z.string().nullable(),
  emergencyContact: z.string().nullable(),
  insuranceProvider: z.string().nullable(),
  insuranceNumber: z.string().nullable(),
  medicalHistory: z.string().nullable(),
  allergies: z.string().nullable(),
  abhaNumber: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Patient = z.infer<typeof patient>

/** Splits a full name for the manual-entry response, which is read with firstName/lastName. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/)
  const firstName = parts.shift() ?? ''
  return { firstName, lastName: parts.join(' ') }
}
