import { randomBytes } from 'node:crypto'
import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/server/app'
import { type Database, openDatabase } from '../../src/server/db/client'
import {
  listen,
  type Listening,
  type ListenState,
  NOT_DELIVERED_WARNING,
  PROBE_PREFIX,
} from '../../src/server/db/notify'
import { seedDemo } from '../../src/server/db/seed/demo'
import { NOTIFICATIONS_DEGRADED_MESSAGE } from '../../src/server/http/health'
import { expectError } from '../support/http'
import { login, sessionToken } from '../support/login'
import { hasPgBouncer, type PgBouncer, startPgBouncer } from '../support/pgbouncer'
import { untilStatus } from '../support/revocation'
import { demoEmail, TEST_AUTH_SECRET, TEST_PASSWORD } from '../support/test-app'

// Issue 24 item 5: the session-revocation listener is live only once a NOTIFY it sent itself
// comes back (db/notify.ts, decision 022). DATABASE_DIRECT_URL pointing at PgBouncer in
// transaction mode by mistake (LISTEN and pings succeed there, notifications never arrive)
// is detected: not live, the 1 s cache bound, /readyz degraded but 200, and a warning.
const serverUrl = process.env.TEST_DATABASE_URL
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Log lines (pino JSON) an app writes. */
function logSink() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean))
      done()
    },
  })
  const messages = () => lines.map((l) => (JSON.parse(l) as { msg?: string }).msg ?? '')
  return { stream, lines, messages }
}

describe.runIf(serverUrl && hasPgBouncer)('the revocation listener (PostgreSQL)', () => {
  const name = `arogya_listen_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  let bouncer: PgBouncer
  const databases: Database[] = []
  /** DATABASE_DIRECT_URL = PgBouncer in transaction mode, by mistake. */
  let misconfigured: App
  const misconfiguredLogs = logSink()
  /** DATABASE_DIRECT_URL = PostgreSQL itself. */
  let correct: App
  const correctLogs = logSink()

  async function admin(text: string) {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }

  function directUrl(): string {
    const url = new URL(serverUrl ?? '')
    url.pathname = `/${name}`
    return url.toString()
  }

  async function instance(direct: string, logStream: Writable): Promise<App> {
    // The app's own pool goes through PgBouncer, as in a scaled-out deployment.
    const database = await openDatabase({ databaseUrl: bouncer.url(name) })
    databases.push(database)
    const app = await buildApp({
      database,
      databaseDirectUrl: direct,
      authSecret: TEST_AUTH_SECRET,
      logLevel: 'info',
      logStream,
      authRateLimit: false,
      signInThrottle: { ipCeiling: 10_000 },
    })
    await app.app.ready()
    return app
  }

  beforeAll(async () => {
    await admin(`create database ${name}`)
    bouncer = await startPgBouncer(new URL(serverUrl ?? ''))
    correct = await instance(directUrl(), correctLogs.stream)
    misconfigured = await instance(bouncer.url(name), misconfiguredLogs.stream)
    await seedDemo(correct.database.db, correct.auth, TEST_PASSWORD)
  }, 120_000)

  afterAll(async () => {
    for (const app of [misconfigured, correct]) await app?.app.close()
    for (const database of databases) await database.close()
    await bouncer?.stop()
    await admin(`drop database if exists ${name} with (force)`)
  })

  const readyz = (app: App) => app.app.inject({ method: 'GET', url: '/readyz' })
  const me = (app: App, cookie: string) =>
    app.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })

  it('detects PgBouncer in transaction mode as DATABASE_DIRECT_URL: not live, /readyz degraded (200), a warning', async () => {
    expect(misconfigured.notifications()).toBe('not-delivered')
    const ready = await readyz(misconfigured)
    expect(ready.statusCode).toBe(200)
    expect(ready.headers['cache-control']).toBe('no-store')
    expect(ready.json()).toEqual({
      status: 'degraded',
      database: 'ok',
      migrations: 'applied',
      notifications: 'not-delivered',
      message: NOTIFICATIONS_DEGRADED_MESSAGE,
    })
    // One warning per listening channel: revocations here (the live message events warn too).
    const warnings = () =>
      misconfiguredLogs
        .messages()
        .filter((m) => m.startsWith(NOT_DELIVERED_WARNING) && m.includes('arogya_revoked'))
    expect(warnings()).toHaveLength(1)
    // Probed again and again (once a second), it never counts as live, nor warns again.
    const seen = new Set<ListenState>()
    for (const until = Date.now() + 3_500; Date.now() < until; await sleep(50)) {
      seen.add(misconfigured.notifications())
    }
    expect([...seen]).toEqual(['not-delivered'])
    expect(warnings()).toHaveLength(1)
  })

  it('ends a session revoked elsewhere within the 1 s fallback there, not the 5 s of a live listener', async () => {
    const cookie = await login(misconfigured.app, demoEmail('nurse'))
    expect((await me(misconfigured, cookie)).statusCode).toBe(200)
    expect((await me(misconfigured, cookie)).statusCode).toBe(200) // from the cache
    const token = sessionToken(cookie)?.split('.')[0] ?? ''
    // Revoked behind this instance's back (another instance, psql).
    await correct.database.db.execute(sql`delete from sessions where token = ${token}`)
    const gone = await untilStatus(() => me(misconfigured, cookie), 401)
    expectError(gone, 401)
    expect(gone.elapsedMs).toBeLessThan(1_500)
  })

  it('with PostgreSQL itself as DATABASE_DIRECT_URL: live, /readyz ready, no warning, revocations at once', async () => {
    expect(correct.notifications()).toBe('live')
    const ready = await readyz(correct)
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied' })
    expect(correctLogs.messages().filter((m) => m.startsWith(NOT_DELIVERED_WARNING))).toEqual([])
    // Still live after several probe periods.
    await sleep(2_500)
    expect(correct.notifications()).toBe('live')

    const cookie = await login(correct.app, demoEmail('doctor'))
    expect((await me(correct, cookie)).statusCode).toBe(200)
    const token = sessionToken(cookie)?.split('.')[0] ?? ''
    await misconfigured.database.db.execute(sql`delete from sessions where token = ${token}`)
    const gone = await untilStatus(() => me(correct, cookie), 401)
    expectError(gone, 401)
    expect(gone.elapsedMs).toBeLessThan(500) // by NOTIFY, not by the entry ageing out
  })

  describe('listen() itself', () => {
    const channel = `arogya_probe_test_${randomBytes(3).toString('hex')}`
    const opened: Listening[] = []
    afterAll(async () => {
      for (const l of opened) await l.close()
    })

    async function listener(direct: string) {
      const payloads: string[] = []
      const lives: boolean[] = []
      const warnings: string[] = []
      const l = await listen({
        database: correct.database,
        directUrl: direct,
        channel,
        onNotify: (p) => payloads.push(p),
        onLive: (live) => lives.push(live),
        log: { warn: (_obj, msg) => warnings.push(msg), info: () => undefined },
        pingMs: 100,
      })
      opened.push(l)
      return { l, payloads, lives, warnings }
    }

    it('never passes a probe to its caller, its own or another instance’s', async () => {
      const { l, payloads, lives } = await listener(directUrl())
      expect(l.state()).toBe('live')
      await correct.database.db.execute(
        sql`select pg_notify(${channel}, ${`${PROBE_PREFIX}another-instance:1`}), pg_notify(${channel}, 'hello')`,
      )
      await sleep(1_000) // about ten probes of its own
      expect(payloads).toEqual(['hello'])
      expect(lives).toEqual([true])
      expect(l.state()).toBe('live')
    })

    it('through PgBouncer in transaction mode: never live, over many probes', async () => {
      const { l, lives, warnings } = await listener(bouncer.url(name))
      expect(l.state()).toBe('not-delivered')
      const seen = new Set<ListenState>()
      for (const until = Date.now() + 3_000; Date.now() < until; await sleep(20)) {
        seen.add(l.state())
      }
      expect([...seen]).toEqual(['not-delivered'])
      expect(lives).toEqual([])
      expect(warnings.filter((w) => w.startsWith(NOT_DELIVERED_WARNING))).toHaveLength(1)
    })
  })
})
