import { describe, expect, it } from 'vitest'
import { policyFor, sessionHoursAboveLimit } from './hospital-policy'

const global = { absoluteHours: 8, idleMinutes: 30 }

describe("a hospital's session policy (issue 39)", () => {
  it('shortens sessions below the operator limit', () => {
    expect(policyFor({ sessionTimeout: true, sessionHours: 4 }, global)).toEqual({
      absoluteHours: 4,
      idleMinutes: 30,
    })
  })

  it('never lengthens them past SESSION_HOURS: 72 h asked, 8 h given', () => {
    expect(policyFor({ sessionTimeout: true, sessionHours: 72 }, global)).toEqual(global)
    expect(policyFor({ sessionTimeout: true, sessionHours: 9 }, global).absoluteHours).toBe(8)
    expect(policyFor({ sessionTimeout: true, sessionHours: 8 }, global).absoluteHours).toBe(8)
  })

  it('uses the global policy when the timeout is off', () => {
    expect(policyFor({ sessionTimeout: false, sessionHours: 2 }, global)).toBe(global)
  })

  it('names the limit in its refusal', () => {
    expect(sessionHoursAboveLimit(8)).toMatch(/at most 8 hours/)
    expect(sessionHoursAboveLimit(1)).toMatch(/at most 1 hour /)
  })
})
