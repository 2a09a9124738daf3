import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import type { CallStatusName } from '@/shared/calls'
import type { IncomingCallCard } from '@/shared/schemas/calls-incoming'

/** The pop-up's title for the call's state. */
export function incomingTitle(status: CallStatusName): string {
  if (status === 'queued' || status === 'ringing') return 'Incoming call'
  if (status === 'in-progress') return 'Call answered'
  if (status === 'completed') return 'Call ended'
  return 'Missed call'
}

/** "3 Dec, 11:00 AM" in the hospital's time zone. */
export function shortDayTime(iso: string, timeZone: string): string {
  return format(new TZDate(new Date(iso).getTime(), timeZone), 'd MMM, h:mm a')
}

/** "Patient SMH-000123", "New lead" or "Lead". */
export function whoLine(card: Pick<IncomingCallCard, 'patientNumber' | 'newLead' | 'leadId'>) {
  if (card.patientNumber) return `Patient ${card.patientNumber}`
  if (card.newLead) return 'New lead'
  return card.leadId ? 'Lead' : 'Unknown caller'
}

/** Where "Open" goes: the patient's record first, else the lead's. */
export function contactHref(
  card: Pick<IncomingCallCard, 'patientId' | 'leadId'>,
  paths: { leads: string; patients: string },
): string | null {
  if (card.patientId) return `${paths.patients}?open=${encodeURIComponent(card.patientId)}`
  if (card.leadId) return `${paths.leads}?open=${encodeURIComponent(card.leadId)}`
  return null
}

/** A ten-digit Indian mobile no lead is likely to have (ends 0-6: the sandbox answers it). */
export function unknownMobile(random: () => number = Math.random): string {
  const body = String(Math.floor(random() * 10_000_000)).padStart(7, '0')
  return `98${body}${Math.floor(random() * 7)}`
}
