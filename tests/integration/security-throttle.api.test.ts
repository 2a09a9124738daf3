import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadEnv } from '../../src/server/env'
import { expectError } from '../support/http'
import { browserHeaders } from '../support/login'
import {
  createTestApp,
  demoEmail,
  queryRows,
  type TestApp,
  TEST_PASSWORD,
} from '../support/test-app'

// Issue 6, items 4 (proxies) and 16 (lockout as denial of service).
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({
    signInThrottle: { freePairFailures: 3, accountCeiling: 12, ipCeiling: 8 },
    trustProxy: 1,
  })
})
afterAll(async () => {
  await t?.close()
})

let nextIp = 1
const freshIp = () => `10.30.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`

function signInFrom(ip: string, email: string, password = TEST_PASSWORD, forwardedFor?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    // One trusted proxy hop (TRUST_PROXY=1): the client is the last X-Forwarded-For entry.
    remoteAddress: '127.0.0.1',
    headers: { ...browserHeaders(), 'x-forwarded-for': forwardedFor ?? ip },
    payload: { email, password },
  })
}

async function events(email: string): Promise<string[]> {
  const rows = await queryRows<{ event: string }>(
    t.db,
    sql`select event from security_events where email = ${email} order by created_at, id`,
  )
  return rows.map((r) => r.event)
}

describe('sign-in throttling', () => {
  it('delays a guesser on one address with growing waits, while the owner signs in from another', async () => {
    const email = demoEmail('doctor')
    const attacker = freshIp()
    for (let i = 0; i < 3; i++)
      expect((await signInFrom(attacker, email, 'guess')).statusCode).toBe(401)
    expect((await signInFrom(attacker, email, 'guess')).statusCode).toBe(401)
    const held = await signInFrom(attacker, email)
    expectError(held, 429, 'RATE_LIMITED')
    const first = Number(held.headers['retry-after'])
    expect(first).toBeGreaterThanOrEqual(25)
    expect(first).toBeLessThanOrEqual(30)
    // The real user, elsewhere, is not locked out.
    expect((await signInFrom(freshIp(), email)).statusCode).toBe(200)
    // Each further failure doubles the wait.
    await t.db.execute(sql`update auth_throttle set locked_until = null where key like 'pair:%'`)
    expect((await signInFrom(attacker, email, 'guess')).statusCode).toBe(401)
    const second = Number((await signInFrom(attacker, email)).headers['retry-after'])
    expect(second).toBeGreaterThan(first)
    expect(await events(email)).toEqual(
      expect.arrayContaining(['sign_in.failure', 'sign_in.locked', 'sign_in.success']),
    )
  })

  it('clears a pair on success: typos do not add up over a day', async () => {
    const email = demoEmail('nurse')
    const ip = freshIp()
    // Two rounds stay under the per-address failure ceiling (8), which a success does not reset.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3; i++) expect((await signInFrom(ip, email, 'typo')).statusCode).toBe(401)
      expect((await signInFrom(ip, email)).statusCode).toBe(200)
    }
  })

  it('holds an account after far more failures from many addresses, then for every address', async () => {
    const email = demoEmail('receptionist')
    for (let i = 0; i < 12; i++) {
      expect((await signInFrom(freshIp(), email, `guess-${i}`)).statusCode).toBe(401)
    }
    const held = await signInFrom(freshIp(), email)
    expectError(held, 429, 'RATE_LIMITED')
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(800)
  })

  it('never counts successful sign-ins against an address; counts its failures', async () => {
    const clinic = freshIp()
    // A busy front desk: many staff, one public address, far more than the failure ceiling.
    for (let i = 0; i < 20; i++) {
      const role = (['admin', 'doctor', 'nurse', 'viewer'] as const)[i % 4] ?? 'admin'
      expect((await signInFrom(clinic, demoEmail(role, 'smiledental'))).statusCode).toBe(200)
    }
    const sprayer = freshIp()
    for (let i = 0; i < 8; i++) {
      expect((await signInFrom(sprayer, `nobody${i}@example.com`, 'guess')).statusCode).toBe(401)
    }
    expectError(await signInFrom(sprayer, demoEmail('admin', 'smiledental')), 429, 'RATE_LIMITED')
    expect((await signInFrom(clinic, demoEmail('admin', 'smiledental'))).statusCode).toBe(200)
  })

  it('keys on the address the trusted proxy saw, not one the client adds to X-Forwarded-For', async () => {
    const email = demoEmail('viewer')
    const real = freshIp()
    for (let i = 0; i < 4; i++) {
      const spoof = `192.0.2.${i + 1}, ${real}`
      expect((await signInFrom(real, email, 'guess', spoof)).statusCode).toBe(401)
    }
    expectError(await signInFrom(real, email, TEST_PASSWORD, `192.0.2.99, ${real}`), 429)
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from auth_throttle where key like ${'%192.0.2.%'}`,
    )
    expect(row?.n).toBe(0)
  })

  it('shares its state through the database: a second instance sees the same holds', async () => {
    const email = demoEmail('admin')
    const ip = freshIp()
    for (let i = 0; i < 4; i++) await signInFrom(ip, email, 'guess')
    const other = await import('../../src/server/app').then((m) =>
      m.buildApp({
        database: t.database,
        authSecret: 'arogya-integration-tests-secret-0123456789abcdef',
        logLevel: 'silent',
        authRateLimit: false,
        trustProxy: 1,
      }),
    )
    await other.app.ready()
    const res = await other.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { ...browserHeaders(), 'x-forwarded-for': ip },
      payload: { email, password: TEST_PASSWORD },
    })
    expectError(res, 429, 'RATE_LIMITED')
    await other.app.close()
  })
})

describe('TRUST_PROXY', () => {
  const env = (value: string) => loadEnv({ TRUST_PROXY: value })

  it('accepts false, a hop count, or proxy addresses and CIDR blocks', () => {
    expect(env('false').TRUST_PROXY).toBe(false)
    expect(env('1').TRUST_PROXY).toBe(1)
    expect(env('2').TRUST_PROXY).toBe(2)
    expect(env('10.0.0.0/8, 127.0.0.1,::1,fd00::/8').TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ])
  })

  it('refuses true (every hop) and anything that is not an address, with a clear message', () => {
    expect(() => env('true')).toThrow(/TRUST_PROXY=true would trust every X-Forwarded-For hop/)
    expect(() => env('proxy.internal')).toThrow(/not an address or CIDR/)
    expect(() => env('10.0.0.0/33')).toThrow(/not an address or CIDR/)
  })

  it('without trust, X-Forwarded-For is ignored entirely', async () => {
    const plain = await createTestApp({ signInThrottle: { freePairFailures: 1 } })
    try {
      const attempt = (xff: string, password = 'guess') =>
        plain.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          remoteAddress: '198.51.100.20',
          headers: { ...browserHeaders(), 'x-forwarded-for': xff },
          payload: { email: demoEmail('doctor'), password },
        })
      expect((await attempt('1.1.1.1')).statusCode).toBe(401)
      expect((await attempt('2.2.2.2')).statusCode).toBe(401)
      expectError(await attempt('3.3.3.3', TEST_PASSWORD), 429)
    } finally {
      await plain.close()
    }
  })
})
