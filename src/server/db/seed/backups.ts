import { eq, sql } from 'drizzle-orm'
import { insertConfiguration } from '../../modules/backups/backup-configurations.service'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { backupConfigurations } from '../schema/backups'
import { hospitals } from '../schema/hospitals'

/**
 * Issue 29, issue 40 item 19: the first demo hospital (Sanjeevani) gets a daily offline backup
 * of every data type, created as an admin creates one (insertConfiguration, the service behind
 * Settings → Data), and no invented history: it has never run, so the scheduler's first tick
 * after start takes a real backup of the demo's data (a file that can be downloaded and
 * restored, its true size and record count). Runs in the seed's transaction; adds nothing to
 * a hospital that has a configuration; leaves the role as it found it.
 */
export async function seedDemoBackups(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
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
  if (!admin) return false
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
  )
  const [any] = await tx.select({ id: backupConfigurations.id }).from(backupConfigurations).limit(1)
  if (!any)
    await insertConfiguration(
      tx,
      { hospitalId: row.id, userId: admin.id, impersonatorUserId: null },
      { backupType: 'offline', frequency: '1day', dataTypes: ['leads', 'sales', 'billing'] },
    )
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return !any
}
