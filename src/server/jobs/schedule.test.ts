import { describe, expect, it } from 'vitest'
import { currentSlot, schedule, slotKey } from './schedule'

describe('currentSlot', () => {
  it('aligns interval slots to the epoch', () => {
    const spec = { everyMs: 60_000 }
    expect(currentSlot(spec, new Date('2026-11-23T10:00:59.999Z')).toISOString()).toBe(
      '2026-11-23T10:00:00.000Z',
    )
    expect(currentSlot(spec, new Date('2026-11-23T10:01:00.000Z')).toISOString()).toBe(
      '2026-11-23T10:01:00.000Z',
    )
  })

  it("finds the latest HH:MM in the schedule's time zone, not the server's", () => {
    const spec = { dailyAt: '09:00', timeZone: 'Asia/Kolkata' }
    // 09:00 in Kolkata is 03:30 UTC.
    expect(currentSlot(spec, new Date('2026-11-23T03:29:59Z')).toISOString()).toBe(
      '2026-11-22T03:30:00.000Z',
    )
    expect(currentSlot(spec, new Date('2026-11-23T03:30:00Z')).toISOString()).toBe(
      '2026-11-23T03:30:00.000Z',
    )
    // 23:00 UTC on the 23rd is already the 24th in Kolkata.
    expect(currentSlot(spec, new Date('2026-11-23T23:00:00Z')).toISOString()).toBe(
      '2026-11-23T03:30:00.000Z',
    )
    // Across a month end.
    expect(currentSlot(spec, new Date('2026-12-01T01:00:00Z')).toISOString()).toBe(
      '2026-11-30T03:30:00.000Z',
    )
  })

  it('follows daylight saving where the zone has it', () => {
    const spec = { dailyAt: '09:00', timeZone: 'Europe/London' }
    expect(currentSlot(spec, new Date('2026-07-01T12:00:00Z')).toISOString()).toBe(
      '2026-07-01T08:00:00.000Z',
    )
    expect(currentSlot(spec, new Date('2026-12-01T12:00:00Z')).toISOString()).toBe(
      '2026-12-01T09:00:00.000Z',
    )
  })

  it('names one key per schedule and slot', () => {
    expect(slotKey('reminders.daily', new Date('2026-11-23T03:30:00Z'))).toBe(
      'schedule:reminders.daily:2026-11-23T03:30:00.000Z',
    )
  })
})

describe('schedule', () => {
  it('refuses bad times, zones, intervals and a second schedule of one job', () => {
    expect(() => schedule('x.bad', { dailyAt: '9:00', timeZone: 'Asia/Kolkata' })).toThrow()
    expect(() => schedule('x.bad', { dailyAt: '24:00', timeZone: 'Asia/Kolkata' })).toThrow()
    expect(() => schedule('x.bad', { dailyAt: '09:00', timeZone: 'Mars/Olympus' })).toThrow()
    expect(() => schedule('x.bad', { everyMs: 0 })).toThrow()
    const remove = schedule('x.good', { everyMs: 1000 })
    expect(() => schedule('x.good', { everyMs: 2000 })).toThrow(/scheduled already/)
    remove()
    schedule('x.good', { everyMs: 2000 })()
  })
})
