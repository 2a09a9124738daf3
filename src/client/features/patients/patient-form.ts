import { dateValueError } from '@/client/components/ui/date-field-text'
import { ageInYears } from '@/shared/age'
import { formatPhone } from '@/shared/phone-format'
import {
  type CreatePatientInput,
  createPatientInput,
  type Patient,
  type UpdatePatientInput,
} from '@/shared/schemas/patients'

/** The free-text fields, sent as typed (trimmed). */
const textFields = [
  'name',
  'email',
  'phone',
  'gender',
  'address',
  'emergencyContact',
  'medicalHistory',
  'allergies',
  'insuranceProvider',
  'insuranceNumber',
  'abhaNumber',
] as const
type TextField = (typeof textFields)[number]

/** How the birth is given: a date of birth, or an age in years when the date is not known. */
export type BirthInput = 'date' | 'age'

/** What the form holds: every field as text, '' for empty. */
export type PatientFormValues = Record<TextField, string> & {
  /** ISO yyyy-mm-dd, or the typed text while it is not a date yet (DateField). */
  dateOfBirth: string
  ageYears: string
  birthInput: BirthInput
}

export const emptyPatientForm: PatientFormValues = {
  name: '',
  email: '',
  phone: '',
  dateOfBirth: '',
  ageYears: '',
  birthInput: 'date',
  gender: '',
  address: '',
  emergencyContact: '',
  medicalHistory: '',
  allergies: '',
  insuranceProvider: '',
  insuranceNumber: '',
  abhaNumber: '',
}

/** The edit form's starting values: the phone as shown everywhere, an estimated birth as an age. */
export function formFromPatient(p: Patient): PatientFormValues {
  const values: PatientFormValues = { ...emptyPatientForm }
  for (const key of textFields) values[key] = p[key] ?? ''
  values.phone = formatPhone(p.phone)
  if (p.dateOfBirthEstimated && p.dateOfBirth) {
    values.birthInput = 'age'
    values.ageYears = String(ageInYears(p.dateOfBirth) ?? '')
  } else {
    values.dateOfBirth = p.dateOfBirth ?? ''
  }
  return values
}

/** A whole number of years as a number; other text as typed, for the schema to explain. */
function ageValue(text: string): number | string {
  return /^\d{1,3}$/.test(text) ? Number(text) : text
}

function birthPayload(v: PatientFormValues): Pick<CreatePatientInput, 'dateOfBirth' | 'ageYears'> {
  if (v.birthInput === 'age') {
    const age = v.ageYears.trim()
    return age === '' ? { dateOfBirth: null } : { ageYears: ageValue(age) }
  }
  const date = v.dateOfBirth.trim()
  return { dateOfBirth: date === '' ? null : date }
}

/** POST /api/patients/manual: empty optional fields are left out. */
export function createPayload(v: PatientFormValues): CreatePatientInput {
  const body: Record<string, unknown> = {}
  for (const key of textFields) {
    const value = v[key].trim()
    if (value !== '') body[key] = value
  }
  const birth = birthPayload(v)
  if (birth.dateOfBirth != null || birth.ageYears != null) Object.assign(body, birth)
  return body as CreatePatientInput
}

/**
 * PATCH /api/patients/:id: only what changed from `initial` (emptied fields become null), so
 * an estimated date of birth stays estimated unless the age or date is touched. Empty when
 * nothing changed.
 */
export function editPayload(v: PatientFormValues, initial: PatientFormValues): UpdatePatientInput {
  const body: Record<string, unknown> = {}
  for (const key of textFields) {
    const value = v[key].trim()
    if (value === initial[key].trim()) continue
    body[key] = value === '' && key !== 'name' && key !== 'phone' ? null : value
  }
  const birthChanged =
    v.birthInput !== initial.birthInput ||
    (v.birthInput === 'age'
      ? v.ageYears.trim() !== initial.ageYears.trim()
      : v.dateOfBirth.trim() !== initial.dateOfBirth.trim())
  if (birthChanged) Object.assign(body, birthPayload(v))
  return body as UpdatePatientInput
}

/** Whether nothing has been typed (Clear Form asks first otherwise). */
export function isFormEmpty(v: PatientFormValues): boolean {
  return (
    textFields.every((k) => v[k].trim() === '') &&
    v.dateOfBirth.trim() === '' &&
    v.ageYears.trim() === ''
  )
}

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields (Full Name, Phone).'

/** Checks the form with the same schema the server uses; field messages keyed by field. */
export function validatePatientForm(values: PatientFormValues): {
  missingRequired: boolean
  errors: Partial<Record<keyof PatientFormValues, string>>
} {
  const missingRequired = values.name.trim() === '' || values.phone.trim() === ''
  const parsed = createPatientInput.safeParse(createPayload(values))
  const errors: Partial<Record<keyof PatientFormValues, string>> = {}
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '') as keyof PatientFormValues
      if (key in emptyPatientForm) errors[key] ??= issue.message
    }
  }
  const dateProblem = values.birthInput === 'date' ? dateValueError(values.dateOfBirth) : null
  if (dateProblem) errors.dateOfBirth = dateProblem
  return { missingRequired, errors }
}
