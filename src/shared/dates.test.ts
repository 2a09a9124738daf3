import { afterEach, describe, expect, it } from 'vitest'
import {
  DATE_FORMAT,
  DEFAULT_TIME_ZONE,
  formatAgo,
  formatCalendarDate,
  formatDate,
  formatTime,
  TIME_FORMAT,
} from './dates'

describe('date and time formats', () => {
  const savedTz = process.env.TZ
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ
    else process.env.TZ = savedTz
  })

  it('uses the spec formats and Asia/Kolkata by default', () => {
    expect(DATE_FORMAT).toBe('MMM dd, yyyy')
    expect(TIME_FORMAT).toBe('h:mm a')
    expect(DEFAULT_TIME_ZONE).toBe('Asia/Kolkata')
  })

  it("shows an instant as 'MMM dd, yyyy' in India time", () => {
    // 20:00 UTC is 01:30 the next day in India (UTC+5:30).
    const instant = Date.UTC(2026, 0, 31, 20, 0)
    expect(formatDate(instant)).toBe('Feb 01, 2026')
    expect(formatDate(new Date(instant).toISOString())).toBe('Feb 01, 2026')
    expect(formatDate(Date.UTC(2026, 10, 5, 3, 0))).toBe('Nov 05, 2026')
  })

  it("shows a time as 'h:mm a' in India time", () => {
    expect(formatTime(Date.UTC(2026, 0, 31, 20, 0))).toBe('1:30 AM')
    expect(formatTime(Date.UTC(2026, 0, 31, 9, 35))).toBe('3:05 PM')
    expect(formatTime(Date.UTC(2026, 0, 31, 6, 30))).toBe('12:00 PM')
    expect(formatTime(Date.UTC(2026, 0, 31, 18, 30))).toBe('12:00 AM')
  })

  it('does not depend on the time zone of the machine', () => {
    const instant = Date.UTC(2026, 0, 31, 20, 0)
    for (const tz of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati']) {
      process.env.TZ = tz
      expect(formatDate(instant), tz).toBe('Feb 01, 2026')
      expect(formatTime(instant), tz).toBe('1:30 AM')
    }
  })

  it('honours another hospital time zone', () => {
    const instant = Date.UTC(2026, 0, 31, 20, 0)
    expect(formatDate(instant, 'UTC')).toBe('Jan 31, 2026')
    expect(formatTime(instant, 'UTC')).toBe('8:00 PM')
    expect(formatTime(instant, 'Asia/Dubai')).toBe('12:00 AM')
  })

  it('shows a calendar date without shifting it across time zones', () => {
    for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Kiritimati']) {
      process.env.TZ = tz
      expect(formatCalendarDate('1990-11-22'), tz).toBe('Nov 22, 1990')
      expect(formatCalendarDate('2026-01-01'), tz).toBe('Jan 01, 2026')
    }
  })
})

describe("'x ago'", () => {
  const now = new Date('2026-11-22T10:00:00Z')
  const before = (ms: number) => new Date(now.getTime() - ms)

  it('measures from the given now', () => {
    expect(formatAgo(before(5 * 60_000), now)).toBe('5 minutes ago')
    expect(formatAgo(before(60_000), now)).toBe('1 minute ago')
    expect(formatAgo(before(3 * 3600_000), now)).toBe('3 hours ago')
    expect(formatAgo(before(2 * 86_400_000), now)).toBe('2 days ago')
    expect(formatAgo(before(45_000), now)).toBe('45 seconds ago')
  })

  it('rounds down', () => {
    expect(formatAgo(before(5 * 60_000 + 59_000), now)).toBe('5 minutes ago')
  })

  it("says 'just now' for this instant or a future one", () => {
    expect(formatAgo(now, now)).toBe('just now')
    expect(formatAgo(new Date(now.getTime() + 60_000), now)).toBe('just now')
  })

  it('accepts ISO strings and timestamps', () => {
    expect(formatAgo(before(10 * 60_000).toISOString(), now)).toBe('10 minutes ago')
    expect(formatAgo(before(10 * 60_000).getTime(), now)).toBe('10 minutes ago')
  })

  it('defaults now to the current time', () => {
    expect(formatAgo(new Date(Date.now() - 2 * 3600_000))).toBe('2 hours ago')
  })
})
