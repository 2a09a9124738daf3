import { describe, expect, it } from 'vitest'
import {
  defaultCallBack,
  dispositionLabel,
  followUpOf,
  formatCallBack,
  formatTimer,
  secondsSince,
  wallTimeToInstant,
} from './call-format'

const IST = 'Asia/Kolkata'

describe('formatTimer', () => {
  it('shows minutes and seconds, and hours once there are any', () => {
    expect(formatTimer(0)).toBe('0:00')
    expect(formatTimer(5)).toBe('0:05')
    expect(formatTimer(125)).toBe('2:05')
    expect(formatTimer(3723)).toBe('1:02:03')
    expect(formatTimer(-4)).toBe('0:00')
    expect(formatTimer(59.9)).toBe('0:59')
  })

  it('counts whole seconds since an instant', () => {
    const from = '2026-12-03T06:00:00.000Z'
    expect(secondsSince(from, Date.parse(from) + 61_500)).toBe(61)
    expect(secondsSince(from, Date.parse(from) - 2_000)).toBe(0)
    expect(secondsSince('not a date', Date.now())).toBe(0)
  })
})

describe('call-back time in the hospital zone', () => {
  it('defaults to tomorrow 11:00 in Asia/Kolkata, by its calendar not UTC', () => {
    // 3 Dec 20:00 UTC is already 4 Dec 01:30 in India: tomorrow there is the 5th.
    expect(defaultCallBack(new Date('2026-12-03T20:00:00Z'), IST)).toEqual({
      date: '2026-12-05',
      time: '11:00',
    })
    expect(defaultCallBack(new Date('2026-12-03T06:00:00Z'), IST)).toEqual({
      date: '2026-12-04',
      time: '11:00',
    })
    // The last day of a month and of a year roll over.
    expect(defaultCallBack(new Date('2026-12-31T10:00:00Z'), IST).date).toBe('2027-01-01')
  })

  it('turns the wall time into an instant with the zone offset', () => {
    const iso = wallTimeToInstant({ date: '2026-12-04', time: '11:00' }, IST)
    expect(iso).toMatch(/^2026-12-04T11:00:00(\.000)?\+05:30$/)
    expect(new Date(iso!).toISOString()).toBe('2026-12-04T05:30:00.000Z')
    expect(wallTimeToInstant({ date: '2026-02-30', time: '11:00' }, IST)).toBeNull()
    expect(wallTimeToInstant({ date: '2026-12-04', time: '25:00' }, IST)).toBeNull()
    expect(wallTimeToInstant({ date: '04/12/2026', time: '11:00' }, IST)).toBeNull()
  })

  it('reads back as "Fri 4 Dec, 11:00" in the zone', () => {
    expect(formatCallBack('2026-12-04T05:30:00.000Z', IST)).toBe('Fri 4 Dec, 11:00')
    expect(formatCallBack('2026-12-04T05:30:00.000Z', 'UTC')).toBe('Fri 4 Dec, 05:30')
  })

  it('names each disposition in words', () => {
    expect(dispositionLabel('call_back')).toBe('Call back at')
    expect(dispositionLabel('booked')).toBe('Booked an appointment')
  })
})

describe('followUpOf', () => {
  it("is the newest call's call-back time, replaced by any later call", () => {
    const at = '2026-12-04T05:30:00.000Z'
    expect(followUpOf([{ disposition: 'call_back', callBackAt: at }])).toBe(at)
    expect(
      followUpOf([
        { disposition: null, callBackAt: null },
        { disposition: 'call_back', callBackAt: at },
      ]),
    ).toBeNull()
    expect(followUpOf([{ disposition: 'interested', callBackAt: null }])).toBeNull()
    expect(followUpOf([])).toBeNull()
  })
})
