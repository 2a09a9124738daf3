import { describe, expect, it } from 'vitest'
import { presetRange } from './report-range'

describe('presetRange', () => {
  it('counts days in the hospital’s zone, today included', () => {
    // 20:00 UTC on 2 Dec is 01:30 on 3 Dec in India.
    const now = new Date('2026-12-02T20:00:00Z')
    expect(presetRange('today', now, 'Asia/Kolkata')).toEqual({
      from: '2026-12-03',
      to: '2026-12-03',
    })
    expect(presetRange('7', now, 'Asia/Kolkata')).toEqual({ from: '2026-11-27', to: '2026-12-03' })
    expect(presetRange('30', now, 'UTC')).toEqual({ from: '2026-11-03', to: '2026-12-02' })
  })
})
