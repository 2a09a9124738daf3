import { describe, expect, it } from 'vitest'
import { signInInput, trialSignUpInput } from './auth'

const messageFor = (
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  field: string,
) => result.error?.issues.find((i) => i.path[0] === field)?.message

describe('email fields', () => {
  it("say 'Email is required' when empty or blank, and ask for a valid address otherwise", () => {
    for (const email of ['', '   ']) {
      expect(messageFor(trialSignUpInput.safeParse({ email }), 'email')).toBe('Email is required')
      expect(messageFor(signInInput.safeParse({ email, password: 'x' }), 'email')).toBe(
        'Email is required',
      )
    }
    expect(messageFor(trialSignUpInput.safeParse({}), 'email')).toBe('Email is required')
    expect(messageFor(trialSignUpInput.safeParse({ email: 'not-an-email' }), 'email')).toBe(
      'Enter a valid email address',
    )
    expect(signInInput.parse({ email: ' Asha@Clinic.IN ', password: 'x' }).email).toBe(
      'asha@clinic.in',
    )
  })
})
