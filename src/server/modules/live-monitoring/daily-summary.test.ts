import { describe, expect, it } from 'vitest'
import { type DayActivity, summarise, workingMinutes } from './daily-summary'

const at = (hhmm: string) => new Date(`2026-03-10T${hhmm}:00+05:30`)

describe('workingMinutes', () => {
  it('counts from the first to the last activity, less gaps over 15 minutes', () => {
    expect(workingMinutes([])).toBe(0)
    expect(workingMinutes([at('09:00')])).toBe(0)
    // 09:00 -> 09:15 (15, counted) -> 09:31 (16: idle, dropped) -> 09:40 (9)
    expect(workingMinutes([at('09:40'), at('09:00'), at('09:31'), at('09:15')])).toBe(24)
  })
})

describe('summarise', () => {
  it('takes the calls from the calls, and counts messages, distinct leads contacted and appointments', () => {
    const acts: DayActivity[] = [
      { type: 'login', at: at('09:00'), leadId: null },
      { type: 'call_start', at: at('09:05'), leadId: 'L1' },
      { type: 'call_end', at: at('09:10'), leadId: 'L1' },
      { type: 'call_start', at: at('09:12'), leadId: 'L2' },
      { type: 'sms_sent', at: at('09:14'), leadId: 'L1' },
      { type: 'email_sent', at: at('09:20'), leadId: 'L3' },
      { type: 'email_sent', at: at('09:25'), leadId: null },
      { type: 'appointment_scheduled', at: at('09:30'), leadId: 'L4' },
      { type: 'patient_added', at: at('09:35'), leadId: null },
    ]
    // The activities' call_start are not counted: the calls themselves are (one made in a
    // tab that never ended it still counts once).
    const s = summarise(acts, { callsMade: 2, callsAnswered: 1, callsMissed: 1, talkSeconds: 300 })
    expect(s).toMatchObject({
      callsMade: 2,
      callsAnswered: 1,
      callsMissed: 1,
      talkSeconds: 300,
      emailsSent: 2,
      smsSent: 1,
      leadsContacted: 3,
      appointmentsScheduled: 1,
      workingHours: 35,
    })
    // (2/100 + 2/50 + 1/30 + 3/40 + 1/15 + 35/480) / 6
    const expected = (0.02 + 0.04 + 1 / 30 + 0.075 + 1 / 15 + 35 / 480) / 6
    expect(s.performanceScore).toBe(Math.round(expected * 100))
  })
})

it('summarise: a day without activities still shows its calls', () => {
  const s = summarise([], { callsMade: 3, callsAnswered: 2, callsMissed: 1, talkSeconds: 95 })
  expect(s).toMatchObject({ callsMade: 3, callsAnswered: 2, talkSeconds: 95, leadsContacted: 0 })
})
