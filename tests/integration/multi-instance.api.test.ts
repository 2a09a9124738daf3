import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/server/app'
import { type Database, openDatabase } from '../../src/server/db/client'
import { seedDemo } from '../../src/server/db/seed/demo'
import { expectError } from '../support/http'
import { browserHeaders, login, signIn } from '../support/login'
import { hasPgBouncer, type PgBouncer, startPgBouncer } from '../support/pgbouncer'
import { untilStatus } from '../support/revocation'
import { loginSuperAdmin } from '../support/two-factor'
import { demoEmail, TEST_AUTH_SECRET, TEST_PASSWORD, userIdOf } from '../support/test-app'

// Issue 16: two app instances behind PgBouncer in transaction pooling mode behave as one.
const serverUrl = process.env.TEST_DATABASE_URL

describe.runIf(serverUrl && hasPgBouncer)(
  'two instances behind PgBouncer (transaction mode)',
  () => {
    const name = `arogya_multi_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
    let bouncer: PgBouncer
    const databases: Database[] = []
    // a and b LISTEN for revocations on a direct connection (DATABASE_DIRECT_URL); c has none
    // and keeps cached sessions for at most 1 s (docs/decisions/010).
    let a: App
    let b: App
    let c: App

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

    async function instance(listen: boolean): Promise<App> {
      // Migrations too run through the pooler.
      const database = await openDatabase({ databaseUrl: bouncer.url(name) })
      databases.push(database)
      const app = await buildApp({
        database,
        databaseDirectUrl: listen ? directUrl() : undefined,
        authSecret: TEST_AUTH_SECRET,
        logLevel: 'silent',
        authRateLimit: false,
        signInThrottle: { ipCeiling: 10_000 },
      })
      await app.app.ready()
      return app
    }

    beforeAll(async () => {
      await admin(`create database ${name}`)
      bouncer = await startPgBouncer(new URL(serverUrl ?? ''))
      a = await instance(true)
      b = await instance(true)
      c = await instance(false)
      await seedDemo(a.database.db, a.auth, TEST_PASSWORD)
    }, 120_000)

    afterAll(async () => {
      for (const app of [a, b, c]) await app?.app.close()
      for (const database of databases) await database.close()
      await bouncer?.stop()
      await admin(`drop database if exists ${name} with (force)`)
    })

    it('counts failed sign-ins on both instances together', async () => {
      const email = demoEmail('viewer')
      for (let i = 0; i < 6; i++) {
        const app = i % 2 ? b : a
        expect((await signIn(app.app, email, 'wrong-password')).statusCode).toBe(401)
      }
      expectError(await signIn(a.app, email), 429, 'RATE_LIMITED')
      expectError(await signIn(b.app, email), 429, 'RATE_LIMITED')
    })

    const me = (app: App, cookie: string) =>
      app.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })

    it('accepts a session made on one instance on the others, and a sign-out on one ends it on all within 2 s', async () => {
      const cookie = await login(a.app, demoEmail('nurse'))
      // Every instance has the session in its cache now.
      for (const app of [a, b, c]) expect((await me(app, cookie)).statusCode).toBe(200)
      const out = await b.app.inject({
        method: 'GET',
        url: '/api/logout',
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
      })
      expect(out.statusCode).toBe(302)
      // The instance that signed out: at once.
      expectError(await me(b, cookie), 401)
      // Another instance that LISTENs: as soon as the NOTIFY arrives (well before its cache
      // entry would have aged out). One that does not: when the entry ages out (1 s).
      const heard = await untilStatus(() => me(a, cookie), 401)
      expectError(heard, 401)
      expect(heard.elapsedMs).toBeLessThan(500)
      const aged = await untilStatus(() => me(c, cookie), 401)
      expectError(aged, 401)
      expect(aged.elapsedMs).toBeLessThan(2_000)
      console.log(
        `sign-out reached: listening ${heard.elapsedMs} ms, not listening ${aged.elapsedMs} ms`,
      )
    })

    it("ends a suspended user's cached sessions on every instance within 2 s", async () => {
      const email = demoEmail('receptionist', 'smiledental')
      const cookie = await login(b.app, email)
      for (const app of [a, b, c]) expect((await me(app, cookie)).statusCode).toBe(200)
      const admin = await loginSuperAdmin(a.app)
      const ban = await a.app.inject({
        method: 'POST',
        url: '/api/auth/admin/ban-user',
        headers: browserHeaders(admin),
        payload: { userId: await userIdOf(a.database.db, email) },
      })
      expect(ban.statusCode, ban.body).toBe(200)
      expectError(await me(a, cookie), 401)
      for (const app of [b, c]) {
        const res = await untilStatus(() => me(app, cookie), 401)
        expectError(res, 401)
        expect(res.elapsedMs).toBeLessThan(2_000)
      }
    })

    it('applies a role change on every instance within 2 s', async () => {
      const email = demoEmail('admin', 'smiledental')
      const cookie = await login(a.app, email)
      const create = (app: App) =>
        app.app.inject({
          method: 'POST',
          url: '/api/patients/manual',
          headers: browserHeaders(cookie),
          payload: { name: 'Role Change Check', phone: '9876501288' },
        })
      for (const app of [a, b, c]) expect((await me(app, cookie)).statusCode).toBe(200)
      // A change made by another writer (no instance's own request): every instance hears it.
      await a.database.db.execute(sql`update users set role = 'viewer' where email = ${email}`)
      try {
        for (const app of [a, b, c]) {
          const res = await untilStatus(() => create(app), 403)
          expectError(res, 403, 'FORBIDDEN')
          expect(res.elapsedMs).toBeLessThan(2_000)
        }
      } finally {
        await a.database.db.execute(sql`update users set role = 'admin' where email = ${email}`)
      }
    })

    it('gives a forged or stale session cookie 401 on every instance', async () => {
      const cookie = await login(a.app, demoEmail('doctor', 'smiledental'))
      const forged = cookie.replace(/session_token=(.)/, (_m, ch: string) =>
        ch === 'a' ? 'session_token=b' : 'session_token=a',
      )
      for (const app of [a, b, c]) expect((await me(app, cookie)).statusCode).toBe(200)
      for (const app of [a, b, c]) expectError(await me(app, forged), 401)
      await a.app.inject({
        method: 'GET',
        url: '/api/logout',
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
      })
      for (const app of [a, b, c]) expectError(await untilStatus(() => me(app, cookie), 401), 401)
    })

    it('never lets a row cross tenants under concurrent reads on both instances', async () => {
      const sanjeevani = await login(a.app, demoEmail('doctor'))
      const smile = await login(b.app, demoEmail('doctor', 'smiledental'))
      const hospitalOf = async (app: App, cookie: string) => {
        const res = await app.app.inject({
          method: 'GET',
          url: '/api/auth/user',
          headers: { cookie },
        })
        return res.json<{ hospitalId: string }>().hospitalId
      }
      const ids = {
        [sanjeevani]: await hospitalOf(a, sanjeevani),
        [smile]: await hospitalOf(b, smile),
      }
      const reads = Array.from({ length: 120 }, (_, i) => {
        const app = i % 2 ? a : b
        const cookie = i % 3 ? sanjeevani : smile
        return app.app
          .inject({ method: 'GET', url: '/api/patients?limit=20', headers: { cookie } })
          .then((res) => ({ cookie, rows: res.json<{ hospitalId: string }[]>() }))
      })
      for (const { cookie, rows } of await Promise.all(reads)) {
        expect(rows.length).toBeGreaterThan(0)
        for (const row of rows) expect(row.hospitalId).toBe(ids[cookie])
      }
    })

    it('reads on one instance what the other wrote', async () => {
      const cookie = await login(a.app, demoEmail('receptionist'))
      const created = await a.app.inject({
        method: 'POST',
        url: '/api/patients/manual',
        headers: browserHeaders(cookie),
        payload: { name: 'Two Instance Check', phone: '9876501234' },
      })
      expect(created.statusCode).toBe(201)
      const id = created.json<{ id: string }>().id
      const read = await b.app.inject({
        method: 'GET',
        url: `/api/patients/${id}`,
        headers: { cookie },
      })
      expect(read.statusCode).toBe(200)
      expect(read.json()).toMatchObject({ id, name: 'Two Instance Check' })
    })
  },
)
