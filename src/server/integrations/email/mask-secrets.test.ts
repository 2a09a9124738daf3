import { describe, expect, it } from 'vitest'
import { maskSecrets, maskToken } from './mask-secrets'

const INVITE = `${'0123456789abcdef'.repeat(2)}.${'Ab9_-'.repeat(8)}xyz`
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImFAYi5jIn0.c2lnbmF0dXJlLXNpZ24'

describe('maskSecrets', () => {
  it('masks a link fragment (invitation) and token-like query values (activation)', () => {
    expect(maskSecrets(`Open:\nhttps://crm.example/invite#${INVITE}\nThanks`)).toBe(
      `Open:\nhttps://crm.example/invite#••••${INVITE.slice(-4)}\nThanks`,
    )
    expect(
      maskSecrets(`https://crm.example/api/auth/verify-email?token=${JWT}&callbackURL=%2F`),
    ).toBe(`https://crm.example/api/auth/verify-email?token=••••${JWT.slice(-4)}&callbackURL=%2F`)
  })

  it('leaves what is not a token: short fragments and values, paths, plain text', () => {
    for (const text of [
      'https://crm.example/pricing#plans',
      'https://crm.example/login?next=/patients&tab=all',
      'https://crm.example/book/sanjeevani-multi-speciality-hospital',
      'Your ticket "GSTIN wrong" is resolved.',
    ]) {
      expect(maskSecrets(text)).toBe(text)
    }
  })

  it('masks declared secrets anywhere, longest first', () => {
    expect(maskSecrets('code 12345678 and 1234567890', ['12345678', '1234567890'])).toBe(
      'code ••••5678 and ••••7890',
    )
    expect(maskToken('abcdefgh')).toBe('••••efgh')
  })
})
