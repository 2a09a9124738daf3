import type { IncomingHttpHeaders } from 'node:http'
import { expect } from 'vitest'
import { REDIRECT_PARAMS } from '../../src/server/auth/forward'
import { REDIRECT_MAX_LENGTH } from '../../src/shared/safe-redirect'

/** Targets that lead, or could be read as leading, somewhere other than a page of this site. */
export const hostileTargets = [
  // other origins, absolute
  'https://evil.example',
  'https://evil.example/phish',
  'http://evil.example/phish',
  'HTTPS://EVIL.EXAMPLE',
  'http://127.0.0.1.evil.example/',
  'http://localhost.evil.example/',
  'http://localhost@evil.example/',
  'https://evil.example\\@localhost/',
  'ftp://evil.example/',
  // scheme-relative and its look-alikes
  '//evil.example',
  '//evil.example/patients',
  '///evil.example',
  '////evil.example',
  '/\\evil.example',
  '\\/evil.example',
  '\\\\evil.example',
  '/\\/evil.example',
  '/ /evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  '/\u0000/evil.example',
  '/\u00a0/evil.example',
  '/\u3000/evil.example',
  '/\u2028/evil.example',
  '/\ufeff/evil.example',
  '\t//evil.example',
  ' /patients',
  '/patients ',
  // scheme without slashes
  'https:evil.example',
  'http:evil.example',
  'https:/evil.example',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  // percent-encoded separators, dots and controls
  '/%2f%2fevil.example',
  '/%2F%2Fevil.example',
  '/%2fevil.example',
  '/%5cevil.example',
  '/%5Cevil.example',
  '/%5c%5cevil.example',
  '/%252f%252fevil.example',
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%00',
  '/%20/evil.example',
  '/%2e%2e/evil.example',
  '/.%2e/patients',
  '%2f%2fevil.example',
  '%2F',
  // dot segments
  '/./patients',
  '/../patients',
  '/patients/..',
  '/patients/.',
  '/./%2F%2Fevil.example',
  // not a root-relative path at all
  'patients',
  './patients',
  '../patients',
  '?next=/patients',
  '#/patients',
  'evil.example',
  '',
  `/${'a'.repeat(REDIRECT_MAX_LENGTH)}`,
] as const

/** What the outside scan used, beside every target the unit tests refuse. */
export const targets = [
  'https://evil.example/phish',
  'http://evil.example/phish',
  'http://127.0.0.1.evil.example/',
  'http://localhost.evil.example/',
  'https://crm.example.evil.example/',
  ...hostileTargets,
]

/** A redirect target or URL in a body, resolved the way a browser on our origin would. */
export function expectOnSite(value: string, origin: string, what: string): void {
  const resolved = new URL(value, `${origin}/login`)
  expect(resolved.origin, `${what}: ${value}`).toBe(origin)
  expect(value, what).not.toMatch(/^\s*(javascript|data|vbscript):/i)
  expect(value.startsWith('//') || value.startsWith('/\\'), `${what}: ${value}`).toBe(false)
}

/** Every string under a key that names a URL or redirect, at any depth. */
export function urlsIn(value: unknown, key = ''): string[] {
  if (typeof value === 'string')
    return /url|redirect|callback|location|next/i.test(key) ? [value] : []
  if (Array.isArray(value)) return value.flatMap((v) => urlsIn(v, key))
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => urlsIn(v, k))
  return []
}

export interface Answer {
  statusCode: number
  headers: Record<string, unknown> | IncomingHttpHeaders
  body: string
}

export function expectNoOffSiteRedirect(res: Answer, origin: string, what: string): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500)
  const location = res.headers.location
  if (location !== undefined) expectOnSite(String(location), origin, `${what} Location`)
  if (/^application\/json/.test(String(res.headers['content-type'] ?? '')) && res.body) {
    for (const url of urlsIn(JSON.parse(res.body))) expectOnSite(url, origin, `${what} JSON`)
  }
}

/** The hostile targets in groups of four, one per redirect parameter. */
export function groups(): Record<string, string>[] {
  const out: Record<string, string>[] = []
  for (let i = 0; i < targets.length; i += REDIRECT_PARAMS.length) {
    out.push(
      Object.fromEntries(
        REDIRECT_PARAMS.map((p, j) => [p, targets[(i + j) % targets.length] ?? '']),
      ),
    )
  }
  return out
}

export const query = (params: Record<string, string>, extra = '') =>
  `?${new URLSearchParams({ ...params, next: params.callbackURL ?? '' })}${extra}`
