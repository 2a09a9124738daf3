import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/server/db/client'
import {
  applyMigrations,
  appliedMigrationMillis,
  latestMigrationMillis,
  MIGRATIONS_FOLDER,
} from '../../src/server/db/migrate'
import { hasPgBouncer, startPgBouncer } from '../support/pgbouncer'
import { openTestDatabase, queryRows } from '../support/test-app'

// Issue 16: migrations run in one transaction under pg_advisory_xact_lock, so instances that
// start together on one database (directly or through PgBouncer in transaction mode) all
// come up and each migration is applied and recorded once.
const serverUrl = process.env.TEST_DATABASE_URL
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: { when: number }[]
}

async function admin(text: string) {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

const created: string[] = []
afterAll(async () => {
  for (const name of created) await admin(`drop database if exists ${name} with (force)`)
})

async function freshDatabase(): Promise<{ name: string; url: (base: string) => string }> {
  const name = `arogya_migr_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  await admin(`create database ${name}`)
  created.push(name)
  return {
    name,
    url: (base) => {
      const url = new URL(base)
      url.pathname = `/${name}`
      return url.toString()
    },
  }
}

/** Each journal entry recorded exactly once, in order. */
async function expectRecordedOnce(database: Database) {
  const rows = await queryRows<{ created_at: string }>(
    database.db,
    sql`select created_at from drizzle.__drizzle_migrations order by id`,
  )
  expect(rows.map((r) => Number(r.created_at))).toEqual(journal.entries.map((e) => e.when))
}

async function startTogether(urls: string[]) {
  const results = await Promise.allSettled(urls.map((u) => openDatabase({ databaseUrl: u })))
  const opened = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
  try {
    for (const r of results) {
      if (r.status === 'rejected') throw r.reason
    }
    await expectRecordedOnce(opened[0] as Database)
    // Every instance serves: a query through each pool.
    for (const database of opened) {
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from hospitals`,
      )
      expect(row?.n).toBe(0)
    }
  } finally {
    for (const database of opened) await database.close()
  }
}

describe('migrations', () => {
  it('apply nothing the second time and record the journal once', async () => {
    const { database, drop } = await openTestDatabase()
    try {
      await expectRecordedOnce(database)
      expect(await applyMigrations(database.db as never)).toEqual({ applied: 0 })
      await expectRecordedOnce(database)
      expect(await appliedMigrationMillis(database.db as never)).toBe(latestMigrationMillis())
    } finally {
      await drop()
    }
  })

  describe.runIf(serverUrl)('three instances starting together on one PostgreSQL', () => {
    it('directly: all come up, each migration once', async () => {
      const db = await freshDatabase()
      const url = db.url(serverUrl ?? '')
      await startTogether([url, url, url])
    }, 60_000)

    it.runIf(hasPgBouncer)(
      'through PgBouncer in transaction mode: all come up, each migration once',
      async () => {
        const db = await freshDatabase()
        const bouncer = await startPgBouncer(new URL(serverUrl ?? ''))
        try {
          const url = bouncer.url(db.name)
          await startTogether([url, url, url])
        } finally {
          await bouncer.stop()
        }
      },
      60_000,
    )

    it('a migration that fails leaves nothing behind, and the next start migrates', async () => {
      const db = await freshDatabase()
      const url = db.url(serverUrl ?? '')
      // A table that the first migration creates makes it fail half-way through.
      const blocker = new pg.Client({ connectionString: url })
      await blocker.connect()
      await blocker.query('create table patients (x int)')
      await expect(openDatabase({ databaseUrl: url })).rejects.toThrow()
      const left = await blocker.query<{ n: number }>(
        `select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`,
      )
      expect(left.rows[0]?.n).toBe(1)
      await blocker.query('drop table patients')
      await blocker.end()
      const database = await openDatabase({ databaseUrl: url })
      try {
        await expectRecordedOnce(database)
      } finally {
        await database.close()
      }
    }, 60_000)
  })
})
