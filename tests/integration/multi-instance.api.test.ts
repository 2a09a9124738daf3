import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/server/app'
import { type Database, openDatabase } from '../../src/server/db/client'
import { seedDemo } from '../../src/server/db/seed/demo'
import { expectError } from '../support/http'
import { browserHeaders, login, signIn } from '../support/login'
import { hasPgBouncer, type PgBouncer, startPgBouncer } from '../support/pgbouncer'
import { demoEmail, TEST_AUTH_SECRET, TEST_PASSWORD } from '../support/test-app'

// Issue 16: two app instances behind PgBouncer in transaction pooling mode behave as one.
const serverUrl = process.env.TEST_DATABASE_URL

describe.runIf(serverUrl && hasPgBouncer)(
  'two instances behind PgBouncer (transaction mode)',
  () => {
    const name = `arogya_multi_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
    let bouncer: PgBouncer
    const databases: Database[] = []
    let a: App
    let b: App

    async function admin(text: string) {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      try {
        await client.query(text)
      } finally {
        await client.end()
      }
    }

    async function instance(): Promise<App> {
      // Migrations too run through the pooler.
      const database = await openDatabase({ databaseUrl: bouncer.url(name) })
      databases.push(database)
      const app = await buildApp({
        database,
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
      a = await instance()
      b = await instance()
      await seedDemo(a.database.db, a.auth, TEST_PASSWORD)
    }, 120_000)

    afterAll(async () => {
      for (const app of [a, b]) await app?.app.close()
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

    it('accepts a session made on one instance on the other, and a sign-out on one ends it on both', async () => {
      const cookie = await login(a.app, demoEmail('nurse'))
      const me = (app: App) =>
        app.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
      expect((await me(b)).statusCode).toBe(200)
      const out = await b.app.inject({
        method: 'GET',
        url: '/api/logout',
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
      })
      expect(out.statusCode).toBe(302)
      expectError(await me(a), 401)
      expectError(await me(b), 401)
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
