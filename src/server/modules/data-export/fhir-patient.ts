/**
 * A patient as a FHIR R4 Patient resource (https://hl7.org/fhir/R4/patient.html): one JSON
 * object per NDJSON line, as FHIR's bulk data format writes them. Only elements with a value
 * are present (FHIR forbids empty strings, arrays and objects).
 */
export interface PatientRow {
  id: string
  patient_number: string | null
  abha_number: string | null
  name: string
  email: string | null
  phone: string | null
  gender: string | null
  date_of_birth: string | null
  date_of_birth_estimated: string | null
  address: string | null
  emergency_contact: string | null
  updated_at: string | null
  erased_at: string | null
}

/** The patient columns the FHIR export reads, in PatientRow's names. */
export const FHIR_PATIENT_COLUMNS = [
  'id',
  'patient_number',
  'abha_number',
  'name',
  'email',
  'phone',
  'gender',
  'date_of_birth',
  'date_of_birth_estimated',
  'address',
  'emergency_contact',
  'updated_at',
  'erased_at',
] as const

/** India's ABHA (Ayushman Bharat Health Account) number, as ABDM's FHIR profiles name it. */
export const ABHA_SYSTEM = 'https://healthid.ndhm.gov.in'

/** The hospital's own patient numbers (SMH-000123): a URN per hospital. */
export function patientNumberSystem(hospitalId: string): string {
  return `urn:arogya:hospital:${hospitalId}:patient-number`
}

const fhirGender: Record<string, string> = {
  male: 'male',
  female: 'female',
  other: 'other',
  prefer_not_to_say: 'unknown',
}

const present = (v: string | null | undefined): v is string =>
  typeof v === 'string' && v.trim() !== ''

/** A FHIR instant (with seconds and a zone) from an ISO timestamp. */
function instant(value: string): string {
  return new Date(value).toISOString()
}

export function fhirPatient(row: PatientRow, hospitalId: string): Record<string, unknown> {
  const identifier: Record<string, unknown>[] = []
  if (present(row.patient_number)) {
    identifier.push({
      use: 'usual',
      type: {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/v2-0203',
            code: 'MR',
            display: 'Medical record number',
          },
        ],
      },
      system: patientNumberSystem(hospitalId),
      value: row.patient_number,
    })
  }
  if (present(row.abha_number)) {
    identifier.push({
      use: 'official',
      type: { text: 'ABHA number' },
      system: ABHA_SYSTEM,
      value: row.abha_number,
    })
  }
  const telecom: Record<string, unknown>[] = []
  if (present(row.phone)) telecom.push({ system: 'phone', value: row.phone, use: 'mobile' })
  if (present(row.email)) telecom.push({ system: 'email', value: row.email })
  const words = row.name.trim().split(/\s+/).filter(Boolean)
  const name: Record<string, unknown> = { use: 'official', text: row.name.trim() }
  if (words.length > 1) {
    name.family = words.at(-1)
    name.given = words.slice(0, -1)
  } else if (words.length === 1) {
    name.given = words
  }
  const resource: Record<string, unknown> = {
    resourceType: 'Patient',
    id: row.id,
    ...(present(row.updated_at) ? { meta: { lastUpdated: instant(row.updated_at) } } : {}),
    ...(identifier.length ? { identifier } : {}),
    active: !present(row.erased_at),
    ...(words.length ? { name: [name] } : {}),
    ...(telecom.length ? { telecom } : {}),
    ...(present(row.gender) ? { gender: fhirGender[row.gender] ?? 'unknown' } : {}),
  }
  if (present(row.date_of_birth)) {
    // An estimated date of birth (from an age) is only known to the year: FHIR dates may be partial.
    resource.birthDate =
      row.date_of_birth_estimated === 'true' ? row.date_of_birth.slice(0, 4) : row.date_of_birth
  }
  if (present(row.address)) resource.address = [{ use: 'home', text: row.address, country: 'IN' }]
  if (present(row.emergency_contact)) {
    resource.contact = [
      {
        relationship: [
          {
            coding: [
              {
                system: 'http://terminology.hl7.org/CodeSystem/v2-0131',
                code: 'C',
                display: 'Emergency Contact',
              },
            ],
          },
        ],
        name: { text: row.emergency_contact },
      },
    ]
  }
  return resource
}
