import { sql } from 'drizzle-orm'
import type { AdminStats, PlatformStats } from '../../../shared/schemas/platform'
import type { AppDb } from '../../db/client'
import { withPlatform } from '../../db/tenant'

/**
 * GET /api/admin/platform-stats: hospitals, active hospital members, the monthly revenue (price
 * per user × current users, summed over active hospitals, in paise) and pending onboarding tasks.
 */
export async function platformStats(db: AppDb): Promise<PlatformStats> {
  const result = await withPlatform(db, (tx) =>
    tx.execute(sql`
      with members as (
        select hospital_id, count(*)::int as n from users
        where hospital_id is not null and is_active and not banned
        group by hospital_id
      )
      select
        (select count(*)::int from hospitals) as "totalHospitals",
        (select coalesce(sum(n), 0)::int from members) as "activeUsers",
        (select coalesce(sum(h.price_per_user::bigint * m.n), 0)::bigint from hospitals h
          join members m on m.hospital_id = h.id where h.subscription_status = 'active') as "monthlyRevenue",
        (select count(*)::int from onboarding_tasks where completed_at is null) as "pendingTasks"`),
  )
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {}
  return {
    totalHospitals: Number(row.totalHospitals ?? 0),
    activeUsers: Number(row.activeUsers ?? 0),
    monthlyRevenue: Number(row.monthlyRevenue ?? 0),
    pendingTasks: Number(row.pendingTasks ?? 0),
  }
}

/**
 * GET /api/admin/stats: every account, the active ones (not suspended), those created today in
 * India's time zone, and the monthly revenue as on the Super Admin Dashboard.
 */
export async function adminStats(db: AppDb): Promise<AdminStats> {
  const result = await withPlatform(db, (tx) =>
    tx.execute(sql`
      select
        (select count(*)::int from users) as "totalUsers",
        (select count(*)::int from users where is_active and not banned) as "activeUsers",
        (select count(*)::int from users where created_at >=
          (date_trunc('day', now() at time zone 'Asia/Kolkata') at time zone 'Asia/Kolkata'))
          as "newUsersToday"`),
  )
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {}
  const { monthlyRevenue } = await platformStats(db)
  return {
    totalUsers: Number(row.totalUsers ?? 0),
    activeUsers: Number(row.activeUsers ?? 0),
    newUsersToday: Number(row.newUsersToday ?? 0),
    totalRevenue: monthlyRevenue,
  }
}
