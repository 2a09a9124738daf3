import { sql } from 'drizzle-orm'
import type { PlatformStats } from '../../../shared/schemas/platform'
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
