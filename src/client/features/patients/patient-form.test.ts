import { describe, expect, it } from 'vitest'
import type { Patient } from '@/shared/schemas/patients'
import {
  createPayload,
  editPayload,
  emptyPatientForm,
  formFromPatient,
  isFormEmpty,
  validatePatientForm,
} from './patient-form'

const patient: Patient = {
  id: '6f1c1c43-1b7a-4a36-9a51-0d0c1e2b3a4f',
  hospitalId: 'h',
  patientNumber: 'SMH-000001',
  name: 'Asha Rao',
  firstName: 'Asha',
  lastName: 'Rao',
  email: null,
  phone: '+919876543210',
  gender: 'female',
  dateOfBirth: '1990-04-15',
  dateOfBirthEstimated: false,
  address: 'Pune',
  emergencyContact: null,
  insuranceProvider: null,
  insuranceNumber: null,
  medicalHistory: null,
  allergies: null,
  abhaNumber: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}

describe('patient form', () => {
  it('creates with a date of birth or an age, leaving empty fields out', () => {
    const base = { ...emptyPatientForm, name: ' Asha ', phone: '98765 43210' }
    expect(createPayload({ ...base, dateOfBirth: '1990-04-15' })).toEqual({
      name: 'Asha',
      phone: '98765 43210',
      dateOfBirth: '1990-04-15',
    })
    expect(
      createPayload({ ...base, birthInput: 'age', ageYears: '34', dateOfBirth: '1990-04-15' }),
    ).toEqual({ name: 'Asha', phone: '98765 43210', ageYears: 34 })
    expect(createPayload(base)).toEqual({ name: 'Asha', phone: '98765 43210' })
  })

  it('starts editing from the patient, phone formatted, an estimate as an age', () => {
    expect(formFromPatient(patient)).toMatchObject({
      phone: '+91 98765 43210',
      dateOfBirth: '1990-04-15',
      birthInput: 'date',
      gender: 'female',
      email: '',
    })
    const estimated = formFromPatient({ ...patient, dateOfBirthEstimated: true })
    expect(estimated.birthInput).toBe('age')
    expect(estimated.dateOfBirth).toBe('')
    expect(Number(estimated.ageYears)).toBeGreaterThan(30)
  })

  it('edits only what changed', () => {
    const initial = formFromPatient(patient)
    expect(editPayload(initial, initial)).toEqual({})
    expect(editPayload({ ...initial, address: '' }, initial)).toEqual({ address: null })
    expect(editPayload({ ...initial, allergies: ' Sulfa ' }, initial)).toEqual({
      allergies: 'Sulfa',
    })
    expect(editPayload({ ...initial, birthInput: 'age', ageYears: '40' }, initial)).toEqual({
      ageYears: 40,
    })
    expect(editPayload({ ...initial, dateOfBirth: '' }, initial)).toEqual({ dateOfBirth: null })
    const estimated = formFromPatient({ ...patient, dateOfBirthEstimated: true })
    expect(editPayload(estimated, estimated)).toEqual({})
  })

  it('knows an empty form', () => {
    expect(isFormEmpty(emptyPatientForm)).toBe(true)
    expect(isFormEmpty({ ...emptyPatientForm, birthInput: 'age' })).toBe(true)
    expect(isFormEmpty({ ...emptyPatientForm, ageYears: '3' })).toBe(false)
  })

  it('explains bad dates, ages and phones', () => {
    const base = { ...emptyPatientForm, name: 'Asha', phone: '98765 43210' }
    expect(validatePatientForm(base).errors).toEqual({})
    expect(validatePatientForm({ ...base, dateOfBirth: '31/02/1990' }).errors.dateOfBirth).toBe(
      'No such date: 31/02/1990. Check the day and month.',
    )
    expect(
      validatePatientForm({ ...base, birthInput: 'age', ageYears: '200' }).errors.ageYears,
    ).toMatch(/0 to 130/)
    expect(validatePatientForm({ ...base, phone: '1234567890' }).errors.phone).toBe(
      'Enter a valid mobile number, e.g. 98765 43210',
    )
    expect(validatePatientForm({ ...emptyPatientForm }).missingRequired).toBe(true)
  })
})
