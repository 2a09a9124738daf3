import { TZDate } from '@date-fns/tz'
import type { CallDisposition, CallStatusName } from '@/shared/calls'
import type { Call } from '@/shared/schemas/calls'

/**
 * The pure words and times of click-to-call (issue 41): the live bar's timer and status, the
 * disposition choices, and the call-back time, which is the hospital's wall clock (its zone,
 * not the browser's) turned into an instant with its offset for the server.
 */

/** "0:05", "12:40", "1:02:03": a call's running or final length. */
export function formatTimer(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  const hours = Math.floor(s / 3600)
  const minutes = Math.floor((s % 3600) / 60)
  const seconds = String(s % 60).padStart(2, '0')
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${minutes}:${seconds}`
}

/** Seconds between `from` (an ISO instant) and `now`, never below 0. */
export function secondsSince(from: string, now: number): number {
  const start = Date.parse(from)
  return Number.isNaN(start) ? 0 : Math.max(0, Math.floor((now - start) / 1000))
}

const LIVE: readonly CallStatusName[] = ['queued', 'ringing', 'in-progress']

export function isLiveStatus(status: CallStatusName): boolean {
  return LIVE.includes(status)
}

/** What the bar says for each state of the call. */
export const CALL_STATUS_LABELS: Record<CallStatusName, string> = {
  queued: 'Placing the call…',
  ringing: 'Ringing…',
  'in-progress': 'Connected',
  completed: 'Call ended',
  busy: 'Busy: the line was engaged',
  'no-answer': 'No answer',
  failed: 'Call failed',
  canceled: 'Call cancelled',
}

/** The six dispositions, in the order the dialog offers them, with their words. */
export const DISPOSITION_CHOICES: readonly { value: CallDisposition; label: string }[] = [
  { value: 'interested', label: 'Interested' },
  { value: 'call_back', label: 'Call back at…' },
  { value: 'not_reachable', label: 'Not reachable' },
  { value: 'wrong_number', label: 'Wrong number' },
  { value: 'booked', label: 'Booked an appointment' },
  { value: 'not_interested', label: 'Not interested' },
]

export function dispositionLabel(value: CallDisposition): string {
  return DISPOSITION_CHOICES.find((c) => c.value === value)?.label.replace('…', '') ?? value
}

/** The hospital-zone wall clock a date and time field shows. */
export interface WallTime {
  /** yyyy-mm-dd */
  date: string
  /** HH:mm (24 h) */
  time: string
}

const pad = (n: number) => String(n).padStart(2, '0')

/** The default call-back: tomorrow (in the hospital's zone) at 11:00. */
export function defaultCallBack(now: Date, timeZone: string): WallTime {
  const local = new TZDate(now.getTime(), timeZone)
  const tomorrow = new TZDate(
    local.getFullYear(),
    local.getMonth(),
    local.getDate() + 1,
    11,
    0,
    0,
    0,
    timeZone,
  )
  return {
    date: `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}`,
    time: '11:00',
  }
}

/**
 * The instant of a hospital-zone wall time as ISO 8601 with its offset
 * ('2026-12-04T11:00:00.000+05:30'), or null when the date or time is not a real one.
 */
export function wallTimeToInstant(value: WallTime, timeZone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.date)
  const t = /^(\d{2}):(\d{2})$/.exec(value.time)
  if (!d || !t) return null
  const [y, m, day, h, min] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as number[]
  if (h! > 23 || min! > 59) return null
  const at = new TZDate(y!, m! - 1, day!, h!, min!, 0, 0, timeZone)
  if (at.getDate() !== day || at.getMonth() !== m! - 1) return null
  return at.toISOString()
}

/** "Fri 4 Dec, 11:00": a call-back time in the hospital's zone. */
export function formatCallBack(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).formatToParts(new Date(iso))
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? ''
  return `${part('weekday')} ${part('day')} ${part('month')}, ${part('hour')}:${part('minute')}`
}

/**
 * The contact's follow-up: the newest call's "call back at" (calls newest first), if it has
 * one; a later call replaces it (as the Follow-ups figure counts).
 */
export function followUpOf(
  calls: readonly Pick<Call, 'disposition' | 'callBackAt'>[],
): string | null {
  const newest = calls[0]
  return newest?.disposition === 'call_back' && newest.callBackAt ? newest.callBackAt : null
}
