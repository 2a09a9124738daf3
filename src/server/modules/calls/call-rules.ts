import { TZDate } from '@date-fns/tz'
import type { CallOutcome } from '../../../shared/calls'
import { formatTime } from '../../../shared/dates'
import type { CallStatus } from '../../integrations/voice/voice-provider'
import { isFinalStatus } from '../../integrations/voice/voice-provider'
import { nextOpening } from '../messaging/quiet-hours'

/**
 * The pure rules of calls (issue 41): the order of statuses (a call only moves forward), the
 * outcome of an ended call, calling hours, and the words of a call's Communication.
 */

const RANK: Record<CallStatus, number> = {
  queued: 0,
  ringing: 1,
  'in-progress': 2,
  completed: 3,
  busy: 3,
  'no-answer': 3,
  failed: 3,
  canceled: 3,
}

/** Whether a call in `from` may move to `to`: forward only, and never out of an ended state. */
export function movesForward(from: CallStatus, to: CallStatus): boolean {
  return !isFinalStatus(from) && RANK[to] > RANK[from]
}

/** The statuses a call may be in for `to` to be applied (the update's WHERE). */
export function statusesBefore(to: CallStatus): CallStatus[] {
  return (Object.keys(RANK) as CallStatus[]).filter((from) => movesForward(from, to))
}

/** How an ended call went: a completed call was answered. */
export function outcomeOf(status: CallStatus): CallOutcome | null {
  if (status === 'completed') return 'answered'
  if (status === 'busy' || status === 'no-answer' || status === 'failed' || status === 'canceled')
    return status
  return null
}

const OUTCOME_WORDS: Record<CallOutcome, string> = {
  answered: 'answered',
  'no-answer': 'not answered',
  busy: 'busy',
  failed: 'failed',
  canceled: 'cancelled',
}

/** "2 min 5 s", "45 s". */
export function talkTime(seconds: number): string {
  const m = Math.floor(seconds / 60)
  const s = seconds % 60
  return m > 0 ? `${m} min ${s} s` : `${s} s`
}

/** The Communication's text: "Outbound call, answered, 2 min 5 s (sandbox)". */
export function callSummary(input: {
  direction: 'outbound' | 'inbound'
  outcome: CallOutcome
  durationSeconds: number
  sandbox: boolean
}): string {
  const way = input.direction === 'outbound' ? 'Outbound call' : 'Incoming call'
  const talked = input.outcome === 'answered' ? `, ${talkTime(input.durationSeconds)}` : ''
  return `${way}, ${OUTCOME_WORDS[input.outcome]}${talked}${input.sandbox ? ' (sandbox)' : ''}`
}

export interface CallingHours {
  start: string
  end: string
  timeZone: string
}

/**
 * Why a call to a lead may not be made now, or null: outside the hospital's calling hours in
 * its own zone (start equal to end: no limit). Patients' own calls are never held.
 */
export function callingHoursRefusal(now: Date, hours: CallingHours): string | null {
  const opens = nextOpening(now, hours)
  if (!opens) return null
  return `Calls to leads are made between ${hours.start} and ${hours.end} (the hospital’s calling hours); you can call again from ${formatTime(opens, hours.timeZone)}.`
}

/** The start of `date` (YYYY-MM-DD) in `timeZone`, or the instant itself. */
export function dayStart(value: string, timeZone: string, endOfDay = false): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(value)
  const [y, m, d] = value.split('-').map(Number) as [number, number, number]
  return new Date(new TZDate(y, m - 1, endOfDay ? d + 1 : d, 0, 0, 0, 0, timeZone).getTime())
}
