import { eq, sql } from 'drizzle-orm'
import { DEFAULT_TIME_ZONE } from '../../../shared/dates'
import { DEFAULT_FOLLOW_UP_DAYS, type Stats } from '../../../shared/schemas/leads'
import type { AppDb } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { communications, leads, leadSettings } from '../../db/schema/leads'
import { withPlatform, withTenant } from '../../db/tenant'
import type { TenantOptions } from './leads.rows'

/** The hospital's IANA time zone (a platform table, so read as the platform). */
export async function timeZoneOf(db: AppDb, hospitalId: string): Promise<string> {
  const [row] = await withPlatform(db, (tx) =>
    tx.select({ tz: hospitals.timeZone }).from(hospitals).where(eq(hospitals.id, hospitalId)),
  )
  return row?.tz ?? DEFAULT_TIME_ZONE
}

/** a as a percentage of b, to `decimals` places; 0 when b is 0. */
function percent(a: number, b: number, decimals: number): number {
  if (!b) return 0
  const scale = 10 ** decimals
  return Math.round((a / b) * 100 * scale) / scale
}

/**
 * GET /api/stats (shared/schemas/leads.ts defines each figure). Days are the hospital's
 * calendar days: "today" starts at its midnight, and a follow-up is due on the day
 * `followUpDays` after the local day of the last contact (or of the creation, if never
 * contacted). One pass over the hospital's leads with FILTER aggregates, the follow-up days
 * and the unread count as InitPlans.
 */
export async function leadStats(opts: TenantOptions): Promise<Stats> {
  const tz = await timeZoneOf(opts.db, opts.hospitalId)
  const today = sql`(now() at time zone ${tz})::date`
  const dayStart = (daysAgo: number) =>
    sql`((now() at time zone ${tz})::date - ${daysAgo}::int)::timestamp at time zone ${tz}`
  const days = sql`coalesce((select ${leadSettings.followUpDays} from ${leadSettings}), ${DEFAULT_FOLLOW_UP_DAYS}::int)`
  const dueDay = sql`((coalesce(${leads.lastContactAt}, ${leads.createdAt}) at time zone ${tz})::date + ${days})`
  const waiting = sql`${leads.status} in ('contacted', 'follow-up')`
  const n = (condition: ReturnType<typeof sql>) =>
    sql<number>`(count(*) filter (where ${condition}))::int`

  const [row] = await withTenant(opts.db, opts, (tx) =>
    tx
      .select({
        total: sql<number>`count(*)::int`,
        new: n(sql`${leads.status} = 'new'`),
        converted: n(sql`${leads.status} = 'converted'`),
        followUps: n(sql`${waiting} and ${dueDay} <= ${today}`),
        overdue: n(sql`${waiting} and ${dueDay} < ${today}`),
        lastWeek: n(sql`${leads.createdAt} >= ${dayStart(6)}`),
        weekBefore: n(
          sql`${leads.createdAt} >= ${dayStart(13)} and ${leads.createdAt} < ${dayStart(6)}`,
        ),
        today: n(sql`${leads.createdAt} >= ${dayStart(0)}`),
        followUpDays: sql<number>`(${days})::int`,
        unread: sql<number>`(select count(*) from ${communications} where ${communications.direction} = 'inbound' and ${communications.readAt} is null)::int`,
      })
      .from(leads),
  )
  const s = row ?? {
    total: 0,
    new: 0,
    converted: 0,
    followUps: 0,
    overdue: 0,
    lastWeek: 0,
    weekBefore: 0,
    today: 0,
    followUpDays: DEFAULT_FOLLOW_UP_DAYS,
    unread: 0,
  }
  return {
    totalLeads: s.total,
    newLeads: s.new,
    followUps: s.followUps,
    converted: s.converted,
    followUpDays: s.followUpDays,
    trends: {
      totalChangePct: s.weekBefore ? percent(s.lastWeek - s.weekBefore, s.weekBefore, 0) : null,
      newToday: s.today,
      conversionRate: percent(s.converted, s.total, 1),
      followUpsOverdue: s.overdue,
    },
    unreadInbound: s.unread,
    bellCount: s.overdue + s.unread,
  }
}
