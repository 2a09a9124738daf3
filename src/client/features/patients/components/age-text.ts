import { ageInYears } from '@/shared/age'
import type { Patient } from '@/shared/schemas/patients'

/** '34 years', or '34 years (estimated)' when only an age was given; null without a birth date. */
export function ageText(patient: Pick<Patient, 'dateOfBirth' | 'dateOfBirthEstimated'>) {
  const age = ageInYears(patient.dateOfBirth)
  if (age === null) return null
  const years = age === 1 ? '1 year' : `${age} years`
  return patient.dateOfBirthEstimated ? `${years} (estimated)` : years
}
