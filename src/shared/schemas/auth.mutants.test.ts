import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import {
  currentUser,
  emailAddress,
  mustEnrolTwoFactor,
  password,
  PASSWORD_MAX,
  PASSWORD_MIN,
  signInInput,
  TRIAL_STARTED_MESSAGE,
  trialSignUpInput,
  trialStarted,
} from './auth'

// Sign-in and trial sign-up schemas and the platform two-factor rule (mutation testing,
// docs/decisions/024).

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value)
  expect(result.success, `expected ${JSON.stringify(value)} to be refused`).toBe(false)
  return (result.error?.issues ?? []).map((i) => i.message)
}

describe('password', () => {
  it('takes 8 to 128 characters as typed', () => {
    expect(PASSWORD_MIN).toBe(8)
    expect(PASSWORD_MAX).toBe(128)
    expect(password.parse('12345678')).toBe('12345678')
    expect(password.parse(' '.repeat(128))).toHaveLength(128)
    expect(messagesOf(password, '1234567')).toEqual(['Password must be at least 8 characters'])
    expect(messagesOf(password, 'p'.repeat(129))).toEqual([
      'Password must be at most 128 characters',
    ])
    expect(messagesOf(password, undefined)).toEqual(['Password is required'])
  })
})

describe('emailAddress', () => {
  it('trims and lower-cases, and refuses what is not an address', () => {
    expect(emailAddress.parse('  Asha.Rao@Clinic.IN  ')).toBe('asha.rao@clinic.in')
    expect(emailAddress.parse(`${'a'.repeat(244)}@clinic.in`)).toHaveLength(254)
    expect(emailAddress.safeParse(`${'a'.repeat(245)}@clinic.in`).success).toBe(false)
    expect(messagesOf(emailAddress, 'asha@')).toEqual(['Enter a valid email address'])
    expect(messagesOf(emailAddress, 7)).toEqual(['Email is required'])
  })
})

describe('signInInput', () => {
  it('takes an email, a password, remember-me and a path on this site', () => {
    expect(
      signInInput.parse({
        email: 'A@B.IN',
        password: 'x',
        rememberMe: true,
        callbackURL: '/patients?page=2',
      }),
    ).toEqual({ email: 'a@b.in', password: 'x', rememberMe: true, callbackURL: '/patients?page=2' })
    expect(signInInput.parse({ email: 'a@b.in', password: ' ' })).toEqual({
      email: 'a@b.in',
      password: ' ',
    })
  })
  it('refuses an empty password, another site as callbackURL, and unknown fields', () => {
    expect(messagesOf(signInInput, { email: 'a@b.in', password: '' })).toEqual([
      'Password is required',
    ])
    expect(messagesOf(signInInput, { email: 'a@b.in' })).toEqual(['Password is required'])
    for (const callbackURL of ['https://evil.example/', '//evil.example/', '/\\evil.example']) {
      expect(messagesOf(signInInput, { email: 'a@b.in', password: 'x', callbackURL })).toEqual([
        'callbackURL must be a path on this site',
      ])
    }
    expect(
      signInInput.safeParse({ email: 'a@b.in', password: 'x', rememberMe: 'yes' }).success,
    ).toBe(false)
    expect(signInInput.safeParse({ email: 'a@b.in', password: 'x', role: 'admin' }).success).toBe(
      false,
    )
  })
})

describe('trialSignUpInput', () => {
  const valid = {
    hospitalName: ' Sanjeevani Clinic ',
    name: ' Dr Asha Rao ',
    email: 'Asha@Clinic.IN',
    password: 'long-enough',
    phone: '98765 43210',
  }
  it('normalises a sign-up', () => {
    expect(trialSignUpInput.parse(valid)).toEqual({
      hospitalName: 'Sanjeevani Clinic',
      name: 'Dr Asha Rao',
      email: 'asha@clinic.in',
      password: 'long-enough',
      phone: '+919876543210',
    })
    expect(trialSignUpInput.parse({ ...valid, hospitalName: 'AB' }).hospitalName).toBe('AB')
    expect(
      trialSignUpInput.parse({ ...valid, hospitalName: 'h'.repeat(200), name: 'n'.repeat(120) }),
    ).toMatchObject({ hospitalName: 'h'.repeat(200), name: 'n'.repeat(120) })
  })
  it('refuses each bad field with its message', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ hospitalName: undefined }, 'Clinic or hospital name is required'],
      [{ hospitalName: ' A ' }, 'Clinic or hospital name is required'],
      [{ hospitalName: 'h'.repeat(201) }, 'Clinic or hospital name must be at most 200 characters'],
      [{ name: undefined }, 'Your name is required'],
      [{ name: '   ' }, 'Your name is required'],
      [{ name: 'n'.repeat(121) }, 'Name must be at most 120 characters'],
      [{ phone: undefined }, 'Mobile number is required'],
      [{ phone: 'call me' }, 'Enter a valid mobile number, e.g. 98765 43210'],
      [{ password: 'short' }, 'Password must be at least 8 characters'],
    ]
    for (const [change, message] of cases) {
      expect(messagesOf(trialSignUpInput, { ...valid, ...change })).toEqual([message])
    }
    expect(trialSignUpInput.safeParse({ ...valid, plan: 'pro' }).success).toBe(false)
  })
})

describe('currentUser and the two-factor rule', () => {
  it('describes the signed-in user', () => {
    const user = {
      id: 'u1',
      firstName: 'Asha',
      lastName: null,
      username: null,
      email: 'a@b.in',
      role: 'admin',
      isActive: true,
      status: 'suspended',
      plan: null,
      profileImageUrl: null,
      isSuperAdmin: false,
      twoFactorEnabled: false,
      createdAt: '2026-11-25T10:00:00.000Z',
      hospitalId: 'h1',
      hospitalName: 'Clinic',
      timeZone: 'Asia/Kolkata',
    }
    expect(currentUser.parse(user)).toEqual(user)
    expect(currentUser.parse({ ...user, status: 'active' }).status).toBe('active')
    expect(currentUser.safeParse({ ...user, status: 'deleted' }).success).toBe(false)
    expect(currentUser.safeParse({ ...user, role: 'owner' }).success).toBe(false)
  })
  it('makes only a super admin without two-factor enrol', () => {
    expect(mustEnrolTwoFactor({ isSuperAdmin: true, twoFactorEnabled: false })).toBe(true)
    expect(mustEnrolTwoFactor({ isSuperAdmin: true, twoFactorEnabled: true })).toBe(false)
    expect(mustEnrolTwoFactor({ isSuperAdmin: false, twoFactorEnabled: false })).toBe(false)
    expect(mustEnrolTwoFactor({ isSuperAdmin: false, twoFactorEnabled: true })).toBe(false)
  })
  it('answers a trial sign-up the same way whether or not the email is known', () => {
    expect(TRIAL_STARTED_MESSAGE).toBe(
      'Check your email: we have sent a link to activate your account. It is valid for 24 hours.',
    )
    expect(trialStarted.parse({ message: TRIAL_STARTED_MESSAGE })).toEqual({
      message: TRIAL_STARTED_MESSAGE,
    })
  })
})
