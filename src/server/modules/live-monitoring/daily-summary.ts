import { IDLE_GAP_MS, performanceScore, type SummaryCounts } from '../../../shared/live-monitoring'
import type { ActivityType } from '../../../shared/live-monitoring'
import type { CallDayFigures } from './call-figures'

/*
 * A user's day from their activities (issue 29, docs/decisions/040), pure so it is tested
 * without a database:
 * - callsMade, callsAnswered, callsMissed, talkSeconds: the day's calls themselves
 *   (call-figures.ts, issue 41): made = placed outbound, answered or not;
 * - emailsSent, smsSent: email_sent, sms_sent (recorded once a provider accepted the message);
 * - leadsContacted: distinct leads named by a call or a message that day;
 * - appointmentsScheduled: appointment_scheduled;
 * - workingHours (minutes): from the first to the last activity, less every gap between two
 *   activities longer than 15 minutes (idle), rounded down;
 * - performanceScore: performanceScore() in src/shared/live-monitoring.ts.
 */

export interface DayActivity {
  type: ActivityType
  at: Date
  leadId: string | null
}

const CONTACTS = new Set<ActivityType>([
  'call_start',
  'call_end',
  'email_sent',
  'sms_sent',
  'whatsapp_sent',
])

export function workingMinutes(times: readonly Date[], idleGapMs = IDLE_GAP_MS): number {
  const sorted = times.map((t) => t.getTime()).sort((a, b) => a - b)
  let ms = 0
  for (let i = 1; i < sorted.length; i++) {
    const gap = (sorted[i] as number) - (sorted[i - 1] as number)
    if (gap <= idleGapMs) ms += gap
  }
  return Math.floor(ms / 60_000)
}

export function summarise(
  activities: readonly DayActivity[],
  calls: CallDayFigures,
): SummaryCounts & Omit<CallDayFigures, 'callsMade'> & { performanceScore: number } {
  const leads = new Set<string>()
  const counts: SummaryCounts = {
    callsMade: calls.callsMade,
    emailsSent: 0,
    smsSent: 0,
    leadsContacted: 0,
    appointmentsScheduled: 0,
    workingHours: 0,
  }
  for (const a of activities) {
    if (a.type === 'email_sent') counts.emailsSent++
    else if (a.type === 'sms_sent') counts.smsSent++
    else if (a.type === 'appointment_scheduled') counts.appointmentsScheduled++
    if (CONTACTS.has(a.type) && a.leadId) leads.add(a.leadId)
  }
  counts.leadsContacted = leads.size
  counts.workingHours = workingMinutes(activities.map((a) => a.at))
  return {
    ...counts,
    callsAnswered: calls.callsAnswered,
    callsMissed: calls.callsMissed,
    talkSeconds: calls.talkSeconds,
    performanceScore: performanceScore(counts),
  }
}
