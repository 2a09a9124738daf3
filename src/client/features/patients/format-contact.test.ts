import { describe, expect, it } from 'vitest'
import { formatContact } from './format-contact'

describe('formatContact', () => {
  it('formats a contact that is just a phone', () => {
    expect(formatContact('9876543210')).toBe('+91 98765 43210')
    expect(formatContact('+919876543210')).toBe('+91 98765 43210')
    expect(formatContact('098765-43210')).toBe('+91 98765 43210')
  })

  it('formats a phone inside text and leaves the rest alone', () => {
    expect(formatContact('Ravi (husband) 9876543210')).toBe('Ravi (husband) +91 98765 43210')
    expect(formatContact('Ravi, 98765 43210, Pune')).toBe('Ravi, +91 98765 43210, Pune')
  })

  it('leaves text without a valid number as typed', () => {
    expect(formatContact('Ravi Kumar (husband)')).toBe('Ravi Kumar (husband)')
    expect(formatContact('Flat 12345678 nowhere')).toBe('Flat 12345678 nowhere')
    expect(formatContact('x'.repeat(300))).toBe('x'.repeat(300))
  })
})
