import { randomBytes } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { type AppOptions, buildApp } from '../../src/server/app'
import type { Auth } from '../../src/server/auth/auth'
import { type AppDb, type Database, openDatabase } from '../../src/server/db/client'
import { seedDemo } from '../../src/server/db/seed/demo'
import { parseSecretsKeys } from '../../src/server/secrets/keys'
import { installSecretsKeys } from '../../src/server/secrets/secrets'
import { captureMailFor } from './mail'
import { adminQuery, pgliteTemplate, postgresTemplate, type TemplateKind } from './templates'

/** The password every seeded demo account gets in tests. */
export const TEST_PASSWORD = 'arogya-test-password-2026'
/** A fixed signing secret (better-auth wants 32+ characters). */
export const TEST_AUTH_SECRET = 'arogya-integration-tests-secret-0123456789abcdef'
/** The key hospitals' secrets are encrypted under in tests (id `test`). */
export const TEST_SECRETS_KEY = `test:${Buffer.alloc(32, 7).toString('base64')}`

export interface TestDatabase {
  database: Database
  /** PostgreSQL: the database itself (no pooler), for LISTEN (env DATABASE_DIRECT_URL). */
  directUrl?: string
  /** Closes the connection and, on PostgreSQL, drops the per-file database. */
  drop: () => Promise<void>
}

/**
 * A fresh database for one test file: in-memory PGlite by default, or a uniquely named
 * database on the PostgreSQL server at TEST_DATABASE_URL (dropped again in drop()). Migrated;
 * `seeded` also holds the demo hospitals. Both come from the run's templates when vitest's
 * global setup made them (tests/support/templates.ts), else they are built here.
 */
export async function openTestDatabase(kind: TemplateKind = 'migrated'): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) {
    const database = await openDatabase({ restoreFrom: pgliteTemplate(kind) })
    return { database, drop: () => database.close() }
  }
  const name = `arogya_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const template = postgresTemplate(kind)
  await adminQuery(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  let database: Database
  try {
    database = await openDatabase({ databaseUrl: url.toString() })
  } catch (error) {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    throw error
  }
  return {
    database,
    directUrl: url.toString(),
    drop: async () => {
      await database.close()
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

export interface TestApp {
  app: FastifyInstance
  auth: Auth
  database: Database
  db: AppDb
  driver: Database['driver']
  /** PostgreSQL: the database itself, for a LISTEN of the test's own (undefined on PGlite). */
  directUrl: string | undefined
  close: () => Promise<void>
}

/** Builds the real app on a fresh, seeded database. Call close() in afterAll. */
export async function createTestApp(
  overrides: Partial<Omit<AppOptions, 'database'>> = {},
): Promise<TestApp> {
  installSecretsKeys(parseSecretsKeys(TEST_SECRETS_KEY))
  const fromTemplate = Boolean(
    process.env.TEST_DATABASE_URL ? postgresTemplate('seeded') : pgliteTemplate('seeded'),
  )
  const { database, drop, directUrl } = await openTestDatabase(fromTemplate ? 'seeded' : 'migrated')
  try {
    const { app, auth } = await buildApp({
      database,
      databaseDirectUrl: directUrl,
      authSecret: TEST_AUTH_SECRET,
      authRateLimit: false,
      logLevel: 'silent',
      // Every injected request comes from 127.0.0.1: keep the per-IP ceiling out of the way.
      signInThrottle: { ipCeiling: 10_000 },
      // The outbox masks links: tests read them from the mail the app handed over (./mail).
      mailCapture: captureMailFor(database.db),
      ...overrides,
    })
    if (!fromTemplate) await seedDemo(database.db, auth, TEST_PASSWORD)
    await app.ready()
    return {
      app,
      auth,
      database,
      db: database.db,
      driver: database.driver,
      directUrl,
      close: async () => {
        await app.close()
        await drop()
      },
    }
  } catch (error) {
    await drop()
    throw error
  }
}

/** Rows of a raw SQL statement, the same on both drivers. */
export async function queryRows<T = Record<string, unknown>>(db: AppDb, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

export type DemoHospital = 'sanjeevani' | 'smiledental'
export type DemoRole = 'admin' | 'doctor' | 'nurse' | 'receptionist' | 'viewer'

export const SUPER_ADMIN_EMAIL = 'superadmin@arogya.demo'

/** 'doctor@sanjeevani.demo' */
export function demoEmail(role: DemoRole, hospital: DemoHospital = 'sanjeevani'): string {
  return `${role}@${hospital}.demo`
}

/** The id of a seeded demo hospital, found by its contact email. */
export async function hospitalIdOf(db: AppDb, hospital: DemoHospital): Promise<string> {
  const email = hospital === 'sanjeevani' ? 'contact@sanjeevani.demo' : 'hello@smiledental.demo'
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from hospitals where email = ${email}`,
  )
  if (!row) throw new Error(`demo hospital ${hospital} not seeded`)
  return row.id
}

/** The id of a user by email. */
export async function userIdOf(db: AppDb, email: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from users where email = ${email}`,
  )
  if (!row) throw new Error(`user ${email} not found`)
  return row.id
}
