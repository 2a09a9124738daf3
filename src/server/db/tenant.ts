import { sql } from 'drizzle-orm'
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres'
import type { PgDialect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import type { AppDb, Tx } from './client'

export interface TenantContext {
  hospitalId: string
  userId: string | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** drizzle's node-postgres internals that a transaction on our own connection needs. */
interface PgInternals {
  $client: unknown
  dialect: PgDialect
  session: {
    schema: ConstructorParameters<typeof NodePgSession>[2]
    options: ConstructorParameters<typeof NodePgSession>[3]
  }
}

/**
 * The only way a request touches tenant rows: one transaction, running as app_user
 * (no superuser, no BYPASSRLS) with app.hospital_id set transaction-locally, so the
 * forced RLS policies scope every statement to this hospital.
 *
 * On PostgreSQL the tenant is set in the same round trip as BEGIN (one simple-protocol
 * message with two statements), so a one-statement read costs 3 round trips: BEGIN + tenant,
 * the statement, COMMIT (docs/decisions/010). Both settings are transaction-local: safe behind
 * PgBouncer in transaction mode. Only the hospital id is interpolated, and only after it was
 * checked to be a UUID.
 */
export async function withTenant<T>(
  db: AppDb,
  ctx: TenantContext,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (!UUID.test(ctx.hospitalId)) throw new Error('withTenant: the hospital id is not a UUID')
  const internals = db as unknown as PgInternals
  const pool = internals.$client
  if (pool instanceof pg.Pool) return pgTenantTransaction(pool, internals, ctx, fn)
  // PGlite: its transaction() keeps other queries out of this one (it runs one at a time) and
  // sends BEGIN itself. The settings go in one simple-protocol exec: measured 15-20% cheaper
  // per tenant transaction than drizzle's extended-protocol execute (a PGlite round trip is an
  // in-process call of about 0.1-0.3 ms, not free).
  return db.transaction(async (tx) => {
    const client = (tx as unknown as { session?: { client?: { exec?: unknown } } }).session?.client
    if (client && typeof client.exec === 'function') {
      await (client.exec as (query: string) => Promise<unknown>).call(client, tenantSql(ctx))
    } else {
      await tx.execute(
        sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${ctx.hospitalId}, true)`,
      )
    }
    return fn(tx as Tx)
  })
}

/** Role and tenant for this transaction only; the hospital id was checked to be a UUID. */
function tenantSql(ctx: TenantContext): string {
  return `select set_config('role', 'app_user', true), set_config('app.hospital_id', '${ctx.hospitalId}', true)`
}

async function pgTenantTransaction<T>(
  pool: pg.Pool,
  db: PgInternals,
  ctx: TenantContext,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  const session = new NodePgSession(client, db.dialect, db.session.schema, db.session.options)
  const tx = new NodePgTransaction(db.dialect, session, db.session.schema)
  let broken: Error | undefined
  try {
    await client.query(`begin; ${tenantSql(ctx)}`)
    const result = await fn(tx as unknown as Tx)
    await client.query('commit')
    return result
  } catch (error) {
    // Outside a transaction (BEGIN or COMMIT failed) ROLLBACK only warns. A connection that
    // cannot even roll back is not given back to the pool.
    await client.query('rollback').catch((e: unknown) => {
      broken = e instanceof Error ? e : new Error(String(e))
    })
    throw error
  } finally {
    client.release(broken)
  }
}

/**
 * Platform queries (super admin, sign-in, seeding): run as the connecting role on
 * platform tables. Named so that every use is deliberate and easy to find.
 */
export async function withPlatform<T>(db: AppDb, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => fn(tx as Tx))
}
