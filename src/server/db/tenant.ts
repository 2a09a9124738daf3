import { sql } from 'drizzle-orm'
import type { AppDb, Tx } from './client'

export interface TenantContext {
  hospitalId: string
  userId: string | null
}

/**
 * The only way a request touches tenant rows: one transaction, running as app_user
 * (no superuser, no BYPASSRLS) with app.hospital_id set transaction-locally, so the
 * forced RLS policies scope every statement to this hospital.
 */
export async function withTenant<T>(
  db: AppDb,
  ctx: TenantContext,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    // One round trip: SET LOCAL ROLE app_user and the tenant, both transaction-local.
    await tx.execute(
      sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${ctx.hospitalId}, true)`,
    )
    return fn(tx as Tx)
  })
}

/**
 * Platform queries (super admin, sign-in, seeding): run as the connecting role on
 * platform tables. Named so that every use is deliberate and easy to find.
 */
export async function withPlatform<T>(db: AppDb, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => fn(tx as Tx))
}
