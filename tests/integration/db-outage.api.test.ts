import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/server/app'
import { type Database, openDatabase } from '../../src/server/db/client'
import { seedDemo } from '../../src/server/db/seed/demo'
import { isDatabaseUnavailable } from '../../src/server/db/unavailable'
import { expectError, expectNoInternals } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { hasPgBouncer, type PgBouncer, startPgBouncer } from '../support/pgbouncer'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import {
  createTestApp,
  demoEmail,
  queryRows,
  TEST_AUTH_SECRET,
  TEST_PASSWORD,
} from '../support/test-app'

// Issue 16, faults: PgBouncer or PostgreSQL going away gives 503 from /readyz and a clear 503
// from the API (not a 500, not a hang), and the same process recovers when it comes back.
const serverUrl = process.env.TEST_DATABASE_URL
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('readiness checks migrations', () => {
  it('/readyz is 503 while the database lacks a migration this build has, 200 once it has it', async () => {
    const t = await createTestApp()
    try {
      const [last] = await queryRows<{ id: number; hash: string; created_at: string }>(
        t.db,
        sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      )
      if (!last) throw new Error('no migrations recorded')
      await t.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last.id}`)
      const other = await buildApp({
        database: t.database,
        authSecret: TEST_AUTH_SECRET,
        logLevel: 'silent',
      })
      try {
        const pending = await other.app.inject({ method: 'GET', url: '/readyz' })
        expect(pending.statusCode).toBe(503)
        expect(pending.json()).toMatchObject({
          status: 'unavailable',
          database: 'ok',
          migrations: 'pending',
        })
        await t.db.execute(
          sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${last.hash}, ${last.created_at})`,
        )
        const ready = await other.app.inject({ method: 'GET', url: '/readyz' })
        expect(ready.statusCode).toBe(200)
        expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied' })
      } finally {
        await other.app.close()
      }
    } finally {
      await t.close()
    }
  })
})

describe('connection errors are recognised', () => {
  it.each([
    [
      'refused',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6432'), { code: 'ECONNREFUSED' }),
    ],
    [
      'admin shutdown',
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
    ],
    ['connection failure', Object.assign(new Error('x'), { code: '08006' })],
    [
      'PgBouncer protocol',
      Object.assign(new Error('server login has been failing, try again later'), { code: '08P01' }),
    ],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['dropped', new Error('Connection terminated unexpectedly')],
    [
      'wrapped by drizzle',
      new Error('Failed query: select 1', {
        cause: Object.assign(new Error('x'), { code: '57P01' }),
      }),
    ],
  ])('%s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it.each([
    ['unique violation', Object.assign(new Error('duplicate'), { code: '23505' })],
    ['syntax', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['plain', new Error('boom')],
  ])('not %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false)
  })
})

describe.runIf(serverUrl)('PostgreSQL drops every connection (a restart)', () => {
  it('the process survives, and the next requests are served on new connections', async () => {
    const t = await createTestApp()
    try {
      const cookie = await login(t.app, demoEmail('doctor'))
      const patients = () =>
        t.app.inject({ method: 'GET', url: '/api/patients', headers: { cookie } })
      // Several requests at once, so the pool holds several idle connections.
      for (const res of await Promise.all([patients(), patients(), patients()])) {
        expect(res.statusCode).toBe(200)
      }
      const killer = new pg.Client({ connectionString: serverUrl })
      await killer.connect()
      const [{ name } = { name: '' }] = await queryRows<{ name: string }>(
        t.db,
        sql`select current_database() as name`,
      )
      const killed = await killer.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [name],
      )
      await killer.end()
      expect(killed.rows[0]?.n).toBeGreaterThan(0)
      await sleep(100)
      for (let i = 0; i < 3; i++) expect((await patients()).statusCode).toBe(200)
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
    } finally {
      await t.close()
    }
  })
})

describe.runIf(serverUrl && hasPgBouncer)('PgBouncer, or PostgreSQL behind it, goes away', () => {
  const name = `arogya_outage_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  // app -> PgBouncer -> TCP proxy -> PostgreSQL: either can be made to go away.
  let postgres: TcpProxy | undefined
  let bouncer: PgBouncer | undefined
  let database: Database | undefined
  let app: App | undefined
  let cookie = ''

  async function admin(text: string) {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }

  const upstream = () => new URL(`postgres://postgres@127.0.0.1:${postgres?.port}/postgres`)

  beforeAll(async () => {
    await admin(`create database ${name}`)
    postgres = await startTcpProxy(Number(new URL(serverUrl ?? '').port || 5432))
    bouncer = await startPgBouncer(upstream())
    database = await openDatabase({ databaseUrl: bouncer.url(name) })
    app = await buildApp({
      database,
      authSecret: TEST_AUTH_SECRET,
      logLevel: 'silent',
      authRateLimit: false,
      signInThrottle: { ipCeiling: 10_000 },
    })
    await seedDemo(database.db, app.auth, TEST_PASSWORD)
    cookie = await login(app.app, demoEmail('receptionist'))
  }, 60_000)

  afterAll(async () => {
    await app?.app.close()
    await database?.close()
    await bouncer?.stop()
    await postgres?.close()
    await admin(`drop database if exists ${name} with (force)`)
  })

  const readyz = () => (app as App).app.inject({ method: 'GET', url: '/readyz' })
  const patients = () =>
    (app as App).app.inject({ method: 'GET', url: '/api/patients', headers: { cookie } })

  function expectUnavailable(res: LightMyRequestResponse) {
    const body = expectError(res, 503, 'DATABASE_UNAVAILABLE')
    expect(body.message).toBe('The database is not reachable. Try again in a moment.')
    expect(res.headers['retry-after']).toBe('5')
  }

  function expectReadyzDown(res: LightMyRequestResponse) {
    expect(res.statusCode).toBe(503)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toMatchObject({ status: 'unavailable', database: 'down' })
    expectNoInternals(res)
  }

  /** Polls until the request answers 200 (the pool reconnects on its own), at most 10 s. */
  async function eventually200(request: () => Promise<LightMyRequestResponse>) {
    let res = await request()
    for (let i = 0; i < 40 && res.statusCode !== 200; i++) {
      await sleep(250)
      res = await request()
    }
    expect(res.statusCode, res.body).toBe(200)
    return res
  }

  it('PgBouncer killed: 503 from /readyz and the API, 200 again when it is back, no restart', async () => {
    expect((await readyz()).statusCode).toBe(200)
    expect((await patients()).statusCode).toBe(200)
    const port = bouncer?.port
    await bouncer?.kill()
    bouncer = undefined

    const started = Date.now()
    expectReadyzDown(await readyz())
    expectUnavailable(await patients())
    const signIn = await (app as App).app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(),
      payload: { email: demoEmail('doctor'), password: TEST_PASSWORD },
    })
    expectUnavailable(signIn)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect((await (app as App).app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)

    bouncer = await startPgBouncer(upstream(), { port })
    await eventually200(readyz)
    const back = await eventually200(patients)
    expect(Array.isArray(back.json())).toBe(true)
  }, 30_000)

  it('PostgreSQL gone behind PgBouncer: the same 503s, 200 again when it is back', async () => {
    expect((await patients()).statusCode).toBe(200)
    await postgres?.cut()

    const started = Date.now()
    expectReadyzDown(await readyz())
    expectUnavailable(await patients())
    expect(Date.now() - started).toBeLessThan(5_000)

    await postgres?.restore()
    await eventually200(readyz)
    await eventually200(patients)
  }, 30_000)
})
