import { describe, expect, it } from 'vitest'
import { exponentialBackoff } from './backoff'

describe('exponentialBackoff', () => {
  it('doubles up to the cap, with jitter between half and all of it', () => {
    const low = exponentialBackoff({ baseMs: 1000, maxMs: 10_000, random: () => 0 })
    const high = exponentialBackoff({ baseMs: 1000, maxMs: 10_000, random: () => 1 })
    expect([1, 2, 3, 4, 5, 6].map(high)).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000])
    expect([1, 2, 3].map(low)).toEqual([500, 1000, 2000])
  })
})
