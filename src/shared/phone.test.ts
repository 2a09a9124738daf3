import { describe, expect, it } from 'vitest'
import { formatPhone, normalizePhone } from './phone'

describe('normalizePhone', () => {
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
    expect(normalizePhone(input)).toBe('+919876543210')
  })

  it('keeps other countries’ numbers given with a country code', () => {
    expect(normalizePhone('+1 212 555 0123')).toBe('+12125550123')
    expect(normalizePhone('+44 20 7946 0958')).toBe('+442079460958')
  })

  it('accepts Indian landlines with an STD code', () => {
    expect(normalizePhone('020 2550 1234')).toBe('+912025501234')
    expect(normalizePhone('(020) 2550 1234')).toBe('+912025501234')
  })

  it.each([
    '',
    '   ',
    'abc',
    'call me',
    '12345',
    '98765',
    '98765432109876',
    '+',
    '++919876543210',
    '9876543210 ext 5',
    '98765\u000043210',
    "98765'; drop table patients;--",
    '٩٨٧٦٥٤٣٢١٠',
  ])('rejects %j', (input) => {
    expect(normalizePhone(input)).toBeNull()
  })
})

describe('formatPhone', () => {
  it('shows E.164 in international form', () => {
    expect(formatPhone('+919876543210')).toBe('+91 98765 43210')
  })

  it('returns unreadable text unchanged', () => {
    expect(formatPhone('garbage')).toBe('garbage')
  })
})
