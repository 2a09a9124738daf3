import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { type Database, openDatabase } from '../../src/server/db/client'
import {
  type HandlerOptions,
  type JobHandler,
  registerHandler,
} from '../../src/server/jobs/registry'
import { Worker, type WorkerOptions } from '../../src/server/jobs/worker'
import { openTestDatabase, queryRows, type TestDatabase } from './test-app'

/**
 * A fresh database with two hospitals for the jobs test files (tests/integration/jobs*.test.ts):
 * PGlite by default; on PostgreSQL (TEST_DATABASE_URL) also a second pool, as a second
 * instance would have. Handlers and workers made through it are removed after each test.
 */
export interface JobsBed {
  t: TestDatabase
  db: Database['db']
  /** PostgreSQL only: a second pool on the same database. */
  second: Database | undefined
  a: string
  b: string
}

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

let counter = 0
/** A job name of its own for each test. */
export function uniqueName(label: string): string {
  counter += 1
  return `test.${label}.${counter}`
}

export function jobsTestBed(): JobsBed & {
  handle: (name: string, handler: JobHandler, options?: HandlerOptions) => void
  worker: (names: string[], options?: Partial<WorkerOptions>) => Worker
  cleanup: (fn: () => unknown) => void
  count: (name: string, where?: 'done' | 'queued' | 'all', hospitalId?: string) => Promise<number>
} {
  const bed = {} as JobsBed
  const cleanups: (() => unknown)[] = []
  beforeAll(async () => {
    bed.t = await openTestDatabase()
    bed.db = bed.t.database.db
    bed.second = bed.t.directUrl ? await openDatabase({ databaseUrl: bed.t.directUrl }) : undefined
    const rows = await queryRows<{ id: string }>(
      bed.db,
      sql`insert into hospitals (name, email) values ('A', 'a@jobs.test'), ('B', 'b@jobs.test') returning id`,
    )
    bed.a = rows[0]?.id ?? ''
    bed.b = rows[1]?.id ?? ''
  })
  afterEach(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn()
  })
  afterAll(async () => {
    await bed.second?.close()
    await bed.t?.drop()
  })
  return Object.assign(bed, {
    cleanup: (fn: () => unknown) => {
      cleanups.push(fn)
    },
    handle: (name: string, handler: JobHandler, options?: HandlerOptions) => {
      cleanups.push(registerHandler(name, handler, options))
    },
    worker: (names: string[], options: Partial<WorkerOptions> = {}) => {
      const w = new Worker({
        database: bed.t.database,
        names,
        pollMs: 20,
        leaseMs: 3_000,
        progressMs: 0,
        backoff: () => 10,
        directUrl: bed.t.directUrl,
        ...options,
      })
      cleanups.push(() => w.stop())
      return w
    },
    count: async (name: string, where: 'done' | 'queued' | 'all' = 'all', hospitalId?: string) => {
      const status = where === 'all' ? sql`true` : sql`status = ${where}`
      const hospital = hospitalId ? sql`hospital_id = ${hospitalId}` : sql`true`
      const [row] = await queryRows<{ n: number }>(
        bed.db,
        sql`select count(*)::int as n from jobs where name = ${name} and ${status} and ${hospital}`,
      )
      return row?.n ?? 0
    },
  })
}
