import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { publicUrl } from './public-url'

const request = (url: string, host = 'internal:3000', protocol = 'http') =>
  ({ url, host, protocol }) as unknown as FastifyRequest

describe('publicUrl (what Twilio signed)', () => {
  it('is BASE_URL followed by the path and query as received', () => {
    expect(
      publicUrl(request('/api/webhooks/twilio/h/status?c=1&x=%20'), 'https://crm.example.in'),
    ).toBe('https://crm.example.in/api/webhooks/twilio/h/status?c=1&x=%20')
    expect(publicUrl(request('/api/x'), 'https://crm.example.in/')).toBe(
      'https://crm.example.in/api/x',
    )
    expect(publicUrl(request('/api/x'), 'https://example.in/crm')).toBe(
      'https://example.in/crm/api/x',
    )
  })

  it("is the request's own origin without BASE_URL (default ports dropped)", () => {
    expect(publicUrl(request('/api/x?a=1', 'localhost:80'), undefined)).toBe(
      'http://localhost/api/x?a=1',
    )
    expect(publicUrl(request('/api/x', 'clinic.test:8443', 'https'), undefined)).toBe(
      'https://clinic.test:8443/api/x',
    )
  })
})
