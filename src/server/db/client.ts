import { PGlite } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { ExtractTablesWithRelations } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import pg from 'pg'
import { beginEmbeddedInit } from './embedded-init'
import { embeddedStartParams, compileWasmWithBaselineOnly } from './embedded-memory'
import { applyMigrations } from './migrate'
import * as appointments from './schema/appointments'
import * as audit from './schema/audit'
import * as auth from './schema/auth'
import * as backups from './schema/backups'
import * as billing from './schema/billing'
import * as calls from './schema/calls'
import * as campaigns from './schema/campaigns'
import * as demoRequests from './schema/demo-requests'
import * as erasure from './schema/erasure'
import * as faqs from './schema/faqs'
import * as hospitals from './schema/hospitals'
import * as jobs from './schema/jobs'
import * as leadGeneration from './schema/lead-generation'
import * as leads from './schema/leads'
import * as messaging from './schema/messaging'
import * as liveMonitoring from './schema/live-monitoring'
import * as meta from './schema/meta'
import * as patients from './schema/patients'
import * as platform from './schema/platform'
import * as rateLimits from './schema/rate-limits'
import * as security from './schema/security'
import * as settings from './schema/settings'
import * as support from './schema/support'
import * as supportTickets from './schema/support-tickets'
import * as team from './schema/team'

/** The extensions every embedded database opens with (the migrations create them). */
export const embeddedExtensions = { pg_trgm, btree_gist, btree_gin }

export const schema = {
  ...hospitals,
  ...auth,
  ...patients,
  ...leads,
  ...audit,
  ...demoRequests,
  ...security,
  ...rateLimits,
  ...jobs,
  ...messaging,
  ...meta,
  ...appointments,
  ...billing,
  ...platform,
  ...team,
  ...settings,
  ...support,
  ...leadGeneration,
  ...faqs,
  ...supportTickets,
  ...campaigns,
  ...liveMonitoring,
  ...backups,
  ...erasure,
  ...calls,
}
export type Schema = typeof schema
export type AppDb = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>

export interface Database {
  db: AppDb
  driver: 'pglite' | 'postgres'
  close: () => Promise<void>
  /** Embedded only: a gzipped tarball of the whole data directory, taken consistently. */
  dump?: () => Promise<Uint8Array>
}

/**
 * A request waits at most this long for a connection (to PostgreSQL or PgBouncer), then fails
 * with 503 DATABASE_UNAVAILABLE instead of hanging while the database is away.
 */
export const CONNECT_TIMEOUT_MS = 5_000

/** Pool settings shared by the app's pool and the migration pool. */
function poolConfig(connectionString: string, max: number): pg.PoolConfig {
  return { connectionString, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true }
}

/**
 * An idle pooled connection that dies (PostgreSQL restarted, PgBouncer killed) makes the pool
 * emit 'error'; unhandled, that would end the process. The pool drops that connection and
 * opens a new one when the database is back, so there is nothing more to do than report it.
 */
function survive(pool: pg.Pool, onError: DatabaseOptions['onConnectionError']): pg.Pool {
  let reported = 0
  // pg-pool listens for a connection's 'error' only while it is idle: one that dies while
  // checked out (mid-transaction) would emit it unhandled and end the process. Its query
  // fails on its own, and the caller releases it as broken; nothing more to do here.
  pool.on('connect', (client) => {
    client.on('error', () => undefined)
  })
  pool.on('error', (error) => {
    if (onError) return onError(error)
    // One line per burst (a restart drops every idle connection at once).
    if (Date.now() - reported < 10_000) return
    reported = Date.now()
    console.warn(`Database connection lost (${error.message}); reconnecting on the next query.`)
  })
  return pool
}

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent, embedded PGlite. */
  databaseUrl?: string | undefined
  /**
   * Owner URL for migrations (DATABASE_MIGRATION_URL); databaseUrl may then be a login role
   * that is neither superuser nor owner and holds only app_platform and app_user.
   */
  migrationUrl?: string | undefined
  /** PGlite data directory; when absent (and no URL), an in-memory database. */
  dataDir?: string | undefined
  /** Embedded only: start a new data directory from a snapshot (db/snapshots.ts). */
  restoreFrom?: Uint8Array | undefined
  /** PostgreSQL only: an idle pooled connection died (default: one warning per burst). */
  onConnectionError?: ((error: Error) => void) | undefined
}

/** Opens the database and applies committed migrations (db/migrate.ts: once, under a lock). */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    if (options.migrationUrl) {
      const owner = survive(new pg.Pool(poolConfig(options.migrationUrl, 1)), undefined)
      try {
        await applyMigrations(drizzlePg(owner) as never)
      } finally {
        await owner.end()
      }
    }
    const pool = survive(
      new pg.Pool(poolConfig(options.databaseUrl, 10)),
      options.onConnectionError,
    )
    const connections = openConnections(pool)
    const db = drizzlePg(pool, { schema }) as unknown as AppDb
    if (!options.migrationUrl) {
      try {
        await applyMigrations(db as never)
      } catch (error) {
        await endPool(pool, connections)
        throw error
      }
    }
    return { db, driver: 'postgres', close: () => endPool(pool, connections) }
  }
  const made = options.dataDir
    ? beginEmbeddedInit(options.dataDir, Boolean(options.restoreFrom))
    : undefined
  compileWasmWithBaselineOnly()
  const client = await PGlite.create({
    dataDir: options.dataDir,
    extensions: embeddedExtensions,
    startParams: embeddedStartParams(),
    ...(options.restoreFrom ? { loadDataDir: new Blob([Buffer.from(options.restoreFrom)]) } : {}),
  })
  made?.()
  const db = drizzlePglite(client, { schema }) as unknown as AppDb
  try {
    await applyMigrations(db as never)
  } catch (error) {
    await client.close()
    throw error
  }
  return {
    db,
    driver: 'pglite',
    close: () => client.close(),
    dump: async () => new Uint8Array(await (await client.dumpDataDir('gzip')).arrayBuffer()),
  }
}

/** The pool's connections that have not closed yet. */
function openConnections(pool: pg.Pool): Set<pg.PoolClient> {
  const open = new Set<pg.PoolClient>()
  pool.on('connect', (client) => {
    open.add(client)
    client.once('end', () => open.delete(client))
  })
  return open
}

/**
 * pool.end() resolves before its connections have closed; wait for them (at most 5 s), so
 * that whatever runs next (a DROP DATABASE in tests, process exit) finds none still open.
 */
async function endPool(pool: pg.Pool, open: Set<pg.PoolClient>): Promise<void> {
  const closed = [...open].map((c) => new Promise<void>((resolve) => c.once('end', resolve)))
  await pool.end()
  await Promise.race([
    Promise.all(closed),
    new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
  ])
}
