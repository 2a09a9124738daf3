import { TZDate } from '@date-fns/tz'
import { assertJobName } from './registry'

/**
 * Recurring work: every N ms (slots aligned to the Unix epoch), or daily at HH:MM in an IANA
 * time zone. Each worker, about once a second, enqueues the current slot's job with the dedupe
 * key `schedule:<name>:<slot start>`, so however many instances run, one job exists per slot
 * and one worker runs it. A slot missed while no instance ran (down at 09:00) runs once at the
 * next start; older ones are not caught up.
 */
export type ScheduleSpec = { everyMs: number } | { dailyAt: string; timeZone: string }

export interface Schedule {
  name: string
  spec: ScheduleSpec
  payload: unknown
  maxAttempts: number | undefined
}

const schedules = new Map<string, Schedule>()

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/

function validate(spec: ScheduleSpec): void {
  if ('everyMs' in spec) {
    if (!Number.isInteger(spec.everyMs) || spec.everyMs < 10) {
      throw new Error('schedule: everyMs must be a whole number of at least 10')
    }
    return
  }
  if (!HH_MM.test(spec.dailyAt)) throw new Error('schedule: dailyAt must be HH:MM (24-hour)')
  // Throws a RangeError for a zone that does not exist.
  new Intl.DateTimeFormat('en', { timeZone: spec.timeZone })
}

/**
 * Runs the job `name` (its handler registered with registerHandler) on a schedule; a platform
 * job (hospital-wide work fans out from it). Returns its removal.
 */
export function schedule(
  name: string,
  spec: ScheduleSpec,
  options: { payload?: unknown; maxAttempts?: number } = {},
): () => void {
  assertJobName(name)
  validate(spec)
  if (schedules.has(name)) throw new Error(`job ${name} is scheduled already`)
  const entry = { name, spec, payload: options.payload ?? {}, maxAttempts: options.maxAttempts }
  schedules.set(name, entry)
  return () => {
    if (schedules.get(name) === entry) schedules.delete(name)
  }
}

export function registeredSchedules(): Schedule[] {
  return [...schedules.values()]
}

/** The start of the slot `now` falls in: the latest scheduled time not after now. */
export function currentSlot(spec: ScheduleSpec, now: Date): Date {
  if ('everyMs' in spec) return new Date(Math.floor(now.getTime() / spec.everyMs) * spec.everyMs)
  const [hours, minutes] = spec.dailyAt.split(':').map(Number) as [number, number]
  const local = new TZDate(now.getTime(), spec.timeZone)
  const at = (dayOffset: number) =>
    new TZDate(
      local.getFullYear(),
      local.getMonth(),
      local.getDate() + dayOffset,
      hours,
      minutes,
      spec.timeZone,
    ).getTime()
  const today = at(0)
  return new Date(today <= now.getTime() ? today : at(-1))
}

/** The dedupe key of one slot of one schedule. */
export function slotKey(name: string, slot: Date): string {
  return `schedule:${name}:${slot.toISOString()}`
}
