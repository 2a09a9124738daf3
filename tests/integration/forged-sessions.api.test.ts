import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/server/app'
import { type Database, openDatabase } from '../../src/server/db/client'
import { expectError } from '../support/http'
import { login, sessionToken } from '../support/login'
import {
  createTestApp,
  demoEmail,
  queryRows,
  TEST_AUTH_SECRET,
  type TestApp,
} from '../support/test-app'

// Issue 16, faults: a stale or forged session cookie gets 401 (never a 500) from every
// instance. Two instances share one database: on PostgreSQL each has its own pool, on the
// embedded database they share the connection.
const serverUrl = process.env.TEST_DATABASE_URL
const COOKIE = 'arogya.session_token'

let first: TestApp
let second: App
let secondDatabase: Database | undefined

beforeAll(async () => {
  first = await createTestApp()
  let database = first.database
  if (serverUrl) {
    const [row] = await queryRows<{ name: string }>(
      first.db,
      sql`select current_database() as name`,
    )
    const url = new URL(serverUrl)
    url.pathname = `/${row?.name ?? ''}`
    secondDatabase = await openDatabase({ databaseUrl: url.toString() })
    database = secondDatabase
  }
  second = await buildApp({
    database,
    authSecret: TEST_AUTH_SECRET,
    logLevel: 'silent',
    authRateLimit: false,
    signInThrottle: { ipCeiling: 10_000 },
  })
  await second.app.ready()
}, 60_000)

afterAll(async () => {
  await second?.app.close()
  await secondDatabase?.close()
  await first?.close()
})

const instances = () =>
  [
    ['first', first.app],
    ['second', second.app],
  ] as const

/** GET a guarded API route and the current-user route on both instances with this cookie. */
async function everywhere(cookie: string): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = []
  for (const [, app] of instances()) {
    for (const url of ['/api/patients', '/api/auth/user']) {
      responses.push(await app.inject({ method: 'GET', url, headers: { cookie } }))
    }
  }
  return responses
}

function expectAll401(responses: LightMyRequestResponse[]) {
  for (const res of responses) expectError(res, 401, 'UNAUTHENTICATED')
}

describe('stale and forged session cookies on two instances', () => {
  it('a valid session works on both (the baseline)', async () => {
    const cookie = await login(first.app, demoEmail('doctor'))
    for (const res of await everywhere(cookie)) expect(res.statusCode, res.body).toBe(200)
  })

  it('a session deleted in the database: 401 on both', async () => {
    const cookie = await login(second.app, demoEmail('nurse'))
    const token = sessionToken(cookie)?.split('.')[0] ?? ''
    const deleted = await queryRows<{ id: string }>(
      first.db,
      sql`delete from sessions where token = ${decodeURIComponent(token)} returning id`,
    )
    expect(deleted).toHaveLength(1)
    expectAll401(await everywhere(cookie))
  })

  it('an expired session: 401 on both', async () => {
    const cookie = await login(first.app, demoEmail('receptionist'))
    const token = decodeURIComponent(sessionToken(cookie)?.split('.')[0] ?? '')
    await first.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute' where token = ${token}`,
    )
    expectAll401(await everywhere(cookie))
  })

  it('a real token with a forged signature: 401 on both', async () => {
    const cookie = await login(first.app, demoEmail('admin'))
    const signed = decodeURIComponent(sessionToken(cookie) ?? '')
    const token = signed.slice(0, signed.lastIndexOf('.'))
    const forged = randomBytes(32).toString('base64')
    expectAll401(await everywhere(`${COOKIE}=${encodeURIComponent(`${token}.${forged}`)}`))
    // Without any signature, too.
    expectAll401(await everywhere(`${COOKIE}=${encodeURIComponent(token)}`))
  })

  it('a random token: 401 on both', async () => {
    const token = randomBytes(24).toString('base64url')
    const signature = randomBytes(32).toString('base64')
    expectAll401(await everywhere(`${COOKIE}=${encodeURIComponent(`${token}.${signature}`)}`))
  })

  it.each([
    ['bad percent-encoding', `${COOKIE}=%E0%A4%A`],
    ['a lone percent', `${COOKIE}=%`],
    ['unterminated quote', `${COOKIE}="abc`],
    ['empty value', `${COOKIE}=`],
    ['no value', COOKIE],
    ['only separators', ';;=;=; ;'],
    ['the name twice', `${COOKIE}=a.b; ${COOKIE}=c.d`],
    ['many dots', `${COOKIE}=${'.'.repeat(200)}`],
    ['very long', `${COOKIE}=${'a'.repeat(6000)}.${'b'.repeat(44)}`],
    ['non-ASCII', `${COOKIE}=\u00e9\u00e8.\u00ff`],
    ['JSON', `${COOKIE}={"token":"x"}`],
  ])('garbage cookie syntax (%s): 401 on both', async (_name, cookie) => {
    expectAll401(await everywhere(cookie))
  })
})
