import { eq, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { backupConfigurations, backupLogs } from '../schema/backups'
import { hospitals } from '../schema/hospitals'

const HOUR = 3_600_000

/**
 * Issue 29: the first demo hospital (Sanjeevani) gets a daily offline backup of every data
 * type and a week of its Recent Backup Activity: successful runs with realistic sizes and
 * counts and one failed run with its message. The seeded logs have no file (they were never
 * written), so they are not downloadable. Runs in the seed's transaction; adds nothing to a
 * hospital that has a configuration; leaves the role as it found it.
 */
export async function seedDemoBackups(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
  now: Date,
): Promise<boolean> {
  const first = demo[0]
  if (!first) return false
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const [row] = await tx
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(eq(hospitals.email, first.email))
  if (!row) return false
  const [admin] = await tx
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, `admin@${first.key}.demo`))
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
  )
  const [any] = await tx.select({ id: backupConfigurations.id }).from(backupConfigurations).limit(1)
  if (!any) {
    // The last run two hours ago: the next one is due in 22 hours.
    const lastRun = new Date(now.getTime() - 2 * HOUR)
    const [config] = await tx
      .insert(backupConfigurations)
      .values({
        hospitalId: row.id,
        backupType: 'offline',
        frequency: '1day',
        dataTypes: ['leads', 'sales', 'billing'],
        isActive: true,
        lastBackup: lastRun,
        lastRunAt: lastRun,
        createdBy: admin?.id ?? null,
        createdAt: new Date(now.getTime() - 8 * 24 * HOUR),
      })
      .returning({ id: backupConfigurations.id })
    const runs = [
      { daysAgo: 0, size: 4_812_331, count: 18_412 },
      { daysAgo: 1, size: 4_790_118, count: 18_350 },
      {
        daysAgo: 2,
        failed: 'The backup failed. Try again, or contact support if it keeps failing.',
      },
      { daysAgo: 3, size: 4_701_904, count: 18_122 },
      { daysAgo: 4, size: 4_688_263, count: 18_047 },
      { daysAgo: 5, size: 4_650_772, count: 17_930 },
    ]
    await tx.insert(backupLogs).values(
      runs.map((r) => {
        const startedAt = new Date(now.getTime() - r.daysAgo * 24 * HOUR - 2 * HOUR)
        return {
          hospitalId: row.id,
          configurationId: config?.id ?? null,
          status: r.failed ? ('failed' as const) : ('success' as const),
          backupType: 'offline' as const,
          dataTypes: ['leads', 'sales', 'billing'] as ('leads' | 'sales' | 'billing')[],
          origin: 'seed' as const,
          startedAt,
          finishedAt: new Date(startedAt.getTime() + (r.failed ? 4_000 : 38_000)),
          dataSize: r.size ?? null,
          recordCount: r.count ?? null,
          progress: r.failed ? 40 : 100,
          error: r.failed ?? null,
        }
      }),
    )
  }
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return !any
}
