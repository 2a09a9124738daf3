import { describe, expect, it } from 'vitest'
import { defaultWorkingHours } from '../../../shared/scheduling'
import {
  bookingDays,
  freeSlots,
  gridStarts,
  hoursOn,
  isFree,
  slotProblem,
  withinBookingDays,
  zonedInstant,
} from './booking-slots'
import { maskedPhone } from './booking-code'

const IST = 'Asia/Kolkata'
// Wednesday Nov 25, 2026, 10:07 IST.
const now = new Date('2026-11-25T04:37:00Z')

describe('booking slots', () => {
  it('reads wall-clock times in the hospital zone', () => {
    expect(zonedInstant('2026-11-26', 9 * 60, IST).toISOString()).toBe('2026-11-26T03:30:00.000Z')
    expect(zonedInstant('2026-11-26', 9 * 60, 'America/New_York').toISOString()).toBe(
      '2026-11-26T14:00:00.000Z',
    )
  })

  it('knows closed days and the 14 days ahead, today first in the zone', () => {
    expect(hoursOn('2026-11-29', defaultWorkingHours)).toBeNull() // Sunday
    expect(hoursOn('2026-11-26', defaultWorkingHours)).toEqual([540, 1200])
    // 23:30 UTC on the 24th is already the 25th in India.
    const days = bookingDays(new Date('2026-11-24T23:30:00Z'), IST, defaultWorkingHours)
    expect(days).toHaveLength(14)
    expect(days[0]).toEqual({ date: '2026-11-25', label: 'Wed, Nov 25', open: true })
    expect(days[4]).toMatchObject({ date: '2026-11-29', open: false })
    expect(withinBookingDays('2026-12-08', now, IST)).toBe(true)
    expect(withinBookingDays('2026-12-09', now, IST)).toBe(false)
    expect(withinBookingDays('2026-11-24', now, IST)).toBe(false)
  })

  it('puts a service on a 15-minute grid that ends by closing time', () => {
    expect(gridStarts('2026-11-26', IST, defaultWorkingHours, 15)).toHaveLength(44)
    expect(gridStarts('2026-11-26', IST, defaultWorkingHours, 60)).toHaveLength(41)
    expect(gridStarts('2026-11-29', IST, defaultWorkingHours, 15)).toEqual([])
  })

  it('keeps a slot when any one doctor is free, never a past one', () => {
    const busy = new Map([
      ['a', [{ start: new Date('2026-11-25T05:00:00Z'), end: new Date('2026-11-25T05:30:00Z') }]],
      ['b', [{ start: new Date('2026-11-25T04:45:00Z'), end: new Date('2026-11-25T05:15:00Z') }]],
    ])
    const one = freeSlots({
      date: '2026-11-25',
      timeZone: IST,
      hours: defaultWorkingHours,
      duration: 15,
      now,
      doctorIds: ['a'],
      busy,
    })
    expect(one[0]?.label).toBe('10:15 AM') // 10:07 now: 10:00 has passed
    expect(one.map((s) => s.label)).not.toContain('10:30 AM')
    const both = freeSlots({
      date: '2026-11-25',
      timeZone: IST,
      hours: defaultWorkingHours,
      duration: 15,
      now,
      doctorIds: ['a', 'b'],
      busy,
    })
    // 10:30: both busy; 10:45: b is free again.
    expect(both.map((s) => s.label)).not.toContain('10:30 AM')
    expect(both.map((s) => s.label)).toContain('10:45 AM')
    expect(isFree(busy.get('a') ?? [], new Date('2026-11-25T05:30:00Z'), 15)).toBe(true)
  })

  it('says why a start is not bookable', () => {
    const o = { timeZone: IST, hours: defaultWorkingHours, duration: 30, now }
    expect(slotProblem({ ...o, start: new Date('2026-11-26T03:30:00Z') })).toBeNull()
    expect(slotProblem({ ...o, start: new Date('2026-11-25T04:30:00Z') })).toMatch(/passed/)
    expect(slotProblem({ ...o, start: new Date('2026-11-26T03:37:00Z') })).toMatch(/listed slot/)
    expect(slotProblem({ ...o, start: new Date('2026-11-26T14:15:00Z') })).toMatch(/listed slot/) // 19:45 + 30 > 20:00
    expect(slotProblem({ ...o, start: new Date('2026-11-29T05:30:00Z') })).toMatch(/listed slot/)
    expect(slotProblem({ ...o, start: new Date('2026-12-10T05:30:00Z') })).toMatch(/14 days/)
  })

  it('masks the mobile a code went to', () => {
    expect(maskedPhone('+919876543210')).toBe('+91 98765 •••10')
  })
})
