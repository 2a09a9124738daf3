import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  createPatientInput,
  estimatedDateOfBirth,
  genderLabels,
  genders,
  listPatientsQuery,
  patientNumberPrefix,
  patientSorts,
  PHONE_MATCHES_SHOWN,
  phoneMatches,
  phoneMatchesQuery,
  TOTAL_COUNT_HEADER,
  updatePatientInput,
} from './patients'

// Patients' schemas at their edges (mutation testing, docs/decisions/024).

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value)
  expect(result.success, `expected ${JSON.stringify(value)} to be refused`).toBe(false)
  return (result.error?.issues ?? []).map((i) => i.message)
}

const base = { name: 'Meera Joshi', phone: '98765 43210' }

describe('createPatientInput at its edges', () => {
  it('takes a date of birth from 1900-01-01 up to today in India', () => {
    expect(createPatientInput.parse({ ...base, dateOfBirth: '1900-01-01' }).dateOfBirth).toBe(
      '1900-01-01',
    )
    const today = estimatedDateOfBirth(0)
    expect(createPatientInput.parse({ ...base, dateOfBirth: today }).dateOfBirth).toBe(today)
    expect(messagesOf(createPatientInput, { ...base, dateOfBirth: '1899-12-31' })).toEqual([
      'Date of birth must be after 1900',
    ])
    expect(messagesOf(createPatientInput, { ...base, dateOfBirth: '2999-01-01' })).toEqual([
      'Date of birth cannot be in the future',
    ])
  })

  it('takes an ABHA number of exactly 14 digits, and clears it with an empty value', () => {
    expect(createPatientInput.parse({ ...base, abhaNumber: '' }).abhaNumber).toBeNull()
    expect(createPatientInput.parse({ ...base, abhaNumber: ' - ' }).abhaNumber).toBeNull()
    expect(createPatientInput.parse({ ...base, abhaNumber: '12 3456 7890 1234' }).abhaNumber).toBe(
      '12-3456-7890-1234',
    )
    for (const abhaNumber of ['123456789012345', 'x12345678901234', '12345678901234x', '1234']) {
      expect(messagesOf(createPatientInput, { ...base, abhaNumber })).toEqual([
        'ABHA number must have 14 digits',
      ])
    }
    expect(messagesOf(createPatientInput, { ...base, abhaNumber: 12345678901234 })).toEqual([
      'Must be text',
    ])
  })

  it('takes an age as digits with spaces around them', () => {
    expect(createPatientInput.parse({ ...base, ageYears: ' 42 ' }).ageYears).toBe(42)
    expect(createPatientInput.parse({ ...base, ageYears: '130' }).ageYears).toBe(130)
    expect(messagesOf(createPatientInput, { ...base, ageYears: '1000' })).toEqual([
      'Age must be a whole number of years from 0 to 130',
    ])
    expect(
      messagesOf(createPatientInput, { ...base, ageYears: 40, dateOfBirth: '1985-01-01' }),
    ).toEqual(['Give either a date of birth or an age, not both'])
  })

  it('says what is wrong with the name and gender', () => {
    expect(messagesOf(createPatientInput, { ...base, name: 5 })).toEqual(['Full name is required'])
    expect(messagesOf(createPatientInput, { ...base, name: '  ' })).toEqual([
      'Full name is required',
    ])
    expect(messagesOf(createPatientInput, { ...base, name: 'n'.repeat(201) })).toEqual([
      'Full name must be at most 200 characters',
    ])
    expect(createPatientInput.parse({ ...base, name: 'n'.repeat(200) }).name).toHaveLength(200)
    expect(messagesOf(createPatientInput, { ...base, gender: 'x' })).toEqual([
      'Choose male, female, other or prefer not to say',
    ])
    for (const gender of genders) {
      expect(createPatientInput.parse({ ...base, gender }).gender).toBe(gender)
    }
  })

  it('labels the genders as the form shows them', () => {
    expect(genders).toEqual(['male', 'female', 'other', 'prefer_not_to_say'])
    expect(genderLabels).toEqual({
      male: 'Male',
      female: 'Female',
      other: 'Other',
      prefer_not_to_say: 'Prefer not to say',
    })
  })

  it('needs one field in a PATCH', () => {
    expect(messagesOf(updatePatientInput, {})).toEqual(['Send at least one field to change'])
  })
})

describe('listPatientsQuery and the duplicate query', () => {
  it('trims and bounds the search, and names the allowed sorts and counts', () => {
    expect(TOTAL_COUNT_HEADER).toBe('x-total-count')
    expect(patientSorts).toEqual(['recent', 'name'])
    expect(listPatientsQuery.parse({ search: '  meera  ' })).toEqual({ search: 'meera' })
    expect(listPatientsQuery.parse({ search: 's'.repeat(200) }).search).toHaveLength(200)
    expect(messagesOf(listPatientsQuery, { search: 's'.repeat(201) })).toEqual([
      'search must be at most 200 characters',
    ])
    expect(messagesOf(listPatientsQuery, { sort: 'age' })).toEqual(['sort must be recent or name'])
    expect(listPatientsQuery.parse({ count: '0' })).toEqual({ count: '0' })
    expect(listPatientsQuery.parse({ count: '1' })).toEqual({ count: '1' })
    expect(messagesOf(listPatientsQuery, { count: '2' })).toEqual(['count must be 0 or 1'])
  })

  it('checks a duplicate phone, excluding at most one valid id', () => {
    const id = '0b8a3a0e-4c1b-4a8f-9d3e-2f6f1c2b7a10'
    expect(phoneMatchesQuery.parse({ phone: '98765 43210', excludeId: id })).toEqual({
      phone: '+919876543210',
      excludeId: id,
    })
    expect(messagesOf(phoneMatchesQuery, { phone: '9876543210', excludeId: 'x' })).toEqual([
      'excludeId must be a valid id',
    ])
    expect(PHONE_MATCHES_SHOWN).toBe(5)
    const answer = {
      count: 1,
      patients: [{ id, name: 'Meera', patientNumber: 'SMH-000001', phone: '+919876543210' }],
    }
    expect(phoneMatches.parse(answer)).toEqual(answer)
  })
})

describe('patientNumberPrefix skips small words', () => {
  it.each([
    ['Hospital of Hope', 'HH'],
    ['Heart and Lung Centre', 'HLC'],
    ['The Eye Clinic', 'EC'],
    ['Centre for Sight', 'CS'],
    ['Clinic at Baner', 'CB'],
    ['Clinic in Aundh', 'CA'],
    ['Run by Doctors', 'RD'],
  ])('%s gives %s', (name, prefix) => {
    expect(patientNumberPrefix(name)).toBe(prefix)
  })
})
