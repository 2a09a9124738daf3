import {
  type CreatePatientInput,
  createPatientInput,
  type Patient,
} from '@/shared/schemas/patients'

/** What the form holds: every field as text, '' for empty. */
export interface PatientFormValues {
  name: string
  email: string
  phone: string
  dateOfBirth: string
  gender: string
  address: string
  emergencyContact: string
  medicalHistory: string
  allergies: string
  insuranceProvider: string
  insuranceNumber: string
  abhaNumber: string
}

export const emptyPatientForm: PatientFormValues = {
  name: '',
  email: '',
  phone: '',
  dateOfBirth: '',
  gender: '',
  address: '',
  emergencyContact: '',
  medicalHistory: '',
  allergies: '',
  insuranceProvider: '',
  insuranceNumber: '',
  abhaNumber: '',
}

export function formFromPatient(p: Patient): PatientFormValues {
  return Object.fromEntries(
    Object.keys(emptyPatientForm).map((k) => [k, (p[k as keyof Patient] as string | null) ?? '']),
  ) as unknown as PatientFormValues
}

/** The request body: empty optional fields are left out (create) or cleared to null (edit). */
export function toPayload(values: PatientFormValues, mode: 'create' | 'edit'): CreatePatientInput {
  const body: Record<string, string | null> = {}
  for (const [key, raw] of Object.entries(values)) {
    const value = raw.trim()
    if (value !== '') body[key] = value
    else if (mode === 'edit' && key !== 'name' && key !== 'phone') body[key] = null
  }
  return body as unknown as CreatePatientInput
}

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields (Full Name, Phone).'

/** Checks the form with the same schema the server uses; field messages keyed by field. */
export function validatePatientForm(values: PatientFormValues): {
  missingRequired: boolean
  errors: Record<string, string>
} {
  const missingRequired = values.name.trim() === '' || values.phone.trim() === ''
  const parsed = createPatientInput.safeParse(toPayload(values, 'create'))
  const errors = parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? ''), i.message]))
  return { missingRequired, errors }
}
