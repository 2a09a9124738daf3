import { eq, sql } from 'drizzle-orm'
import { DEFAULT_TIME_ZONE } from '../../../shared/dates'
import { DEFAULT_FOLLOW_UP_DAYS, type Stats } from '../../../shared/schemas/leads'
import type { AppDb, Tx } from '../../db/client'
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

interface StatsRow {
  total: number
  new: number
  converted: number
  followUps: number
  overdue: number
  lastWeek: number
  weekBefore: number
  today: number
  followUpDays: number
  unread: number
}

async function rowsOf<T>(tx: Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
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
 * contacted), that is when `follow_up_from` is before the local midnight `followUpDays - 1`
 * days ago. Each figure reads an index range, not every lead: the status counts one pass over
 * the (hospital, status) index, the follow-ups a range of the waiting leads' index, the trends
 * the last 14 days of the creation index (issue 8 bench: 100,000 leads in 236 → about 15 ms).
 * Follow-ups also count "call back at…" dispositions (issue 41) due today or earlier (overdue
 * before today), of open leads whose newest call it is (a later call replaces it): a range of
 * the calls' call-back index. A lead due both ways counts once.
 */
export async function leadStats(opts: TenantOptions): Promise<Stats> {
  const tz = await timeZoneOf(opts.db, opts.hospitalId)
  const midnight = (daysAgo: ReturnType<typeof sql>) =>
    sql`((now() at time zone ${tz})::date - ${daysAgo})::timestamp at time zone ${tz}`
  const days = sql`(select days from settings)`
  const waiting = sql`${leads.status} in ('contacted', 'follow-up')`
  const dueBefore = midnight(sql`(${days} - 1)`)
  const overdueBefore = midnight(days)
  const todayStart = midnight(sql`0`)
  const tomorrowStart = midnight(sql`(-1)`)

  const [row] = await withTenant(opts.db, opts, (tx) =>
    rowsOf<StatsRow>(
      tx,
      sql`with settings as (
            select coalesce((select ${leadSettings.followUpDays} from ${leadSettings}), ${DEFAULT_FOLLOW_UP_DAYS}::int) as days
          ),
          by_status as (
            select ${leads.status} as status, count(*)::int as n from ${leads} group by ${leads.status}
          ),
          due_leads as (
            select ${leads.id} as id, ${leads.followUpFrom} < ${overdueBefore} as overdue
            from ${leads} where ${waiting} and ${leads.followUpFrom} < ${dueBefore}
            union all
            select c.lead_id as id, c.call_back_at < ${todayStart} as overdue
            from calls c join leads l on l.hospital_id = c.hospital_id and l.id = c.lead_id
            where c.call_back_at is not null and c.call_back_at < ${tomorrowStart}
              and l.status not in ('converted', 'rejected')
              and not exists (
                select 1 from calls later
                where later.hospital_id = c.hospital_id and later.lead_id = c.lead_id
                  and (later.created_at, later.id) > (c.created_at, c.id)
              )
          ),
          follow_ups as (
            select count(distinct id)::int as due,
                   (count(distinct id) filter (where overdue))::int as overdue
            from due_leads
          ),
          recent as (
            select (count(*) filter (where ${leads.createdAt} >= ${midnight(sql`6`)}))::int as last_week,
                   (count(*) filter (where ${leads.createdAt} < ${midnight(sql`6`)}))::int as week_before,
                   (count(*) filter (where ${leads.createdAt} >= ${midnight(sql`0`)}))::int as today
            from ${leads} where ${leads.createdAt} >= ${midnight(sql`13`)}
          )
          select (select coalesce(sum(n), 0) from by_status)::int as "total",
                 (select coalesce(sum(n), 0) from by_status where status = 'new')::int as "new",
                 (select coalesce(sum(n), 0) from by_status where status = 'converted')::int as "converted",
                 follow_ups.due as "followUps", follow_ups.overdue as "overdue",
                 recent.last_week as "lastWeek", recent.week_before as "weekBefore",
                 recent.today as "today", (select days from settings)::int as "followUpDays",
                 (select count(*) from ${communications}
                  where ${communications.direction} = 'inbound' and ${communications.readAt} is null)::int as "unread"
          from follow_ups, recent`,
    ),
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
