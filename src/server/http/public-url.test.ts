import { describe, expect, it } from 'vitest'
import { publicBase, publicUrl } from './public-url'

const arrived = (host = 'internal:3000', protocol = 'http') => ({ host, protocol })

describe('publicUrl: the one builder of public URLs', () => {
  it('is BASE_URL followed by the path (a prefix kept, trailing slashes dropped)', () => {
    expect(publicUrl('https://crm.example.in', arrived(), '/api/x?c=1&x=%20')).toBe(
      'https://crm.example.in/api/x?c=1&x=%20',
    )
    expect(publicUrl('https://crm.example.in/', arrived(), '/api/x')).toBe(
      'https://crm.example.in/api/x',
    )
    expect(publicUrl('https://example.in/crm//', arrived(), '/api/x')).toBe(
      'https://example.in/crm/api/x',
    )
    expect(publicUrl('https://CRM.example.in:443', arrived(), 'invite')).toBe(
      'https://crm.example.in/invite',
    )
  })

  it("is the request's own origin without BASE_URL (default ports dropped), never localhost:3000", () => {
    expect(publicUrl(undefined, arrived('localhost:80'), '/api/x?a=1')).toBe(
      'http://localhost/api/x?a=1',
    )
    expect(publicUrl(undefined, arrived('clinic.test:8443', 'https'), '/api/x')).toBe(
      'https://clinic.test:8443/api/x',
    )
    expect(publicBase(undefined, arrived('192.168.1.20:5000'))).toBe('http://192.168.1.20:5000')
  })

  it('refuses a strange Host header and an unknown scheme', () => {
    expect(publicBase(undefined, arrived('a"><script>'))).toBe('http://localhost')
    expect(publicBase(undefined, arrived('a.test/evil'))).toBe('http://localhost')
    expect(publicBase(undefined, arrived('a.test', 'javascript'))).toBe('http://a.test')
  })
})
