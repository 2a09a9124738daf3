import { and, desc, gte, inArray, lt, sql } from 'drizzle-orm'
import { dailyTargets, OFFLINE_AFTER_MS } from '../../../shared/live-monitoring'
import type {
  ActivitiesResponse,
  DailySummaryResponse,
  OnlineUsersResponse,
  OverviewResponse,
} from '../../../shared/schemas/live-monitoring'
import type { AppDb } from '../../db/client'
import { activities, userPresence } from '../../db/schema/live-monitoring'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { hospitalContext } from '../appointments/context'
import { dateIn, zonedInstant } from '../booking/booking-slots'
import { callFiguresByUser, callsStarted, liveCallsByUser, noCallFigures } from './call-figures'
import { summarise } from './daily-summary'
import { FORMER_MEMBER, hospitalMembers } from './members'

/*
 * The Live Monitoring reads (issue 29, docs/decisions/040). Every hospital role reads the board,
 * the feed and the cards; daily summaries of others need live-monitoring:read_all.
 */

export interface LiveActor {
  db: AppDb
  hospitalId: string
  userId: string
  /** live-monitoring:read_all (admins): every member's daily summary. */
  seesAll: boolean
  now?: Date | undefined
}

const tenant = (a: LiveActor) => ({ hospitalId: a.hospitalId, userId: a.userId })

const isOnlineAt = (
  p: { isOnline: boolean; lastActivity: Date | null } | undefined,
  now: Date,
): boolean =>
  !!p?.isOnline && !!p.lastActivity && now.getTime() - p.lastActivity.getTime() <= OFFLINE_AFTER_MS

export async function onlineUsers(a: LiveActor): Promise<OnlineUsersResponse> {
  const now = a.now ?? new Date()
  const members = (await hospitalMembers(a.db, a.hospitalId)).filter((m) => m.active)
  const { timeZone } = await hospitalContext(a.db, a.hospitalId)
  const today = dayBounds(dateIn(now, timeZone), timeZone)
  const { presence, calls, figures } = await withTenant(a.db, tenant(a), async (tx) => ({
    presence: await tx.select().from(userPresence),
    calls: await liveCallsByUser(tx, now),
    figures: await callFiguresByUser(tx, today),
  }))
  const byUser = new Map(presence.map((p) => [p.userId, p]))
  const users = members.map((m) => {
    const p = byUser.get(m.id)
    return {
      id: m.id,
      userId: m.id,
      isOnline: isOnlineAt(p, now),
      lastActivity: p?.lastActivity?.toISOString() ?? null,
      loginTime: p?.loginTime?.toISOString() ?? null,
      onCall: (calls.get(m.id) ?? 0) > 0,
      callsToday: (figures.get(m.id) ?? noCallFigures()).callsMade,
      talkSecondsToday: (figures.get(m.id) ?? noCallFigures()).talkSeconds,
      user: { firstName: m.firstName, lastName: m.lastName, role: m.role },
    }
  })
  users.sort(
    (x, y) =>
      Number(y.isOnline) - Number(x.isOnline) ||
      (y.lastActivity ?? '').localeCompare(x.lastActivity ?? '') ||
      `${x.user.firstName} ${x.user.lastName}`.localeCompare(
        `${y.user.firstName} ${y.user.lastName}`,
      ),
  )
  return { users }
}

export async function listActivities(
  a: LiveActor & { limit: number },
): Promise<ActivitiesResponse> {
  const rows = await withTenant(a.db, tenant(a), (tx) =>
    tx
      .select()
      .from(activities)
      .orderBy(desc(activities.occurredAt), desc(activities.id))
      .limit(a.limit),
  )
  const names = new Map((await hospitalMembers(a.db, a.hospitalId)).map((m) => [m.id, m.name]))
  return {
    activities: rows.map((r) => ({
      id: r.id,
      userId: r.userId,
      userName: names.get(r.userId) ?? FORMER_MEMBER,
      activityType: r.activityType,
      timestamp: r.occurredAt.toISOString(),
      activityData: r.data,
    })),
  }
}

/** The day [start, end) of `date` in the hospital's zone. */
function dayBounds(date: string, timeZone: string): { start: Date; end: Date } {
  const next = new Date(`${date}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return {
    start: zonedInstant(date, 0, timeZone),
    end: zonedInstant(next.toISOString().slice(0, 10), 0, timeZone),
  }
}

export async function dailySummary(
  a: LiveActor & { date?: string | undefined; forUserId?: string | undefined },
): Promise<DailySummaryResponse> {
  const now = a.now ?? new Date()
  const { timeZone } = await hospitalContext(a.db, a.hospitalId)
  const date = a.date ?? dateIn(now, timeZone)
  const members = await hospitalMembers(a.db, a.hospitalId)
  const wanted = a.forUserId
  if (wanted !== undefined) {
    if (!members.some((m) => m.id === wanted)) throw notFound('User')
    if (!a.seesAll && wanted !== a.userId) {
      throw new AppError('FORBIDDEN', 'You may see only your own performance')
    }
  }
  const shown = members.filter((m) =>
    wanted !== undefined ? m.id === wanted : a.seesAll ? m.active : m.id === a.userId,
  )
  const { start, end } = dayBounds(date, timeZone)
  const ids = shown.map((m) => m.id)
  const rows = ids.length
    ? await withTenant(a.db, tenant(a), (tx) =>
        tx
          .select({
            userId: activities.userId,
            type: activities.activityType,
            at: activities.occurredAt,
            leadId: sql<string | null>`${activities.data} ->> 'leadId'`,
          })
          .from(activities)
          .where(
            and(
              inArray(activities.userId, ids),
              gte(activities.occurredAt, start),
              lt(activities.occurredAt, end),
            ),
          ),
      )
    : []
  const figures = ids.length
    ? await withTenant(a.db, tenant(a), (tx) => callFiguresByUser(tx, { start, end }, ids))
    : new Map()
  const byUser = new Map<string, typeof rows>()
  for (const r of rows) {
    const list = byUser.get(r.userId) ?? []
    list.push(r)
    byUser.set(r.userId, list)
  }
  const summaries = shown.map((m) => ({
    id: `${date}:${m.id}`,
    userId: m.id,
    userName: m.name,
    role: m.role,
    ...summarise(byUser.get(m.id) ?? [], figures.get(m.id) ?? noCallFigures()),
  }))
  summaries.sort(
    (x, y) => y.performanceScore - x.performanceScore || x.userName.localeCompare(y.userName),
  )
  return { date, timeZone, targets: { ...dailyTargets }, summaries }
}

export async function overview(a: LiveActor): Promise<OverviewResponse> {
  const now = a.now ?? new Date()
  const { timeZone } = await hospitalContext(a.db, a.hospitalId)
  const { start, end } = dayBounds(dateIn(now, timeZone), timeZone)
  const active = new Set(
    (await hospitalMembers(a.db, a.hospitalId)).filter((m) => m.active).map((m) => m.id),
  )
  return withTenant(a.db, tenant(a), async (tx) => {
    const presence = await tx.select().from(userPresence)
    const calls = await liveCallsByUser(tx, now)
    const callsToday = await callsStarted(tx, { start, end })
    const [today] = await tx
      .select({
        messages: sql<number>`count(*) filter (where ${activities.activityType} in ('email_sent', 'sms_sent', 'whatsapp_sent'))::int`,
      })
      .from(activities)
      .where(and(gte(activities.occurredAt, start), lt(activities.occurredAt, end)))
    return {
      teamOnline: presence.filter((p) => active.has(p.userId) && isOnlineAt(p, now)).length,
      ongoingCalls: [...calls.values()].reduce((s, n) => s + n, 0),
      callsToday,
      messagesSent: Number(today?.messages ?? 0),
    }
  })
}
