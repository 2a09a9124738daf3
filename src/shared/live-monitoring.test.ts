import { describe, expect, it } from 'vitest'
import { dailyTargets, performanceScore, presenceOf, scoreBadge } from './live-monitoring'

const now = new Date('2026-03-10T10:00:00Z')
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()

describe('presenceOf (spec section 4: 2 and 5 minutes)', () => {
  it.each([
    [0, 'green'],
    [2 * 60_000, 'green'],
    [2 * 60_000 + 1, 'yellow'],
    [5 * 60_000, 'yellow'],
    [5 * 60_000 + 1, 'orange'],
    [60 * 60_000, 'orange'],
  ])('%i ms ago while online is %s', (ms, colour) => {
    expect(presenceOf(ago(ms), true, now)).toBe(colour)
  })

  it('is grey when not online, or never active', () => {
    expect(presenceOf(ago(0), false, now)).toBe('grey')
    expect(presenceOf(null, true, now)).toBe('grey')
    expect(presenceOf('not a date', true, now)).toBe('grey')
  })
})

describe('performanceScore', () => {
  const zero = {
    callsMade: 0,
    emailsSent: 0,
    smsSent: 0,
    leadsContacted: 0,
    appointmentsScheduled: 0,
    workingHours: 0,
  }
  it('is 0 for nothing and 100 for every target met, over-achieving capped', () => {
    expect(performanceScore(zero)).toBe(0)
    const met = {
      callsMade: dailyTargets.calls,
      emailsSent: dailyTargets.emails,
      smsSent: dailyTargets.sms,
      leadsContacted: dailyTargets.leadsContacted,
      appointmentsScheduled: dailyTargets.appointments,
      workingHours: dailyTargets.workingMinutes,
    }
    expect(performanceScore(met)).toBe(100)
    expect(performanceScore({ ...met, callsMade: 1000 })).toBe(100)
    // 1000 calls alone do not make up for the rest: 1/6.
    expect(performanceScore({ ...zero, callsMade: 1000 })).toBe(17)
  })

  it('is the rounded mean of min(actual / target, 1) over the six metrics', () => {
    // 50/100, 25/50, 30/30, 10/40, 3/15, 240/480 -> (0.5 + 0.5 + 1 + 0.25 + 0.2 + 0.5) / 6
    const score = performanceScore({
      callsMade: 50,
      emailsSent: 25,
      smsSent: 30,
      leadsContacted: 10,
      appointmentsScheduled: 3,
      workingHours: 240,
    })
    expect(score).toBe(Math.round((2.95 / 6) * 100))
    expect(score).toBe(49)
  })
})

describe('scoreBadge (spec section 9: 80 / 60)', () => {
  it.each([
    [100, 'default'],
    [80, 'default'],
    [79, 'secondary'],
    [60, 'secondary'],
    [59, 'destructive'],
    [0, 'destructive'],
  ])('%i is %s', (score, badge) => expect(scoreBadge(score)).toBe(badge))
})
