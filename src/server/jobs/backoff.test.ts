import { describe, expect, it } from 'vitest'
import { cleanError, exponentialBackoff } from './backoff'

describe('exponentialBackoff', () => {
  it('doubles up to the cap, with jitter between half and all of it', () => {
    const low = exponentialBackoff({ baseMs: 1000, maxMs: 10_000, random: () => 0 })
    const high = exponentialBackoff({ baseMs: 1000, maxMs: 10_000, random: () => 1 })
    expect([1, 2, 3, 4, 5, 6].map(high)).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000])
    expect([1, 2, 3].map(low)).toEqual([500, 1000, 2000])
  })
})

describe('cleanError', () => {
  it('keeps the message and drops credentials and tokens', () => {
    const text = cleanError(
      new Error(
        'GET https://graph.facebook.com/v19.0/123?access_token=EAAGsecret&fields=a failed; ' +
          'smtp://user:pa55@mail.example.in refused; Authorization: Bearer abc.def.ghi',
      ),
    )
    expect(text).toContain(
      'Error: GET https://graph.facebook.com/v19.0/123?access_token=[redacted]',
    )
    expect(text).not.toMatch(/EAAGsecret|pa55|abc\.def\.ghi/)
    expect(cleanError(new Error('x'.repeat(5000)))).toHaveLength(1000)
  })
})
