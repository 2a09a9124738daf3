import { describe, expect, it } from 'vitest'
import { heldByQuietHours, nextOpening } from './quiet-hours'

const ist = { timeZone: 'Asia/Kolkata', start: '10:00', end: '21:00' }

describe('quiet hours', () => {
  it('holds marketing WhatsApp and promotional or service-explicit SMS only', () => {
    expect(heldByQuietHours('whatsapp', 'marketing')).toBe(true)
    expect(heldByQuietHours('whatsapp', 'utility')).toBe(false)
    expect(heldByQuietHours('sms', 'promotional')).toBe(true)
    expect(heldByQuietHours('sms', 'service_explicit')).toBe(true)
    expect(heldByQuietHours('sms', 'service_implicit')).toBe(false)
    expect(heldByQuietHours('sms', 'transactional')).toBe(false)
    expect(heldByQuietHours('email', 'marketing')).toBe(false)
    expect(heldByQuietHours('whatsapp', null)).toBe(false)
  })

  it('is open inside the window, in the hospital zone', () => {
    // 12:00 IST = 06:30 UTC.
    expect(nextOpening(new Date('2026-11-25T06:30:00Z'), ist)).toBeNull()
    // 10:00 IST exactly: open; 21:00 IST: closed.
    expect(nextOpening(new Date('2026-11-25T04:30:00Z'), ist)).toBeNull()
    expect(nextOpening(new Date('2026-11-25T15:30:00Z'), ist)?.toISOString()).toBe(
      '2026-11-26T04:30:00.000Z',
    )
  })

  it('holds until this morning before the window, tomorrow morning after it', () => {
    // 07:00 IST → 10:00 IST the same day.
    expect(nextOpening(new Date('2026-11-25T01:30:00Z'), ist)?.toISOString()).toBe(
      '2026-11-25T04:30:00.000Z',
    )
    // 23:30 IST → 10:00 IST the next day (the UTC date is still the 25th at 18:00).
    expect(nextOpening(new Date('2026-11-25T18:00:00Z'), ist)?.toISOString()).toBe(
      '2026-11-26T04:30:00.000Z',
    )
    // Another zone: 08:00 in London (winter, UTC) → 10:00 London.
    const london = { ...ist, timeZone: 'Europe/London' }
    expect(nextOpening(new Date('2026-11-25T08:00:00Z'), london)?.toISOString()).toBe(
      '2026-11-25T10:00:00.000Z',
    )
  })

  it('handles a window past midnight and an always-open one', () => {
    const night = { timeZone: 'Asia/Kolkata', start: '22:00', end: '06:00' }
    expect(nextOpening(new Date('2026-11-25T17:30:00Z'), night)).toBeNull() // 23:00 IST
    expect(nextOpening(new Date('2026-11-25T23:30:00Z'), night)).toBeNull() // 05:00 IST
    expect(nextOpening(new Date('2026-11-25T06:30:00Z'), night)?.toISOString()).toBe(
      '2026-11-25T16:30:00.000Z',
    )
    expect(nextOpening(new Date(), { ...night, end: '22:00' })).toBeNull()
  })
})
