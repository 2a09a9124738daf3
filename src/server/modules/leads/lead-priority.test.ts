import { describe, expect, it } from 'vitest'
import { roundRobin } from './lead-intake'
import { priorityScore, recencyPoints, scoredPriority, servicePoints } from './lead-priority'

const now = new Date('2026-11-27T10:00:00Z')
const ago = (ms: number) => new Date(now.getTime() - ms)
const HOUR = 3_600_000
const DAY = 24 * HOUR

describe('priority scoring', () => {
  it('scores the service interest: high-value treatments, any service, nothing', () => {
    expect(servicePoints('Dental implants')).toBe(2)
    expect(servicePoints('IVF consultation')).toBe(2)
    expect(servicePoints('Knee replacement surgery')).toBe(2)
    expect(servicePoints('Skin rash')).toBe(1)
    expect(servicePoints('General Inquiry')).toBe(0)
    expect(servicePoints('  ')).toBe(0)
    expect(servicePoints(null)).toBe(0)
    // A word that only contains a keyword is not one.
    expect(servicePoints('Hipster haircut')).toBe(1)
  })

  it('scores recency: fresh up, days old down', () => {
    expect(recencyPoints(null, now)).toBe(1)
    expect(recencyPoints(ago(30 * 60_000), now)).toBe(1)
    expect(recencyPoints(ago(HOUR + 1), now)).toBe(0)
    expect(recencyPoints(ago(3 * DAY), now)).toBe(0)
    expect(recencyPoints(ago(3 * DAY + 1), now)).toBe(-1)
    expect(recencyPoints(ago(14 * DAY), now)).toBe(-1)
    expect(recencyPoints(ago(14 * DAY + 1), now)).toBe(-2)
    expect(recencyPoints(new Date('not a date'), now)).toBe(1)
  })

  it('adds the source, service and recency points', () => {
    expect(
      priorityScore({ source: 'referral', serviceInterest: 'Cataract', enquiredAt: null, now }),
    ).toBe(5)
    expect(
      priorityScore({
        source: 'google-ads',
        serviceInterest: 'Fever',
        enquiredAt: ago(2 * DAY),
        now,
      }),
    ).toBe(2)
  })

  it('maps the score to high (3+), medium (0 to 2) or low (below 0)', () => {
    const p = (
      source: Parameters<typeof scoredPriority>[0]['source'],
      s: string | null,
      at: Date | null,
    ) => scoredPriority({ source, serviceInterest: s, enquiredAt: at, now })
    expect(p('walk-in', 'Dental implants', null)).toBe('high')
    expect(p('google-ads', 'Fever', null)).toBe('high')
    expect(p('manual', null, null)).toBe('medium')
    expect(p('csv-import', null, null)).toBe('medium')
    expect(p('meta-facebook', 'General Inquiry', null)).toBe('medium')
    expect(p('meta-facebook', 'General Inquiry', ago(5 * DAY))).toBe('low')
    expect(p('meta-instagram', 'Hair fall', ago(30 * DAY))).toBe('low')
    expect(p('referral', null, ago(30 * DAY))).toBe('medium')
  })
})

describe('round-robin', () => {
  const ids = ['a', 'b', 'c']
  it('starts after the cursor and wraps round', () => {
    expect(roundRobin(ids, null, 4)).toEqual(['a', 'b', 'c', 'a'])
    expect(roundRobin(ids, 'a', 2)).toEqual(['b', 'c'])
    expect(roundRobin(ids, 'c', 2)).toEqual(['a', 'b'])
    // A cursor that left (suspended, removed) still moves on to the next in order.
    expect(roundRobin(ids, 'bb', 1)).toEqual(['c'])
    expect(roundRobin(ids, 'z', 1)).toEqual(['a'])
  })
  it('assigns nobody when there are no receptionists', () => {
    expect(roundRobin([], 'a', 3)).toEqual([])
  })
})
