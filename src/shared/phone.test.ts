import { describe, expect, it } from 'vitest'
import { formatPhone, normalizeMobilePhone, normalizePhone } from './phone'

const bothNormalisers = [
  ['normalizePhone', normalizePhone],
  ['normalizeMobilePhone', normalizeMobilePhone],
] as const

describe.each(bothNormalisers)('%s', (_name, normalize) => {
  it.each([
    '9876543210',
    '98765 43210',
    '09876543210',
    '+91 98765 43210',
    '+919876543210',
    '91 98765 43210',
    '  98765-43210 ',
    '(98765) 43210',
    '+91-98765-43210',
  ])('reads %j as +919876543210', (input) => {
    expect(normalize(input)).toBe('+919876543210')
  })

  it.each([
    ['+1 212 555 0123', '+12125550123'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+44 7911 123456', '+447911123456'],
    ['+971 50 123 4567', '+971501234567'],
  ])('keeps the other country’s number %j as %s', (input, e164) => {
    expect(normalize(input)).toBe(e164)
  })

  it.each([
    '',
    '   ',
    'abc',
    'call me',
    '12345',
    '98765',
    '98765432109876',
    '5555555555',
    '+91 55555 55555',
    '+',
    '++919876543210',
    '9876543210 ext 5',
    '98765\u000043210',
    "98765'; drop table patients;--",
    '٩٨٧٦٥٤٣٢١٠',
    '+44 20 7946',
    '+1 212 555 012',
  ])('rejects %j', (input) => {
    expect(normalize(input)).toBeNull()
  })
})

describe('normalizePhone', () => {
  it('accepts Indian landlines with an STD code', () => {
    expect(normalizePhone('020 2550 1234')).toBe('+912025501234')
    expect(normalizePhone('(020) 2550 1234')).toBe('+912025501234')
    expect(normalizePhone('080 4123 4567')).toBe('+918041234567')
  })
})

describe('normalizeMobilePhone', () => {
  it.each(['1234567890', '+91 12345 67890', '020 2550 1234', '080 4123 4567', '011 2345 6789'])(
    'refuses the Indian number %j: valid perhaps, but not a mobile',
    (input) => {
      expect(normalizeMobilePhone(input)).toBeNull()
    },
  )

  it.each([
    ['6000000000', '+916000000000'],
    ['70000 00000', '+917000000000'],
    ['+91 98220 12345', '+919822012345'],
    ['088888 12345', '+918888812345'],
  ])('accepts the Indian mobile %j', (input, e164) => {
    expect(normalizeMobilePhone(input)).toBe(e164)
  })
})

describe('formatPhone', () => {
  it('shows E.164 in international form', () => {
    expect(formatPhone('+919876543210')).toBe('+91 98765 43210')
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958')
  })

  it('returns unreadable text unchanged', () => {
    expect(formatPhone('garbage')).toBe('garbage')
  })
})
