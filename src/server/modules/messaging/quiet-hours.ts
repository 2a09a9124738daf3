import { TZDate } from '@date-fns/tz'
import type { MessageChannel, TemplateCategory } from '../../../shared/messaging'

/**
 * Quiet hours (issue 25): promotional messages (WhatsApp marketing templates, promotional and
 * service-explicit SMS) wait for the hospital's day window, in its own time zone (default
 * 10:00–21:00); service messages such as appointment reminders are never held.
 */
export interface SendWindow {
  timeZone: string
  /** 'HH:mm' */
  start: string
  end: string
}

export const DEFAULT_SEND_WINDOW = { start: '10:00', end: '21:00' } as const

/** Whether a message of this channel and template category waits for the day window. */
export function heldByQuietHours(
  channel: MessageChannel,
  category: TemplateCategory | null | undefined,
): boolean {
  if (channel === 'whatsapp') return category === 'marketing'
  if (channel === 'sms') return category === 'promotional' || category === 'service_explicit'
  return false
}

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number]
  return h * 60 + m
}

/**
 * When the window next opens, or null when `now` is inside it. A window may run past
 * midnight (start after end); start equal to end means always open.
 */
export function nextOpening(now: Date, window: SendWindow): Date | null {
  const start = minutesOf(window.start)
  const end = minutesOf(window.end)
  if (start === end) return null
  const local = new TZDate(now.getTime(), window.timeZone)
  const current = local.getHours() * 60 + local.getMinutes()
  const open = start < end ? current >= start && current < end : current >= start || current < end
  if (open) return null
  const at = (dayOffset: number) =>
    new TZDate(
      local.getFullYear(),
      local.getMonth(),
      local.getDate() + dayOffset,
      Math.floor(start / 60),
      start % 60,
      window.timeZone,
    )
  const today = at(0)
  return new Date(today.getTime() > now.getTime() ? today.getTime() : at(1).getTime())
}
