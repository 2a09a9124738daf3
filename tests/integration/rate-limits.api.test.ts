import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/server/app'
import type { AppDb } from '../../src/server/db/client'
import { countHit, pruneRateLimits } from '../../src/server/http/rate-limit-store'
import { DEMO_REQUESTS_PER_IP_PER_HOUR } from '../../src/server/modules/demo-requests/demo-requests.routes'
import { expectError } from '../support/http'
import { browserHeaders } from '../support/login'
import { createTestApp, queryRows, TEST_AUTH_SECRET, type TestApp } from '../support/test-app'

// Issue 16: two instances on one database share every rate limit (docs/decisions/008).
const TRIALS_PER_IP_PER_HOUR = 10
const VERIFY_TOTP_PER_IP_PER_MINUTE = 10

let t: TestApp
let other: App
let instances: [FastifyInstance, FastifyInstance]
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: true })
  other = await buildApp({
    database: t.database,
    authSecret: TEST_AUTH_SECRET,
    logLevel: 'silent',
    authRateLimit: true,
  })
  await other.app.ready()
  instances = [t.app, other.app]
})
afterAll(async () => {
  await other?.app.close()
  await t?.close()
})

let nextIp = 1
const freshIp = () => `10.16.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`

/** The app that serves the i-th request: they alternate, as behind a load balancer. */
const on = (i: number) => instances[i % 2] as FastifyInstance

// Bodies are empty on purpose: the limit counts a request before its body is validated,
// and nothing is created.
const trial = (app: FastifyInstance, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/trial',
    headers: browserHeaders(),
    payload: {},
    remoteAddress: ip,
  })
const demoRequest = (app: FastifyInstance, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/api/demo-requests',
    headers: browserHeaders(),
    payload: {},
    remoteAddress: ip,
  })
const verifyTotp = (app: FastifyInstance, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/two-factor/verify-totp',
    headers: browserHeaders(),
    payload: { code: '000000' },
    remoteAddress: ip,
  })

type Send = (app: FastifyInstance, ip: string) => Promise<LightMyRequestResponse>

function expectLimited(res: LightMyRequestResponse, windowSeconds: number): void {
  expectError(res, 429, 'RATE_LIMITED')
  const wait = Number(res.headers['retry-after'] ?? res.headers['x-retry-after'])
  expect(wait).toBeGreaterThan(0)
  expect(wait).toBeLessThanOrEqual(windowSeconds)
}

/** Ends the current window of every key that names this IP. */
const endWindow = (ip: string) =>
  t.db.execute(
    sql`update rate_limit_hits set expires_at = now() - interval '1 second', window_started_at = now() - interval '2 hours' where key like ${`%${ip}%`}`,
  )

async function hitsOf(ip: string): Promise<{ key: string; hits: number }[]> {
  return queryRows(
    t.db,
    sql`select key, hits from rate_limit_hits where key like ${`%${ip}%`} order by key`,
  )
}

// better-auth's memory store is one Map per process, so in this one process two instances
// would share it anyway; the `auth:` rows below show that the count lives in PostgreSQL.
const limits: [string, Send, number, number][] = [
  ['POST /api/auth/trial', trial, TRIALS_PER_IP_PER_HOUR, 3600],
  ['POST /api/demo-requests', demoRequest, DEMO_REQUESTS_PER_IP_PER_HOUR, 3600],
  ['better-auth POST /two-factor/verify-totp', verifyTotp, VERIFY_TOTP_PER_IP_PER_MINUTE, 60],
]

describe.each(limits)('%s across two instances', (_name, send, max, windowSeconds) => {
  it(`allows ${max} in total from one IP, then 429 with a wait on either instance`, async () => {
    const ip = freshIp()
    for (let i = 0; i < max; i++) expect((await send(on(i), ip)).statusCode).not.toBe(429)
    expectLimited(await send(t.app, ip), windowSeconds)
    expectLimited(await send(other.app, ip), windowSeconds)
    // Another address is unaffected.
    expect((await send(other.app, freshIp())).statusCode).not.toBe(429)
  })

  it('counts concurrent requests exactly: no more than the limit get through', async () => {
    const ip = freshIp()
    const answers = await Promise.all(Array.from({ length: max * 2 }, (_, i) => send(on(i), ip)))
    expect(answers.filter((r) => r.statusCode !== 429)).toHaveLength(max)
  })

  it('starts a new window once the old one is over', async () => {
    const ip = freshIp()
    for (let i = 0; i < max; i++) await send(on(i), ip)
    expect((await send(t.app, ip)).statusCode).toBe(429)
    await endWindow(ip)
    expect((await send(other.app, ip)).statusCode).not.toBe(429)
    expect((await hitsOf(ip)).map((r) => r.hits)).toEqual([1])
  })
})

describe('the shared table', () => {
  it('keys route limits by route and IP, and better-auth limits by IP and path', async () => {
    const ip = freshIp()
    await trial(t.app, ip)
    await demoRequest(other.app, ip)
    await verifyTotp(t.app, ip)
    expect((await hitsOf(ip)).map((r) => r.key)).toEqual([
      `auth:${ip}|/two-factor/verify-totp`,
      `route:POST/api/auth/trial:${ip}`,
      `route:POST/api/demo-requests:demo:${ip}`,
    ])
  })

  it('prunes finished windows and keeps live ones', async () => {
    const done = freshIp()
    const live = freshIp()
    await trial(t.app, done)
    await trial(other.app, live)
    await endWindow(done)
    await pruneRateLimits(t.db)
    expect(await hitsOf(done)).toEqual([])
    expect(await hitsOf(live)).toHaveLength(1)
    // Every instance prunes; a second run finds nothing more to do.
    await pruneRateLimits(other.database.db)
    expect(await hitsOf(live)).toHaveLength(1)
  })

  // In production the server logs in as a role holding only app_platform and app_user.
  it.runIf(process.env.TEST_DATABASE_URL)('may be counted and pruned as app_platform', async () => {
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local role app_platform`)
      const asPlatform = tx as unknown as AppDb
      expect((await countHit(asPlatform, 'route:platform-role-check', 60_000)).hits).toBe(1)
      await pruneRateLimits(asPlatform)
    })
  })
})

describe('trial activation emails', () => {
  const validTrial = (email: string) => ({
    hospitalName: 'Arogya Family Clinic, Nashik',
    name: 'Kavya Menon',
    email,
    password: 'trial-password-2026',
    phone: '098765 43210',
  })
  const signUp = (app: FastifyInstance, ip: string, email: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/trial',
      headers: browserHeaders(),
      payload: validTrial(email),
      remoteAddress: ip,
    })

  // better-auth allows 3 verification emails a minute per IP; an existing account is mailed
  // by us. If only new addresses were limited, a 429 would tell which addresses have accounts.
  it('limits new and existing addresses alike: the 4th in a minute from one IP is 429 on either instance', async () => {
    const existing = 'receptionist@sanjeevani.demo' // seeded by createTestApp
    for (const make of [(i: number) => `new-${nextIp}-${i}@trial.example`, () => existing]) {
      const ip = freshIp()
      for (let i = 0; i < 3; i++) expect((await signUp(on(i), ip, make(i))).statusCode).toBe(202)
      const refused = await signUp(other.app, ip, make(3))
      expectLimited(refused, 60)
    }
  })
})
