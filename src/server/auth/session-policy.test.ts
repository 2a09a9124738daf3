import { describe, expect, it } from 'vitest'
import { policyFor } from './hospital-policy'
import { initialExpiry, TOUCH_EVERY_MS, wantedExpiry } from './session-policy'

const HOUR = 3_600_000
const policy = { absoluteHours: 8, idleMinutes: 30 }

describe('session limits', () => {
  it('start at the idle deadline, never beyond the absolute one', () => {
    expect(initialExpiry(policy, 0).getTime()).toBe(30 * 60_000)
    expect(initialExpiry({ absoluteHours: 1, idleMinutes: 120 }, 0).getTime()).toBe(HOUR)
  })

  it('move on use at most once a minute, and never past sign-in + the absolute limit', () => {
    const createdAt = new Date(0)
    const now = 2 * HOUR
    const expiresAt = new Date(now + 30 * 60_000 - TOUCH_EVERY_MS + 1)
    expect(wantedExpiry({ createdAt, expiresAt }, policy, now)).toBeNull()
    expect(wantedExpiry({ createdAt, expiresAt: new Date(now) }, policy, now)?.getTime()).toBe(
      now + 30 * 60_000,
    )
    const late = 7.9 * HOUR
    expect(
      wantedExpiry({ createdAt, expiresAt: new Date(late - 60 * 60_000) }, policy, late)?.getTime(),
    ).toBe(8 * HOUR)
  })

  it('come back to a shortened absolute limit at once', () => {
    const createdAt = new Date(0)
    const shorter = { absoluteHours: 2, idleMinutes: 30 }
    const now = 3 * HOUR
    expect(
      wantedExpiry({ createdAt, expiresAt: new Date(now + 10 * 60_000) }, shorter, now)?.getTime(),
    ).toBe(2 * HOUR)
  })

  it("follow the hospital's timeout: its hours when on, the global limit when off", () => {
    const global = { absoluteHours: 12, idleMinutes: 45 }
    expect(policyFor({ sessionTimeout: true, sessionHours: 4 }, global)).toEqual({
      absoluteHours: 4,
      idleMinutes: 45,
    })
    expect(policyFor({ sessionTimeout: false, sessionHours: 4 }, global)).toBe(global)
  })
})
