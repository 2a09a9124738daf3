import { describe, expect, it } from 'vitest'
import { defaultWorkingHours, type WorkingHours } from '@/shared/scheduling'
import {
  appointmentWhen,
  calendarBounds,
  formatClock,
  hasStarted,
  isWithinHours,
  slotToInstant,
  startTimes,
  takenStartTimes,
  todayInZone,
  wallClockParts,
  wallClockToInstant,
  zonedParts,
  zonedWallClock,
} from './appointment-time'

const KOLKATA = 'Asia/Kolkata'

describe('zone formatting', () => {
  it('shows an instant in the hospital zone, not the machine one', () => {
    // 04:30 UTC is 10:00 in Kolkata (UTC+5:30) and 00:30 in New York (UTC-4 in summer).
    expect(appointmentWhen('2026-11-26T04:30:00.000Z', KOLKATA)).toEqual({
      date: 'Nov 26, 2026',
      time: '10:00 AM',
    })
    expect(appointmentWhen('2026-07-01T04:30:00.000Z', 'America/New_York')).toEqual({
      date: 'Jul 01, 2026',
      time: '12:30 AM',
    })
  })

  it('crosses midnight by the zone: 20:00 UTC is the next morning in Kolkata', () => {
    expect(zonedParts('2026-11-25T20:00:00.000Z', KOLKATA)).toEqual({
      date: '2026-11-26',
      time: '01:30',
    })
    expect(todayInZone(KOLKATA, new Date('2026-11-25T20:00:00.000Z'))).toBe('2026-11-26')
    expect(todayInZone('UTC', new Date('2026-11-25T20:00:00.000Z'))).toBe('2026-11-25')
  })

  it('formats a wall-clock time as h:mm a', () => {
    expect(formatClock('09:05')).toBe('9:05 AM')
    expect(formatClock('00:00')).toBe('12:00 AM')
    expect(formatClock('12:30')).toBe('12:30 PM')
    expect(formatClock('19:45')).toBe('7:45 PM')
  })
})

describe('slot ↔ date and time', () => {
  it('turns a wall clock into its instant and back', () => {
    const instant = wallClockToInstant({ date: '2026-11-26', time: '10:00' }, KOLKATA)
    expect(instant.toISOString()).toBe('2026-11-26T04:30:00.000Z')
    expect(zonedParts(instant, KOLKATA)).toEqual({ date: '2026-11-26', time: '10:00' })
  })

  it('hands the calendar a local Date that reads the hospital wall clock', () => {
    const local = zonedWallClock('2026-11-26T04:30:00.000Z', KOLKATA)
    expect([local.getFullYear(), local.getMonth(), local.getDate()]).toEqual([2026, 10, 26])
    expect([local.getHours(), local.getMinutes()]).toEqual([10, 0])
    // And a slot picked on the calendar goes back to the same date, time and instant.
    expect(wallClockParts(local)).toEqual({ date: '2026-11-26', time: '10:00' })
    expect(slotToInstant(local, KOLKATA).toISOString()).toBe('2026-11-26T04:30:00.000Z')
  })

  it('round-trips every quarter hour of a day in a zone with a daylight-saving change', () => {
    for (let m = 0; m < 24 * 60; m += 15) {
      const time = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
      const instant = wallClockToInstant({ date: '2026-11-26', time }, 'Europe/London')
      expect(zonedParts(instant, 'Europe/London')).toEqual({ date: '2026-11-26', time })
    }
  })

  it('knows when an appointment has started', () => {
    const now = new Date('2026-11-26T04:30:00.000Z')
    expect(hasStarted('2026-11-26T04:29:00.000Z', now)).toBe(true)
    expect(hasStarted('2026-11-26T04:30:00.000Z', now)).toBe(true)
    expect(hasStarted('2026-11-26T04:31:00.000Z', now)).toBe(false)
  })
})

describe('working hours', () => {
  const thursday10 = new Date(2026, 10, 26, 10, 0)
  const sunday10 = new Date(2026, 10, 29, 10, 0)

  it('is open 09:00–20:00 Monday to Saturday and closed on Sunday by default', () => {
    expect(isWithinHours(defaultWorkingHours, thursday10)).toBe(true)
    expect(isWithinHours(defaultWorkingHours, sunday10)).toBe(false)
    expect(isWithinHours(defaultWorkingHours, new Date(2026, 10, 26, 8, 45))).toBe(false)
    expect(isWithinHours(defaultWorkingHours, new Date(2026, 10, 26, 19, 30), 30)).toBe(true)
    expect(isWithinHours(defaultWorkingHours, new Date(2026, 10, 26, 19, 45), 30)).toBe(false)
  })

  it('bounds the calendar by the earliest opening and the latest closing', () => {
    const hours: WorkingHours = {
      ...defaultWorkingHours,
      '1': ['08:30', '13:00'],
      '6': ['10:00', '21:30'],
    }
    const { min, max } = calendarBounds(hours)
    expect([min.getHours(), min.getMinutes()]).toEqual([8, 30])
    expect([max.getHours(), max.getMinutes()]).toEqual([21, 30])
  })

  it('falls back to the default hours when every day is closed', () => {
    const closed = Object.fromEntries(
      Object.keys(defaultWorkingHours).map((d) => [d, null]),
    ) as WorkingHours
    const { min, max } = calendarBounds(closed)
    expect(min.getHours()).toBe(9)
    expect(max.getHours()).toBe(20)
  })

  it('offers start times every 15 minutes within the hours, keeping an edited time', () => {
    const times = startTimes(defaultWorkingHours)
    expect(times[0]).toBe('09:00')
    expect(times.at(-1)).toBe('19:45')
    expect(times).toHaveLength(44)
    expect(startTimes(defaultWorkingHours, 15, '07:10')[0]).toBe('07:10')
  })
})

describe('takenStartTimes (issue 40, item 12)', () => {
  it('marks every start whose booking would overlap a taken time, by the chosen duration', () => {
    // 10:00-10:30 and 11:15-11:30 in Kolkata are taken (04:30Z-05:00Z, 05:45Z-06:00Z).
    const busy = [
      { startsAt: '2026-11-26T04:30:00.000Z', endsAt: '2026-11-26T05:00:00.000Z' },
      { startsAt: '2026-11-26T05:45:00.000Z', endsAt: '2026-11-26T06:00:00.000Z' },
    ]
    const times = ['09:30', '09:45', '10:00', '10:15', '10:30', '11:00', '11:15', '11:30']
    expect([...takenStartTimes(times, '2026-11-26', 15, busy, KOLKATA)]).toEqual([
      '10:00',
      '10:15',
      '11:15',
    ])
    // 30 minutes from 09:45 runs into 10:00; from 11:00 into 11:15.
    expect([...takenStartTimes(times, '2026-11-26', 30, busy, KOLKATA)]).toEqual([
      '09:45',
      '10:00',
      '10:15',
      '11:00',
      '11:15',
    ])
    expect(takenStartTimes(times, '2026-11-27', 30, busy, KOLKATA).size).toBe(0)
  })
})
