import { z } from 'zod'
import { staffRoles } from '../roles'
import { activityTypes, FEED_MAX, FEED_SIZE } from '../live-monitoring'
import { isoDate } from './common'

/*
 * Live monitoring (issue 29, docs/decisions/040-live-monitoring.md). Every hospital role reads
 * (live-monitoring:read); only live-monitoring:read_all (admins) sees other users' daily summaries.
 *   GET  /api/live-monitoring/online-users           every active member, online first
 *   GET  /api/live-monitoring/activities?limit=20    newest first (max 100)
 *   GET  /api/live-monitoring/daily-summary?date=    default today in the hospital's time zone
 *   GET  /api/live-monitoring/overview               the four cards
 *   POST /api/live-monitoring/heartbeat              204, the signed-in tab every 60 s
 *   POST /api/live-monitoring/offline                204, navigator.sendBeacon on pagehide
 * Calls are POST /api/calls (issue 41, src/shared/schemas/calls.ts): call_start and call_end
 * come from the calls' own events.
 * Server-sent events on GET /api/events/messages: `activity` (an Activity) and `presence`.
 */

const role = z.enum(staffRoles)

/** What an activity carries for the screen (names, channel, ids); never a secret. */
export const activityData = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
)
export type ActivityData = z.infer<typeof activityData>

export const activity = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  activityType: z.enum(activityTypes),
  /** ISO 8601. */
  timestamp: z.string(),
  activityData,
})
export type Activity = z.infer<typeof activity>

export const activitiesResponse = z.object({ activities: z.array(activity) })
export type ActivitiesResponse = z.infer<typeof activitiesResponse>

export const activitiesQuery = z.strictObject({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(FEED_MAX, { message: `limit must be at most ${FEED_MAX}` })
    .default(FEED_SIZE),
})
export type ActivitiesQuery = z.infer<typeof activitiesQuery>

export const onlineUser = z.object({
  /** The presence record's id (the user's id: one record per user). */
  id: z.string(),
  userId: z.string(),
  /** Online now: signed in, not signed out, and active within the last 10 minutes. */
  isOnline: z.boolean(),
  lastActivity: z.string().nullable(),
  loginTime: z.string().nullable(),
  /** A call of this user's still queued, ringing or in progress (the provider's events). */
  onCall: z.boolean(),
  /** Outbound calls this user placed today (the hospital's day). */
  callsToday: z.number().int(),
  /** Seconds this user talked on answered calls today. */
  talkSecondsToday: z.number().int(),
  user: z.object({ firstName: z.string(), lastName: z.string(), role }),
})
export type OnlineUser = z.infer<typeof onlineUser>

export const onlineUsersResponse = z.object({ users: z.array(onlineUser) })
export type OnlineUsersResponse = z.infer<typeof onlineUsersResponse>

export const dailySummaryQuery = z.strictObject({
  date: isoDate.optional(),
  /** Admins (read_all) only; another hospital's user is 404. */
  userId: z.uuid({ message: 'Must be a valid id' }).optional(),
})
export type DailySummaryQuery = z.infer<typeof dailySummaryQuery>

export const targets = z.object({
  calls: z.number(),
  emails: z.number(),
  sms: z.number(),
  leadsContacted: z.number(),
  appointments: z.number(),
  workingMinutes: z.number(),
})

export const dailySummary = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  role,
  callsMade: z.number().int(),
  /** Calls either way that were answered, that ended unanswered, and the answered seconds. */
  callsAnswered: z.number().int(),
  callsMissed: z.number().int(),
  talkSeconds: z.number().int(),
  emailsSent: z.number().int(),
  smsSent: z.number().int(),
  leadsContacted: z.number().int(),
  appointmentsScheduled: z.number().int(),
  /** Minutes (spec section 3 calls it workingHours). */
  workingHours: z.number().int(),
  /** 0-100, see performanceScore in src/shared/live-monitoring.ts. */
  performanceScore: z.number().int(),
})
export type DailySummary = z.infer<typeof dailySummary>

export const dailySummaryResponse = z.object({
  date: z.string(),
  timeZone: z.string(),
  targets,
  summaries: z.array(dailySummary),
})
export type DailySummaryResponse = z.infer<typeof dailySummaryResponse>

export const overviewResponse = z.object({
  teamOnline: z.number().int(),
  ongoingCalls: z.number().int(),
  callsToday: z.number().int(),
  messagesSent: z.number().int(),
})
export type OverviewResponse = z.infer<typeof overviewResponse>

/** The SSE `activity` event's data is an Activity; `presence` is this. */
export const presenceEvent = z.object({
  userId: z.string(),
  isOnline: z.boolean(),
  lastActivity: z.string().nullable(),
})
export type PresenceEvent = z.infer<typeof presenceEvent>
