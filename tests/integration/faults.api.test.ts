import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { openDatabase } from '../../src/server/db/client'
import { latestMigrationMillis, MIGRATION_LOCK_KEY } from '../../src/server/db/migrate'
import { seedDemo } from '../../src/server/db/seed/demo'
import {
  type Bundles,
  bundleServer,
  killLeftovers,
  killWhen,
  ready,
  run,
  startServer,
  stopServer,
  tempDirs,
} from '../support/spawn-server'
import { queryRows, TEST_AUTH_SECRET, TEST_PASSWORD } from '../support/test-app'

// Issue 16, faults: kill -9 during the first start (initdb, migrations) or a move to
// PostgreSQL leaves something the next run serves or explains: never a crash loop, never a
// half-copied target reported as done. Snapshots and restores: faults-snapshots.api.test.ts.
const serverUrl = process.env.TEST_DATABASE_URL
const migrationCount = (
  JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: unknown[] }
).entries.length

let bundles: Bundles
const temp = tempDirs()
const databases: string[] = []
beforeAll(async () => {
  bundles = await bundleServer()
}, 60_000)
afterAll(async () => {
  killLeftovers()
  bundles?.remove()
  temp.cleanup()
  for (const name of databases) await admin(`drop database if exists ${name} with (force)`)
})

async function admin<T extends pg.QueryResultRow>(text: string, values?: unknown[]) {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await client.query<T>(text, values)
  } finally {
    await client.end()
  }
}

async function freshPostgres(): Promise<string> {
  const name = `arogya_fault_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
  await admin(`create database ${name}`)
  databases.push(name)
  const url = new URL(serverUrl ?? '')
  url.pathname = `/${name}`
  return url.toString()
}

describe.runIf(!serverUrl)('kill -9 during the first start (embedded database)', () => {
  it('during initdb, then during migrations: the next start serves, migrations recorded once', async () => {
    const dataDir = temp.make('pglite')
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' }
    const entries = () => (existsSync(dataDir) ? readdirSync(dataDir) : [])
    const has = (entry: string) => entries().includes(entry)
    // PGlite's initdb: its folders are there, PG_VERSION not yet.
    await killWhen(
      await startServer(bundles.server, env),
      () => has('global') && !has('PG_VERSION'),
      0,
    )
    // initdb has written PG_VERSION but is not done (this one used to break the directory
    // for good: "PGlite failed to initialize properly" at every later start).
    await killWhen(
      await startServer(bundles.server, env),
      () => has('PG_VERSION') && has('.initializing'),
      0,
    )
    // The database is made; the migrations run (the session secret is written after them).
    await killWhen(
      await startServer(bundles.server, env),
      () => has('PG_VERSION') && !has('.initializing') && !has('.auth-secret'),
      0,
    )
    const server = await startServer(bundles.server, env)
    await ready(server)
    expect(await stopServer(server)).toBe(0)
    const database = await openDatabase({ dataDir })
    try {
      const rows = await queryRows<{ n: number; last: string }>(
        database.db,
        sql`select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations`,
      )
      expect(rows[0]).toEqual({ n: migrationCount, last: String(latestMigrationMillis()) })
    } finally {
      await database.close()
    }
  }, 180_000)
})

describe.runIf(serverUrl)('kill -9 during a migration (PostgreSQL)', () => {
  /** Some backend of the database holds the migrations' advisory lock. */
  async function migrating(url: string): Promise<boolean> {
    const name = new URL(url).pathname.slice(1)
    const key = MIGRATION_LOCK_KEY
    const { rows } = await admin<{ n: number }>(
      `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
       where l.locktype = 'advisory' and l.granted and d.datname = $1
         and l.classid = $2 and l.objid = $3 and l.objsubid = 1`,
      [name, Number(key >> 32n), Number(key & 0xffffffffn)],
    )
    return (rows[0]?.n ?? 0) > 0
  }

  async function recorded(url: string): Promise<{ migrations: number; tables: number }> {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const tables = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`,
      )
      const exists = await client.query<{ ok: boolean }>(
        `select to_regclass('drizzle.__drizzle_migrations') is not null as ok`,
      )
      const migrations = exists.rows[0]?.ok
        ? ((
            await client.query<{ n: number }>(
              'select count(*)::int as n from drizzle.__drizzle_migrations',
            )
          ).rows[0]?.n ?? 0)
        : 0
      return { migrations, tables: tables.rows[0]?.n ?? 0 }
    } finally {
      await client.end()
    }
  }

  it('leaves no half-migrated database; the next start migrates and serves', async () => {
    const url = await freshPostgres()
    const env = { DATABASE_URL: url, DATA_DIR: temp.make('pg'), SEED_DEMO: 'false' }
    for (const delay of [0, 30]) {
      await killWhen(await startServer(bundles.server, env), () => migrating(url), delay)
      // All or nothing: killed inside the one migration transaction, nothing is left (or,
      // had the kill come just after COMMIT, everything).
      const left = await recorded(url)
      if (left.migrations) expect(left.migrations).toBe(migrationCount)
      else expect(left).toEqual({ migrations: 0, tables: 0 })
    }
    const server = await startServer(bundles.server, env)
    await ready(server)
    expect(await stopServer(server)).toBe(0)
    expect((await recorded(url)).migrations).toBe(migrationCount)
  }, 180_000)
})

describe.runIf(serverUrl)('kill -9 during npm run db:to-postgres', () => {
  it('leaves the target empty and never says done; the next run copies it all', async () => {
    const dataDir = temp.make('move')
    const source = await openDatabase({ dataDir })
    const { app, auth } = await buildApp({
      database: source,
      authSecret: TEST_AUTH_SECRET,
      logLevel: 'silent',
    })
    await seedDemo(source.db, auth, TEST_PASSWORD)
    await app.close()
    await source.close()

    const url = await freshPostgres()
    const name = new URL(url).pathname.slice(1)
    const copy = () => run([bundles.toPostgres, url], { DATA_DIR: dataDir })
    /** The copy's transaction has inserted rows into the target (not yet committed). */
    const copying = async () =>
      ((
        await admin<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where datname = $1 and xact_start is not null and query like 'insert into%json_populate_recordset%'`,
          [name],
        )
      ).rows[0]?.n ?? 0) > 0
    const rowsInTarget = async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        const tables = await client.query<{ t: string }>(
          `select quote_ident(tablename) as t from pg_tables where schemaname = 'public'`,
        )
        let total = 0
        for (const { t } of tables.rows) {
          total +=
            (await client.query<{ n: number }>(`select count(*)::int as n from ${t}`)).rows[0]?.n ??
            0
        }
        return total
      } finally {
        await client.end()
      }
    }

    for (const delay of [0, 40]) {
      const killed = copy()
      await killWhen(killed, copying, delay)
      expect(killed.output()).not.toMatch(/Copied|every count and checksum matches/)
      expect(await rowsInTarget()).toBe(0)
    }
    const done = copy()
    expect(await done.exited, done.output()).toBe(0)
    expect(done.output()).toMatch(/every count and checksum matches/)
    expect(await rowsInTarget()).toBeGreaterThan(100)
    // Run again on the finished target (as after a kill between COMMIT and the report):
    // it says so plainly, and changes nothing.
    const again = copy()
    expect(await again.exited, again.output()).toBe(0)
    expect(again.output()).toMatch(/already holds a complete copy/)
    expect(again.output()).toMatch(/DATABASE_URL=/)
  }, 180_000)
})
