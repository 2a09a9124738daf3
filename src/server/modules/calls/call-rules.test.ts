import { describe, expect, it } from 'vitest'
import { callStatuses } from '../../../shared/calls'
import { CALL_STATUSES } from '../../integrations/voice/voice-provider'
import {
  callingHoursRefusal,
  callSummary,
  dayStart,
  movesForward,
  outcomeOf,
  statusesBefore,
} from './call-rules'

describe('call rules', () => {
  it('names the same statuses as the voice adapters', () => {
    expect([...callStatuses]).toEqual([...CALL_STATUSES])
  })

  it('moves a call forward only, never out of an ended state', () => {
    expect(movesForward('queued', 'ringing')).toBe(true)
    expect(movesForward('ringing', 'in-progress')).toBe(true)
    expect(movesForward('in-progress', 'completed')).toBe(true)
    expect(movesForward('queued', 'busy')).toBe(true)
    expect(movesForward('in-progress', 'ringing')).toBe(false)
    expect(movesForward('ringing', 'ringing')).toBe(false)
    expect(movesForward('completed', 'failed')).toBe(false)
    expect(movesForward('no-answer', 'completed')).toBe(false)
    expect(statusesBefore('in-progress')).toEqual(['queued', 'ringing'])
    expect(statusesBefore('queued')).toEqual([])
  })

  it('gives an ended call its outcome', () => {
    expect(outcomeOf('completed')).toBe('answered')
    expect(outcomeOf('no-answer')).toBe('no-answer')
    expect(outcomeOf('busy')).toBe('busy')
    expect(outcomeOf('ringing')).toBeNull()
  })

  it('writes a call as staff read it', () => {
    const answered = { direction: 'outbound', outcome: 'answered', durationSeconds: 125 } as const
    expect(callSummary({ ...answered, sandbox: false })).toBe('Outbound call, answered, 2 min 5 s')
    expect(
      callSummary({
        direction: 'outbound',
        outcome: 'no-answer',
        durationSeconds: 0,
        sandbox: true,
      }),
    ).toBe('Outbound call, not answered (sandbox)')
  })

  it('holds lead calls outside the calling hours of the hospital’s zone', () => {
    const hours = { start: '09:00', end: '21:00', timeZone: 'Asia/Kolkata' }
    // 10:00 and 22:30 in Kolkata.
    expect(callingHoursRefusal(new Date('2026-12-02T04:30:00Z'), hours)).toBeNull()
    expect(callingHoursRefusal(new Date('2026-12-02T17:00:00Z'), hours)).toMatch(
      /between 09:00 and 21:00.*from 9:00 AM/,
    )
    expect(
      callingHoursRefusal(new Date('2026-12-02T17:00:00Z'), {
        ...hours,
        start: '00:00',
        end: '00:00',
      }),
    ).toBeNull()
  })

  it('reads a day in the hospital’s zone', () => {
    expect(dayStart('2026-12-02', 'Asia/Kolkata').toISOString()).toBe('2026-12-01T18:30:00.000Z')
    expect(dayStart('2026-12-02', 'Asia/Kolkata', true).toISOString()).toBe(
      '2026-12-02T18:30:00.000Z',
    )
    expect(dayStart('2026-12-02T10:00:00Z', 'Asia/Kolkata').toISOString()).toBe(
      '2026-12-02T10:00:00.000Z',
    )
  })
})
