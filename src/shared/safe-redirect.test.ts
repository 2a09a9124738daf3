import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hostileTargets } from '../../tests/support/hostile-redirects'
import { isSafeRedirectPath, redirectPathOr, safeRedirectPath } from './safe-redirect'

describe('safeRedirectPath', () => {
  it('honours paths on this site, with their query and hash', () => {
    for (const path of [
      '/',
      '/patients',
      '/patients?x=1',
      '/patients?search=meera%20joshi',
      '/patients?search=a&sort=name',
      '/patients/123e4567-e89b-12d3-a456-426614174000',
      '/settings#security',
      '/patients?next=/login',
      // The query may carry anything encoded: it never decides where the browser goes.
      '/patients?q=%2F%2Fevil.example',
      '/a.b/c-d_e~f',
      '/patients/',
    ])
      expect(safeRedirectPath(path), path).toBe(path)
  })

  it('returns the form a URL parser writes (non-ASCII is percent-encoded)', () => {
    expect(safeRedirectPath('/patients?search=नमस्ते')).toBe(
      '/patients?search=%E0%A4%A8%E0%A4%AE%E0%A4%B8%E0%A5%8D%E0%A4%A4%E0%A5%87',
    )
    expect(safeRedirectPath('/patients?q="x"')).toBe('/patients?q=%22x%22')
  })

  it.each(hostileTargets)('refuses %j', (raw) => {
    expect(safeRedirectPath(raw)).toBeNull()
    expect(isSafeRedirectPath(raw)).toBe(false)
  })

  it('refuses what is not a string', () => {
    for (const raw of [null, undefined, 0, 1, true, {}, ['/patients'], new URL('http://x/')])
      expect(safeRedirectPath(raw)).toBeNull()
  })

  it('falls back to / or the screen default', () => {
    expect(redirectPathOr('https://evil.example')).toBe('/')
    expect(redirectPathOr('//evil.example', '/dashboard')).toBe('/dashboard')
    expect(redirectPathOr('/patients', '/dashboard')).toBe('/patients')
    expect(redirectPathOr(undefined)).toBe('/')
  })

  it('never yields a target that leaves this site, whatever the input (property)', () => {
    const pieces = fc.constantFrom(
      '/',
      '\\',
      '.',
      '%',
      '2f',
      '5c',
      '2e',
      ':',
      '@',
      '?',
      '#',
      '\t',
      '\n',
      ' ',
      'evil.example',
      'http',
      'javascript',
      'patients',
      '\u3000',
      'ａ',
      '／',
    )
    const target = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.array(pieces, { maxLength: 12 }).map((p) => p.join('')),
      fc.array(pieces, { maxLength: 12 }).map((p) => `/${p.join('')}`),
    )
    fc.assert(
      fc.property(target, (raw) => {
        const safe = safeRedirectPath(raw)
        if (safe === null) return
        // Resolved against a page of this site it stays on this site, and so does the result
        // after each further decoding a careless layer might apply.
        for (const base of ['https://crm.example/login', 'http://localhost:5000/a/b']) {
          expect(new URL(safe, base).origin).toBe(new URL(base).origin)
          expect(new URL(raw, base).origin).toBe(new URL(base).origin)
        }
        expect(safe.startsWith('/')).toBe(true)
        expect(safe.startsWith('//')).toBe(false)
        expect(safe).not.toMatch(/[\\\s]/)
        let decoded = safe
        for (let i = 0; i < 3; i++) {
          try {
            decoded = decodeURIComponent(decoded)
          } catch {
            break
          }
          const path = decoded.split(/[?#]/)[0] ?? ''
          expect(path.startsWith('//'), decoded).toBe(false)
          expect(path.includes('\\'), decoded).toBe(false)
        }
        // Applying the rule again changes nothing.
        expect(safeRedirectPath(safe)).toBe(safe)
      }),
      { numRuns: 2000 },
    )
  })
})
