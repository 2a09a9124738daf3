import { describe, expect, it } from 'vitest'
import {
  createPatientInput,
  dateOfBirthToStore,
  estimatedDateOfBirth,
  formatPatientNumber,
  patientNumberPrefix,
  phoneMatchesQuery,
  listPatientsQuery,
  patient,
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
    expect(listPatientsQuery.parse({ limit: '100' })).toEqual({ limit: 100 })
    expect(listPatientsQuery.safeParse({ limit: '101' }).success).toBe(false)
    expect(listPatientsQuery.safeParse({ limit: 'ten' }).success).toBe(false)
    expect(listPatientsQuery.safeParse({ order: 'name' }).success).toBe(false)
  })

  it('sorts by recent or name only', () => {
    expect(listPatientsQuery.parse({ sort: 'name' })).toEqual({ sort: 'name' })
    expect(listPatientsQuery.parse({ sort: 'recent' })).toEqual({ sort: 'recent' })
    expect(listPatientsQuery.parse({})).toEqual({})
    expect(listPatientsQuery.safeParse({ sort: 'oldest' }).success).toBe(false)
    expect(listPatientsQuery.safeParse({ sort: ['name'] }).success).toBe(false)
  })
})

describe('the response shape', () => {
  it('describes a stored patient', () => {
    const row = {
      id: 'p1',
      hospitalId: 'h1',
      patientNumber: 'SMH-000001',
      name: 'A B',
      firstName: 'A',
      lastName: 'B',
      email: null,
      phone: '+919876543210',
      gender: null,
      dateOfBirth: null,
      dateOfBirthEstimated: false,
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

describe('patient numbers', () => {
  it.each([
    ['Sanjeevani Multispeciality Hospital, Pune', 'SMH'],
    ['Smile Dental Clinic, Bengaluru', 'SDC'],
    ['City Hospital', 'CH'],
    ['Apollo', 'APO'],
    ['Apollo, Chennai', 'APO'],
    ['Institute of Child Health and Hospital for Children', 'ICHH'],
    ['The Heart Care Centre', 'HCC'],
    ["Dr. Sharma's Eye Clinic", 'DSEC'],
    ['24x7 Care Clinic', 'CC'],
    ['श्री अस्पताल', 'PT'],
    ['', 'PT'],
    [', Pune', 'PT'],
    ['A1', 'A'],
  ])('derives the prefix of %j as %s', (name, prefix) => {
    expect(patientNumberPrefix(name)).toBe(prefix)
  })

  it('pads to 6 digits and grows past 999999', () => {
    expect(formatPatientNumber('SMH', 12)).toBe('SMH-000012')
    expect(formatPatientNumber('SMH', 999_999)).toBe('SMH-999999')
    expect(formatPatientNumber('SMH', 1_000_000)).toBe('SMH-1000000')
  })
})

describe('ageYears instead of a date of birth', () => {
  it('accepts a whole number of years from 0 to 130, as a number or digits', () => {
    expect(
      createPatientInput.parse({ ...specPayload, dateOfBirth: null, ageYears: 42 }),
    ).toMatchObject({ ageYears: 42, dateOfBirth: null })
    expect(
      createPatientInput.parse({ name: 'A', phone: '9876543210', ageYears: '7' }).ageYears,
    ).toBe(7)
    expect(createPatientInput.parse({ name: 'A', phone: '9876543210', ageYears: 0 }).ageYears).toBe(
      0,
    )
    for (const bad of [-1, 131, 4.5, 'forty', '', '1e2', true])
      expect(
        issuesOf(createPatientInput.safeParse({ name: 'A', phone: '9876543210', ageYears: bad })),
        String(bad),
      ).toEqual([
        { path: 'ageYears', message: 'Age must be a whole number of years from 0 to 130' },
      ])
  })

  it('refuses a date of birth and an age together', () => {
    const both = { name: 'A', phone: '9876543210', dateOfBirth: '1990-01-01', ageYears: 30 }
    expect(issuesOf(createPatientInput.safeParse(both))).toEqual([
      { path: 'ageYears', message: 'Give either a date of birth or an age, not both' },
    ])
    expect(updatePatientInput.safeParse({ dateOfBirth: '1990-01-01', ageYears: 30 }).success).toBe(
      false,
    )
    expect(updatePatientInput.parse({ dateOfBirth: null, ageYears: 30 })).toEqual({
      dateOfBirth: null,
      ageYears: 30,
    })
  })

  it('estimates the date of birth from today in India', () => {
    // 20:00 UTC on 31 Dec 2025 is already 1 Jan 2026 in Asia/Kolkata.
    expect(estimatedDateOfBirth(40, new Date('2025-12-31T20:00:00Z'))).toBe('1986-01-01')
    expect(estimatedDateOfBirth(40, new Date('2025-12-31T10:00:00Z'))).toBe('1985-12-31')
    expect(estimatedDateOfBirth(1, new Date('2024-02-29T06:00:00Z'))).toBe('2023-02-28')
    expect(estimatedDateOfBirth(0, new Date('2026-03-15T06:00:00Z'))).toBe('2026-03-15')
  })

  it('stores an estimate for an age and clears the flag for a date', () => {
    const today = new Date('2026-03-15T06:00:00Z')
    expect(dateOfBirthToStore({ ageYears: 30 }, today)).toEqual({
      dateOfBirth: '1996-03-15',
      dateOfBirthEstimated: true,
    })
    expect(dateOfBirthToStore({ dateOfBirth: '1990-01-01' }, today)).toEqual({
      dateOfBirth: '1990-01-01',
      dateOfBirthEstimated: false,
    })
    expect(dateOfBirthToStore({ dateOfBirth: null, ageYears: null }, today)).toEqual({
      dateOfBirth: null,
      dateOfBirthEstimated: false,
    })
    expect(dateOfBirthToStore({}, today)).toBeUndefined()
  })
})

describe('phones of patients', () => {
  it.each(['1234567890', '5555555555', '+91 12345 67890', '020 2550 1234'])(
    'refuses %j with the mobile message',
    (phone) => {
      expect(issuesOf(createPatientInput.safeParse({ name: 'A', phone }))).toEqual([
        { path: 'phone', message: 'Enter a valid mobile number, e.g. 98765 43210' },
      ])
    },
  )

  it('checks the duplicate query the same way', () => {
    expect(phoneMatchesQuery.parse({ phone: '098765 43210' })).toEqual({ phone: '+919876543210' })
    expect(phoneMatchesQuery.safeParse({ phone: '1234567890' }).success).toBe(false)
    expect(phoneMatchesQuery.safeParse({ phone: '9876543210', excludeId: 'x' }).success).toBe(false)
    expect(phoneMatchesQuery.safeParse({ phone: '9876543210', other: 1 }).success).toBe(false)
  })
})
