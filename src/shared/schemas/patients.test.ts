import { describe, expect, it } from 'vitest'
import {
  createPatientInput,
  listPatientsQuery,
  patient,
  splitName,
  updatePatientInput,
} from './patients'

/** The payload the manual-entry form sends (spec section 3, "Manual patient payload"). */
const specPayload = {
  name: 'Meera Joshi',
  email: 'Meera.Joshi@Example.com',
  phone: '98765 43210',
  dateOfBirth: '1988-04-12',
  gender: 'female',
  address: '14, Lane 5, Koregaon Park, Pune 411001',
  emergencyContact: 'Rohan Joshi (spouse) +91 98220 12345',
  medicalHistory: 'Hypothyroidism, on thyroxine 50 mcg',
  allergies: 'Penicillin',
  insuranceProvider: 'Star Health',
  insuranceNumber: 'SH1234567890',
}

function issuesOf(result: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) {
  return (result.error?.issues ?? []).map((i) => ({ path: i.path.join('.'), message: i.message }))
}

describe('createPatientInput', () => {
  it('accepts the spec payload and normalises it', () => {
    const result = createPatientInput.parse(specPayload)
    expect(result).toMatchObject({
      name: 'Meera Joshi',
      email: 'meera.joshi@example.com',
      phone: '+919876543210',
      dateOfBirth: '1988-04-12',
      gender: 'female',
      allergies: 'Penicillin',
    })
  })

  it('requires name and phone with the form’s messages', () => {
    const result = createPatientInput.safeParse({})
    expect(result.success).toBe(false)
    expect(issuesOf(result)).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Full name is required' },
        { path: 'phone', message: 'Phone is required' },
      ]),
    )
    expect(
      issuesOf(createPatientInput.safeParse({ name: '   ', phone: '  ' }))
        .map((i) => i.path)
        .sort(),
    ).toEqual(['name', 'phone'])
  })

  it('rejects unknown fields', () => {
    const result = createPatientInput.safeParse({
      ...specPayload,
      hospitalId: '00000000-0000-0000-0000-000000000000',
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys')
  })

  it('rejects a bad phone, email, gender or date', () => {
    expect(
      issuesOf(createPatientInput.safeParse({ ...specPayload, phone: 'call me' }))[0]?.path,
    ).toBe('phone')
    expect(
      issuesOf(createPatientInput.safeParse({ ...specPayload, email: 'not-an-email' }))[0]?.path,
    ).toBe('email')
    expect(
      issuesOf(createPatientInput.safeParse({ ...specPayload, gender: 'unknown' }))[0]?.path,
    ).toBe('gender')
    expect(
      issuesOf(createPatientInput.safeParse({ ...specPayload, dateOfBirth: '1988-02-30' }))[0]
        ?.path,
    ).toBe('dateOfBirth')
    expect(
      issuesOf(createPatientInput.safeParse({ ...specPayload, dateOfBirth: '3000-01-01' }))[0]
        ?.message,
    ).toBe('Date of birth cannot be in the future')
    expect(
      createPatientInput.safeParse({ ...specPayload, dateOfBirth: '1899-12-31' }).success,
    ).toBe(false)
    expect(createPatientInput.safeParse({ ...specPayload, name: 'x'.repeat(201) }).success).toBe(
      false,
    )
    expect(createPatientInput.safeParse({ ...specPayload, allergies: 12 }).success).toBe(false)
  })

  it('stores empty optional text as null, not as empty strings', () => {
    const result = createPatientInput.parse({
      name: ' Asha Rao ',
      phone: '09876543210',
      email: '',
      address: '  ',
      allergies: null,
    })
    expect(result).toMatchObject({
      name: 'Asha Rao',
      email: null,
      address: null,
      allergies: null,
      dateOfBirth: null,
    })
  })

  it('formats an ABHA number and rejects a wrong one', () => {
    expect(
      createPatientInput.parse({ ...specPayload, abhaNumber: '12 3456 7890 1234' }).abhaNumber,
    ).toBe('12-3456-7890-1234')
    expect(createPatientInput.safeParse({ ...specPayload, abhaNumber: '1234' }).success).toBe(false)
  })
})

describe('updatePatientInput (PATCH)', () => {
  it('leaves absent fields absent instead of turning them into null', () => {
    const result = updatePatientInput.parse({ allergies: 'Peanuts' })
    expect(result).toEqual({ allergies: 'Peanuts' })
    expect(Object.keys(result)).toEqual(['allergies'])
  })

  it('lets a field be cleared explicitly', () => {
    expect(updatePatientInput.parse({ address: null })).toEqual({ address: null })
    expect(updatePatientInput.parse({ email: '' })).toEqual({ email: null })
    expect(updatePatientInput.parse({ gender: null })).toEqual({ gender: null })
  })

  it('normalises what it changes', () => {
    expect(updatePatientInput.parse({ phone: '+91 98765 43210', email: 'A@B.IN' })).toEqual({
      phone: '+919876543210',
      email: 'a@b.in',
    })
  })

  it('does not let name or phone be cleared', () => {
    expect(updatePatientInput.safeParse({ name: null }).success).toBe(false)
    expect(updatePatientInput.safeParse({ name: '' }).success).toBe(false)
    expect(updatePatientInput.safeParse({ phone: null }).success).toBe(false)
    expect(updatePatientInput.safeParse({ phone: '' }).success).toBe(false)
  })

  it('needs at least one field and rejects unknown ones', () => {
    expect(updatePatientInput.safeParse({}).success).toBe(false)
    expect(updatePatientInput.safeParse({ id: 'x' }).success).toBe(false)
    expect(updatePatientInput.safeParse({ name: 'A', hospitalId: 'x' }).success).toBe(false)
  })
})

describe('listPatientsQuery', () => {
  it('coerces limit and bounds it', () => {
    expect(listPatientsQuery.parse({ limit: '20' })).toEqual({ limit: 20 })
    expect(listPatientsQuery.safeParse({ limit: '0' }).success).toBe(false)
    expect(listPatientsQuery.safeParse({ limit: '501' }).success).toBe(false)
    expect(listPatientsQuery.safeParse({ limit: 'ten' }).success).toBe(false)
    expect(listPatientsQuery.safeParse({ sort: 'name' }).success).toBe(false)
  })
})

describe('splitName and the response shape', () => {
  it('splits a full name into first and last', () => {
    expect(splitName('Meera Joshi')).toEqual({ firstName: 'Meera', lastName: 'Joshi' })
    expect(splitName('  Dr.  Rajesh   Iyer ')).toEqual({
      firstName: 'Dr.',
      lastName: 'Rajesh Iyer',
    })
    expect(splitName('Madonna')).toEqual({ firstName: 'Madonna', lastName: '' })
  })

  it('describes a stored patient', () => {
    const row = {
      id: 'p1',
      hospitalId: 'h1',
      name: 'A B',
      firstName: 'A',
      lastName: 'B',
      email: null,
      phone: '+919876543210',
      gender: null,
      dateOfBirth: null,
      address: null,
      emergencyContact: null,
      insuranceProvider: null,
      insuranceNumber: null,
      medicalHistory: null,
      allergies: null,
      abhaNumber: null,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    }
    expect(patient.parse(row)).toEqual(row)
  })
})
