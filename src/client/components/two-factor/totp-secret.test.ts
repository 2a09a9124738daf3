import { describe, expect, it } from 'vitest'
import { groupSecret, secretOf } from './totp-secret'

describe('secretOf', () => {
  it('reads the secret of an otpauth URI', () => {
    expect(
      secretOf('otpauth://totp/Arogya%20CRM:a%40b.in?secret=jbswy3dpehpk3pxp&issuer=Arogya%20CRM'),
    ).toBe('JBSWY3DPEHPK3PXP')
  })

  it('is empty for a URI without one', () => {
    expect(secretOf('otpauth://totp/x')).toBe('')
  })
})

describe('groupSecret', () => {
  it('groups by four, the last group shorter', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPAB')).toBe('JBSW Y3DP EHPK 3PXP AB')
    expect(groupSecret('')).toBe('')
  })
})
