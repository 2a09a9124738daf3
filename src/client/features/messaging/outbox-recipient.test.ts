import { describe, expect, it } from 'vitest'
import { outboxRecipient } from './outbox-recipient'

describe('the Sandbox Outbox recipient (issue 40 item 16)', () => {
  it('formats phone numbers and leaves email addresses as they are', () => {
    expect(outboxRecipient('+919876543210')).toBe('+91 98765 43210')
    expect(outboxRecipient('whatsapp:+919876543210')).toBe('+91 98765 43210')
    expect(outboxRecipient('asha@example.in')).toBe('asha@example.in')
    expect(outboxRecipient(null)).toBe('unknown')
  })
})
