/*
 * Live monitoring (issue 29, docs/decisions/040-live-monitoring.md): the constants and pure helpers
 * the server and the /live-monitoring screen share. No zod here (the schemas are in
 * schemas/live-monitoring.ts), so the screen can import this cheaply.
 */

/** Spec section 4. */
export const activityTypes = [
  'call_start',
  'call_end',
  'email_sent',
  'sms_sent',
  'whatsapp_sent',
  'login',
  'logout',
  'patient_added',
  'appointment_scheduled',
] as const
export type ActivityType = (typeof activityTypes)[number]

export const activityLabels: Record<ActivityType, string> = {
  call_start: 'Call started',
  call_end: 'Call ended',
  email_sent: 'Email sent',
  sms_sent: 'SMS sent',
  whatsapp_sent: 'WhatsApp message sent',
  login: 'Signed in',
  logout: 'Signed out',
  patient_added: 'Patient added',
  appointment_scheduled: 'Appointment scheduled',
}

/** Spec section 9: daily targets per user. workingMinutes is 8 hours. */
export const dailyTargets = {
  calls: 100,
  emails: 50,
  sms: 30,
  leadsContacted: 40,
  appointments: 15,
  workingMinutes: 480,
} as const
export type DailyTargets = { [K in keyof typeof dailyTargets]: number }

/** Spec section 9: refresh every 30 seconds, 20 items in the feed. */
export const REFRESH_MS = 30_000
export const FEED_SIZE = 20
export const FEED_MAX = 100

/** Spec section 4/9: presence thresholds. */
export const PRESENCE_GREEN_MS = 2 * 60_000
export const PRESENCE_YELLOW_MS = 5 * 60_000
/**
 * A user whose last activity (request or heartbeat) is older than this reads as offline even
 * without a sign-out or a pagehide beacon (a closed laptop, a killed browser). Between 5 and 10
 * minutes the user is online but away (orange).
 */
export const OFFLINE_AFTER_MS = 10 * 60_000
/** The signed-in client sends a heartbeat this often while its tab is visible. */
export const HEARTBEAT_MS = 60_000
/** Gaps between two activities longer than this are idle and not counted as working time. */
export const IDLE_GAP_MS = 15 * 60_000

export type Presence = 'green' | 'yellow' | 'orange' | 'grey'

export const presenceLabels: Record<Presence, string> = {
  green: 'Active',
  yellow: 'Idle',
  orange: 'Away',
  grey: 'Offline',
}

/**
 * Spec section 4: green if the last activity was 2 minutes ago or less, yellow if 5 minutes or
 * less, orange otherwise, grey if the user is not online.
 */
export function presenceOf(
  lastActivity: string | Date | null,
  isOnline: boolean,
  now: Date | number = Date.now(),
): Presence {
  if (!isOnline || lastActivity === null) return 'grey'
  const at = typeof lastActivity === 'string' ? Date.parse(lastActivity) : lastActivity.getTime()
  if (Number.isNaN(at)) return 'grey'
  const age = (typeof now === 'number' ? now : now.getTime()) - at
  if (age <= PRESENCE_GREEN_MS) return 'green'
  if (age <= PRESENCE_YELLOW_MS) return 'yellow'
  return 'orange'
}

/** Spec section 9: score badge, 80 or more is default, 60 or more secondary, else destructive. */
export const SCORE_DEFAULT_MIN = 80
export const SCORE_SECONDARY_MIN = 60
export type ScoreBadge = 'default' | 'secondary' | 'destructive'
export function scoreBadge(score: number): ScoreBadge {
  if (score >= SCORE_DEFAULT_MIN) return 'default'
  if (score >= SCORE_SECONDARY_MIN) return 'secondary'
  return 'destructive'
}

export type SummaryCounts = {
  callsMade: number
  emailsSent: number
  smsSent: number
  leadsContacted: number
  appointmentsScheduled: number
  /** Minutes. */
  workingHours: number
}

/**
 * Performance score: the mean over the six metrics of min(actual / target, 1) x 100, rounded to
 * a whole number (0-100). Every metric weighs the same and over-achieving one cannot make up for
 * another.
 */
export function performanceScore(c: SummaryCounts, targets: DailyTargets = dailyTargets): number {
  const part = (actual: number, target: number) =>
    target <= 0 ? 1 : Math.min(Math.max(actual, 0) / target, 1)
  const parts = [
    part(c.callsMade, targets.calls),
    part(c.emailsSent, targets.emails),
    part(c.smsSent, targets.sms),
    part(c.leadsContacted, targets.leadsContacted),
    part(c.appointmentsScheduled, targets.appointments),
    part(c.workingHours, targets.workingMinutes),
  ]
  return Math.round((parts.reduce((a, b) => a + b, 0) / parts.length) * 100)
}
