import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { ExtractTablesWithRelations } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { projectRoot } from '../project-root'
import * as audit from './schema/audit'
import * as auth from './schema/auth'
import * as demoRequests from './schema/demo-requests'
import * as hospitals from './schema/hospitals'
import * as patients from './schema/patients'
import * as security from './schema/security'

export const schema = { ...hospitals, ...auth, ...patients, ...audit, ...demoRequests, ...security }
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

const migrationsFolder = join(projectRoot, 'drizzle')

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
}

/** Opens the database and applies committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    if (options.migrationUrl) {
      const owner = new pg.Pool({ connectionString: options.migrationUrl, max: 1 })
      try {
        await migratePg(drizzlePg(owner) as never, { migrationsFolder })
      } finally {
        await owner.end()
      }
    }
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 })
    const db = drizzlePg(pool, { schema }) as unknown as AppDb
    if (!options.migrationUrl) await migratePg(db as never, { migrationsFolder })
    return { db, driver: 'postgres', close: () => pool.end() }
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  const client = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { pg_trgm },
    ...(options.restoreFrom ? { loadDataDir: new Blob([Buffer.from(options.restoreFrom)]) } : {}),
  })
  const db = drizzlePglite(client, { schema }) as unknown as AppDb
  await migratePglite(db as never, { migrationsFolder })
  return {
    db,
    driver: 'pglite',
    close: () => client.close(),
    dump: async () => new Uint8Array(await (await client.dumpDataDir('gzip')).arrayBuffer()),
  }
}
