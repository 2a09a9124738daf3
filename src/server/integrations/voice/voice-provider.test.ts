import { describe, expect, it } from 'vitest'
import {
  CALL_STATUSES,
  callDirection,
  isFinalStatus,
  normaliseCallStatus,
  seconds,
} from './voice-provider'

describe('the normalised call status set', () => {
  it('takes each provider word as it is, and common spellings of them', () => {
    for (const status of CALL_STATUSES) expect(normaliseCallStatus(status)).toBe(status)
    expect(normaliseCallStatus('No-Answer')).toBe('no-answer')
    expect(normaliseCallStatus('in progress')).toBe('in-progress')
    expect(normaliseCallStatus('cancelled')).toBe('canceled')
  })

  it('knows nothing else', () => {
    expect(normaliseCallStatus('initiated')).toBeNull()
    expect(normaliseCallStatus('answered')).toBeNull()
    expect(normaliseCallStatus(3)).toBeNull()
    expect(normaliseCallStatus(undefined)).toBeNull()
  })

  it('ends with completed, busy, no-answer, failed and canceled only', () => {
    expect(CALL_STATUSES.filter(isFinalStatus)).toEqual([
      'completed',
      'busy',
      'no-answer',
      'failed',
      'canceled',
    ])
  })

  it('reads seconds and directions from providers’ strings', () => {
    expect(seconds('17')).toBe(17)
    expect(seconds(8)).toBe(8)
    expect(seconds(null)).toBe(0)
    expect(seconds('-4')).toBe(0)
    expect(callDirection('outbound-api')).toBe('outbound')
    expect(callDirection('outbound-dial')).toBe('outbound')
    expect(callDirection('inbound')).toBe('inbound')
  })
})
