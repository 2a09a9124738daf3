import { describe, expect, it } from 'vitest'
import { hostileTargets } from '../../../tests/support/hostile-redirects'
import { safeNextPath, signInHref } from './next-path'

describe('safeNextPath', () => {
  it('honours paths on this site, with their query and hash', () => {
    expect(safeNextPath('/patients')).toBe('/patients')
    expect(safeNextPath('/patients?search=meera%20joshi')).toBe('/patients?search=meera%20joshi')
    expect(safeNextPath('/settings#security')).toBe('/settings#security')
    expect(safeNextPath('/')).toBe('/')
  })

  it('ignores other sites, odd schemes and paths that are not pages to return to', () => {
    for (const raw of [
      null,
      undefined,
      '',
      'https://evil.example',
      'https://evil.example/patients',
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'patients',
      '/\tpatients',
      ' /patients',
      '/login',
      '/login?next=/patients',
      '/api/logout',
      '/api',
      `/${'a'.repeat(2001)}`,
    ])
      expect(safeNextPath(raw), String(raw)).toBeNull()
  })

  it('refuses dot segments and encoded slashes rather than guessing what they mean', () => {
    for (const raw of ['/../patients', '/./%2F%2Fevil.example', '/%2f%2fevil.example', '/%5cevil'])
      expect(safeNextPath(raw), raw).toBeNull()
  })

  it('refuses every hostile redirect target', () => {
    for (const raw of hostileTargets) expect(safeNextPath(raw), raw).toBeNull()
  })
})

describe('signInHref', () => {
  it('keeps the path readable and encodes the rest', () => {
    expect(signInHref('/patients')).toBe('/login?next=/patients')
    expect(signInHref('/patients?search=a&b=c')).toBe('/login?next=/patients%3Fsearch%3Da%26b%3Dc')
    expect(
      safeNextPath(new URLSearchParams('next=/patients%3Fsearch%3Da%26b%3Dc').get('next')),
    ).toBe('/patients?search=a&b=c')
  })
})
