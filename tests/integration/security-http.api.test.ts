import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { safeError } from '../../src/server/http/logging'
import { NEXT_CURSOR_HEADER } from '../../src/shared/schemas/common'
import { expectError } from '../support/http'
import { browserHeaders, login, sessionToken } from '../support/login'
import { untilStatus } from '../support/revocation'
import {
  createTestApp,
  demoEmail,
  queryRows,
  type TestApp,
  TEST_PASSWORD,
} from '../support/test-app'

// Issue 6, items 6 (patient data in logs), 11 (deep JSON), 15 (idle sessions, headers).
const logLines: string[] = []
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(chunk.toString('utf8'))
    done()
  },
})

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'info', logStream })
})
afterAll(async () => {
  await t?.close()
})

const UNIQUE = 'Quixotica'

describe('logs', () => {
  it("do not warn that better-auth's base URL is unset: the per-request origin is deliberate", async () => {
    await login(t.app, demoEmail('receptionist'))
    expect(logLines.join('')).not.toContain('Base URL is not set')
  })

  it('carry no patient names, search texts, cursors, cookies or passwords', async () => {
    const cookie = await login(t.app, demoEmail('receptionist'))
    for (let i = 0; i < 3; i++) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/patients/manual',
        headers: browserHeaders(cookie),
        payload: { name: `Zorawar ${UNIQUE} ${i}`, phone: `98765${String(i).padStart(5, '0')}` },
      })
      expect(created.statusCode).toBe(201)
    }
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/patients?search=${UNIQUE}&limit=1`,
      headers: { cookie },
    })
    expect(page.json<unknown[]>()).toHaveLength(1)
    const cursor = page.headers[NEXT_CURSOR_HEADER] as string
    // The cursor is the last row's id: nothing of the patient in it.
    expect(cursor).toMatch(/^[0-9a-f-]{36}$/)
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain(UNIQUE)
    const next = await t.app.inject({
      method: 'GET',
      url: `/api/patients?search=${UNIQUE}&limit=1&cursor=${cursor}`,
      headers: { cookie },
    })
    expect(next.json<{ name: string }[]>()[0]?.name).toMatch(UNIQUE)
    // A failed sign-in with a password worth grepping for.
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(),
      payload: { email: demoEmail('doctor'), password: 'Hunter2-Unique-Secret' },
    })
    const log = logLines.join('')
    expect(log).toContain('/api/patients')
    expect(log).not.toContain(UNIQUE)
    expect(log).not.toContain(cursor)
    expect(log).not.toContain(sessionToken(cookie)?.split('.')[0] ?? 'x')
    expect(log).not.toContain('Hunter2')
    expect(log).not.toContain(TEST_PASSWORD)
    expect(log).not.toMatch(/search=/)
  })

  it('log database errors without their values', async () => {
    let caught: unknown
    try {
      await t.db.execute(sql`select ${`Meera ${UNIQUE}`}::int`)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeDefined()
    const text = JSON.stringify(safeError(caught))
    expect(text).not.toContain(UNIQUE)
    expect(text).toContain('22P02') // SQLSTATE: invalid text representation
    expect(text).toContain('select $1::int')
  })
})

describe('deeply nested JSON', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
  const nestedObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)

  it('is a 400, never a 500, on public, auth and staff endpoints', async () => {
    const cookie = await login(t.app, demoEmail('admin'))
    for (const url of [
      '/api/patients/manual',
      '/api/auth/sign-in/email',
      '/api/demo-requests',
      '/api/auth/trial',
      '/api/auth/change-password',
    ]) {
      for (const payload of [deep(50_000), nestedObject(50_000), nestedObject(40)]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...browserHeaders(cookie), 'content-type': 'application/json' },
          payload,
        })
        expect([400, 413], `${url}: ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(
          res.statusCode,
        )
      }
    }
  })
})

describe('sessions and response headers', () => {
  it('end after 30 idle minutes; use moves the deadline, never past 8 hours from sign-in', async () => {
    const cookie = await login(t.app, demoEmail('nurse'))
    const token = sessionToken(cookie)?.split('.')[0] ?? ''
    const expiry = async () => {
      const [row] = await queryRows<{ idle: number; total: number }>(
        t.db,
        sql`select extract(epoch from expires_at - now())::int as idle,
                   extract(epoch from expires_at - created_at)::int as total
            from sessions where token = ${token}`,
      )
      return row
    }
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
    expect((await expiry())?.idle).toBeGreaterThan(29 * 60)
    expect((await expiry())?.idle).toBeLessThanOrEqual(30 * 60)
    // 20 idle minutes later, a request moves the deadline 30 minutes on again.
    await t.db.execute(
      sql`update sessions set expires_at = now() + interval '10 minutes', created_at = now() - interval '20 minutes' where token = ${token}`,
    )
    expect((await me()).statusCode).toBe(200)
    expect((await expiry())?.idle).toBeGreaterThan(29 * 60)
    // Near the absolute limit the deadline stops at sign-in + 8 hours.
    await t.db.execute(
      sql`update sessions set created_at = now() - interval '7 hours 50 minutes', expires_at = now() + interval '1 minute' where token = ${token}`,
    )
    expect((await me()).statusCode).toBe(200)
    expect((await expiry())?.total).toBeLessThanOrEqual(8 * 3600)
    // Idle past the deadline: signed out.
    await t.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where token = ${token}`,
    )
    // Changed behind the app's back: its cached session hears of it by NOTIFY (within 2 s).
    expectError(await untilStatus(me, 401), 401, 'UNAUTHENTICATED')
  })

  it('sends no-store on API answers, a Permissions-Policy, and a CSP without https: styles', async () => {
    const cookie = await login(t.app, demoEmail('doctor'))
    for (const url of ['/api/auth/user', '/api/patients?limit=1', '/api/nope']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } })
      expect(res.headers['cache-control'], url).toBe('no-store')
      expect(res.headers['permissions-policy'], url).toMatch(/camera=\(\)/)
    }
    const csp = String(
      (await t.app.inject({ method: 'GET', url: '/api/auth/user' })).headers[
        'content-security-policy'
      ],
    )
    const styleSrc = /style-src ([^;]*)/.exec(csp)?.[1] ?? ''
    expect(styleSrc).not.toMatch(/https:/)
    expect(styleSrc).toContain("'self'")
    expect(csp).toMatch(/script-src 'self'/)
  })
})
