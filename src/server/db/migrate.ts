import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { projectRoot } from '../project-root'

/**
 * Migrations that any number of instances may run at the same time, also through PgBouncer
 * in transaction mode (issue 16).
 *
 * drizzle's own migrator creates its bookkeeping table outside a transaction and reads the
 * last applied migration before its transaction begins, so two instances starting together
 * both apply the same migrations and one of them fails. Here everything happens in ONE
 * transaction that first takes a transaction-scoped advisory lock (pooler safe: released at
 * COMMIT or ROLLBACK, never held by a session): the second instance waits, then finds the
 * migrations recorded and applies nothing. A start killed half-way rolls back whole, so the
 * next start finds the database as it was and migrates it.
 *
 * Bookkeeping is drizzle's own (drizzle.__drizzle_migrations: hash, created_at = the
 * journal's `when`), so databases migrated by either stay compatible.
 */

/** The committed migrations (drizzle-kit's output). */
export const MIGRATIONS_FOLDER = join(projectRoot, 'drizzle')

type AnyDb = PgDatabase<PgQueryResultHKT, Record<string, unknown>>

/** The advisory lock key of migrations (any constant; the demo seed uses another). */
export const MIGRATION_LOCK_KEY = 16_0001n

const SCHEMA = 'drizzle'
const TABLE = '__drizzle_migrations'

/** SQLSTATEs worth one more try: another database of the same cluster made a shared object
 * (a role) at the same moment, or the transaction lost a race. */
const RETRYABLE = new Set(['23505', '42710', '40001', '40P01'])

function sqlState(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}

export interface MigrateResult {
  /** Migrations applied by this call (0 when another instance or start had done them). */
  applied: number
}

async function migrateOnce(db: AnyDb, migrations: MigrationMeta[]): Promise<MigrateResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`)
    // Under the lock: nobody else is creating these now. Checked first so that a database
    // whose owner made them already needs no CREATE privilege here.
    const [table] = rowsOf<{ exists: boolean }>(
      await tx.execute(sql`select to_regclass(${`${SCHEMA}.${TABLE}`}) is not null as "exists"`),
    )
    if (!table?.exists) {
      await tx.execute(sql`create schema if not exists ${sql.identifier(SCHEMA)}`)
      await tx.execute(
        sql`create table if not exists ${sql.identifier(SCHEMA)}.${sql.identifier(TABLE)} (id serial primary key, hash text not null, created_at bigint)`,
      )
    }
    const [last] = rowsOf<{ created_at: string | number | null }>(
      await tx.execute(
        sql`select created_at from ${sql.identifier(SCHEMA)}.${sql.identifier(TABLE)} order by created_at desc limit 1`,
      ),
    )
    const lastMillis = last?.created_at == null ? null : Number(last.created_at)
    let applied = 0
    for (const migration of migrations) {
      if (lastMillis !== null && lastMillis >= migration.folderMillis) continue
      for (const statement of migration.sql) {
        // eslint-disable-next-line arogya/no-sql-raw -- committed migration files run as written
        if (statement.trim()) await tx.execute(sql.raw(statement))
      }
      await tx.execute(
        sql`insert into ${sql.identifier(SCHEMA)}.${sql.identifier(TABLE)} ("hash", "created_at") values (${migration.hash}, ${migration.folderMillis})`,
      )
      applied++
    }
    return { applied }
  })
}

/** Applies the pending migrations of `migrationsFolder` in one locked transaction. */
export async function applyMigrations(
  db: AnyDb,
  migrationsFolder = MIGRATIONS_FOLDER,
): Promise<MigrateResult> {
  const migrations = readMigrationFiles({ migrationsFolder })
  try {
    return await migrateOnce(db, migrations)
  } catch (error) {
    const state = sqlState(error)
    if (!state || !RETRYABLE.has(state)) throw error
    return migrateOnce(db, migrations)
  }
}

/** The `when` of the journal's last migration: what a database must have applied. */
export function latestMigrationMillis(migrationsFolder = MIGRATIONS_FOLDER): number {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
  ) as {
    entries: { when: number }[]
  }
  return Math.max(0, ...journal.entries.map((e) => e.when))
}

/**
 * The `created_at` of the database's last applied migration; null when none is recorded.
 * Throws when the bookkeeping table cannot be read (not there, or no privilege).
 */
export async function appliedMigrationMillis(db: AnyDb): Promise<number | null> {
  const [row] = rowsOf<{ last: string | number | null }>(
    await db.execute(
      sql`select max(created_at) as last from ${sql.identifier(SCHEMA)}.${sql.identifier(TABLE)}`,
    ),
  )
  return row?.last == null ? null : Number(row.last)
}
