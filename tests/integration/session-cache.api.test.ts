import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import { expectError } from '../support/http'
import { browserHeaders, login, sessionToken } from '../support/login'
import { untilStatus } from '../support/revocation'
import {
  createTestApp,
  demoEmail,
  TEST_PASSWORD,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 16 §1: a signed-in read costs at most 3 round trips; revocation stays immediate on the
// instance that makes it, and reaches the cache within 2 s when made elsewhere (decision 010).
let t: TestApp

beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' })
})
afterAll(async () => {
  await t?.close()
})

const me = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })

/** Every query the app's pool sends while `run` runs: one call is one round trip. */
async function roundTrips(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = []
  const original = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    // The app's pool only (pg-pool gives its clients release()), not the LISTEN connection.
    if (typeof (this as Partial<pg.PoolClient>).release !== 'function') {
      return (original as (...a: unknown[]) => unknown).apply(this, args)
    }
    const first = args[0]
    const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text
    // The listeners' round-trip probes (db/notify.ts, once a second) are not the request's.
    if (String(text).startsWith('select pg_notify(')) {
      return (original as (...a: unknown[]) => unknown).apply(this, args)
    }
    sent.push(String(text ?? '?').replace(/\s+/g, ' '))
    return (original as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof original
  try {
    await run()
  } finally {
    pg.Client.prototype.query = original
  }
  return sent
}

describe('a signed-in read', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'costs at most 3 round trips with a warm session cache (PostgreSQL)',
    async () => {
      const cookie = await login(t.app, demoEmail('doctor'))
      const list = () =>
        t.app.inject({ method: 'GET', url: '/api/patients?limit=5', headers: { cookie } })
      const first = await list()
      expect(first.statusCode).toBe(200)
      const id = first.json<{ id: string }[]>()[0]?.id ?? ''
      const one = () =>
        t.app.inject({ method: 'GET', url: `/api/patients/${id}`, headers: { cookie } })

      const signedOut = await roundTrips(() =>
        t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: 'x=y' } }),
      )
      expect(signedOut).toEqual([]) // no session cookie: nothing to look up

      const byId = await roundTrips(async () => {
        const res = await one()
        expect(res.statusCode, res.body).toBe(200)
      })
      // BEGIN + tenant, the SELECT, COMMIT: no session or user lookup.
      expect(byId, byId.join('\n')).toHaveLength(3)
      expect(byId[0]).toMatch(/^begin; select set_config\('role', 'app_user', true\)/)
      expect(byId[2]).toBe('commit')

      const page = await roundTrips(async () => {
        const res = await list()
        expect(res.statusCode, res.body).toBe(200)
      })
      const statements = page.filter((q) => q !== 'commit' && !q.startsWith('begin;'))
      // Everything but the page's own statements: one round trip before, one after.
      expect(page.length - statements.length, page.join('\n')).toBe(2)
      expect(
        statements.every((q) => /from "patients"/.test(q)),
        page.join('\n'),
      ).toBe(true)
      // The first page of the list is one statement (no count unless asked): 3 in all.
      expect(page.length, page.join('\n')).toBeLessThanOrEqual(3)
      console.log(
        `GET /api/patients/:id ${byId.length} round trips; GET /api/patients ${page.length}`,
      )
    },
  )

  it('keeps moving the idle deadline with the cache on', async () => {
    const cookie = await login(t.app, demoEmail('receptionist'))
    const token = sessionToken(cookie)?.split('.')[0] ?? ''
    expect((await me(cookie)).statusCode).toBe(200)
    const idle = async () => {
      const rows = await t.db.execute(
        sql`select extract(epoch from expires_at - now())::int as idle from sessions where token = ${token}`,
      )
      return (rows as unknown as { rows: { idle: number }[] }).rows[0]?.idle ?? 0
    }
    // 20 idle minutes later (as the database says), a use moves the deadline on again: the
    // cache hears of the earlier deadline, and keeps the idle limit.
    await t.db.execute(
      sql`update sessions set expires_at = now() + interval '10 minutes' where token = ${token}`,
    )
    const started = Date.now()
    while ((await idle()) < 29 * 60 && Date.now() - started < 2_000) {
      expect((await me(cookie)).statusCode).toBe(200)
    }
    expect(await idle()).toBeGreaterThan(29 * 60)
  })
})

describe('revocation on the instance that makes it is immediate', () => {
  it('sign-out ends a cached session at once', async () => {
    const cookie = await login(t.app, demoEmail('nurse'))
    expect((await me(cookie)).statusCode).toBe(200)
    const out = await t.app.inject({
      method: 'GET',
      url: '/api/logout',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    })
    expect(out.statusCode).toBe(302)
    expectError(await me(cookie), 401, 'UNAUTHENTICATED')
  })

  it('a password change that revokes other sessions ends them at once', async () => {
    const email = demoEmail('viewer', 'smiledental')
    const kept = await login(t.app, email)
    const other = await login(t.app, email)
    expect((await me(other)).statusCode).toBe(200)
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: browserHeaders(kept),
      payload: {
        currentPassword: TEST_PASSWORD,
        newPassword: 'a-new-password-for-the-cache-test',
        revokeOtherSessions: true,
      },
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expectError(await me(other), 401, 'UNAUTHENTICATED')
  })

  it('a stale or forged session cookie gets 401', async () => {
    const cookie = await login(t.app, demoEmail('admin'))
    expect((await me(cookie)).statusCode).toBe(200)
    const name = 'arogya.session_token'
    const [token = '', signature = ''] = (sessionToken(cookie) ?? '').split('.')
    const flipped = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`
    expectError(await me(`${name}=${flipped}.${signature}`), 401)
    expectError(await me(`${name}=${token}.${signature.slice(2)}xx`), 401)
    expectError(await me(`${name}=${token}`), 401)
    // The same cookie twice with different values is never answered from the cache.
    expectError(await me(`${name}=${flipped}.${signature}; ${cookie}`), 401)
    await t.app.inject({
      method: 'GET',
      url: '/api/logout',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    })
    expectError(await me(cookie), 401)
  })
})

describe('changes made elsewhere reach the cache within 2 s', () => {
  it('a role change', async () => {
    const email = demoEmail('receptionist', 'smiledental')
    const cookie = await login(t.app, email)
    const create = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/patients/manual',
        headers: browserHeaders(cookie),
        payload: { name: 'Cache Role Check', phone: '9876501299' },
      })
    expect((await me(cookie)).json<{ role: string }>().role).toBe('receptionist')
    const userId = await userIdOf(t.db, email)
    await t.db.execute(sql`update users set role = 'viewer' where id = ${userId}`)
    try {
      const refused = await untilStatus(create, 403)
      expect(refused.statusCode).toBe(403)
      expect(refused.elapsedMs).toBeLessThan(2_000)
    } finally {
      await t.db.execute(sql`update users set role = 'receptionist' where id = ${userId}`)
    }
  })

  it('a suspension and a deleted session', async () => {
    const email = demoEmail('doctor', 'smiledental')
    const first = await login(t.app, email)
    const second = await login(t.app, email)
    for (const cookie of [first, second]) expect((await me(cookie)).statusCode).toBe(200)
    const token = sessionToken(second)?.split('.')[0] ?? ''
    await t.db.execute(sql`delete from sessions where token = ${token}`)
    expect((await untilStatus(() => me(second), 401)).statusCode).toBe(401)
    expect((await me(first)).statusCode).toBe(200)
    await t.db.execute(sql`update users set banned = true where email = ${email}`)
    try {
      const gone = await untilStatus(() => me(first), 401)
      expect(gone.statusCode).toBe(401)
      expect(gone.elapsedMs).toBeLessThan(2_000)
    } finally {
      await t.db.execute(sql`update users set banned = false where email = ${email}`)
    }
  })
})

describe('the LISTEN connection (PostgreSQL)', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'comes back after it was cut, and revocations arrive at once again',
    async () => {
      const listeners = async () => {
        const rows = await t.db.execute(
          sql`select pid from pg_stat_activity where datname = current_database() and application_name = 'arogya-listen-arogya_revoked'`,
        )
        return (rows as unknown as { rows: { pid: number }[] }).rows.map((r) => r.pid)
      }
      const [before] = await listeners()
      expect(before).toBeDefined()
      await t.db.execute(sql`select pg_terminate_backend(${before})`)
      const started = Date.now()
      let after: number[] = []
      while (Date.now() - started < 5_000) {
        after = await listeners()
        if (after.length && !after.includes(before ?? 0)) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(after.length).toBe(1)
      expect(after).not.toContain(before)

      const email = demoEmail('nurse', 'smiledental')
      const cookie = await login(t.app, email)
      expect((await me(cookie)).statusCode).toBe(200)
      await t.db.execute(sql`update users set banned = true where email = ${email}`)
      try {
        const gone = await untilStatus(() => me(cookie), 401)
        expect(gone.statusCode).toBe(401)
        // Heard by NOTIFY, not by the entry ageing out (1 s without LISTEN).
        expect(gone.elapsedMs).toBeLessThan(500)
      } finally {
        await t.db.execute(sql`update users set banned = false where email = ${email}`)
      }
    },
  )
})

describe('withTenant', () => {
  it('interpolates nothing but a UUID', async () => {
    for (const hospitalId of ["x', true); select 1; --", '', 'not-a-uuid']) {
      await expect(withTenant(t.db, { hospitalId, userId: null }, async () => 1)).rejects.toThrow(
        /not a UUID/,
      )
    }
  })
})
