/** Patients' genders with their labels, and the patient list's orders (spec §3 Patient). */

export const genders = ['male', 'female', 'other', 'prefer_not_to_say'] as const
export type Gender = (typeof genders)[number]
export const genderLabels: Record<Gender, string> = {
  male: 'Male',
  female: 'Female',
  other: 'Other',
  prefer_not_to_say: 'Prefer not to say',
}

/** Orders of the patient list: newest first (the default), or by name. */
export const patientSorts = ['recent', 'name'] as const
export type PatientSort = (typeof patientSorts)[number]
