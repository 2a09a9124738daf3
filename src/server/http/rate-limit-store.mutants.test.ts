import { sql } from 'drizzle-orm'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Database, openDatabase } from '../db/client'
import {
  authRateLimitStorage,
  countHit,
  giveBackQuota,
  postgresRateLimitStore,
  PRUNE_EVERY_MS,
  registerRateLimits,
  takeQuota,
} from './rate-limit-store'

// The shared rate-limit store at its edges (mutation testing, docs/decisions/024): quotas are
// all or nothing, windows restart, keys are per route, the limit is inclusive.

let database: Database
beforeAll(async () => {
  database = await openDatabase({})
})
afterAll(async () => {
  await database?.close()
})

async function row(key: string) {
  const result = (await database.db.execute(
    sql`select hits, expires_at > now() as live from rate_limit_hits where key = ${key}`,
  )) as unknown as { rows: { hits: number; live: boolean }[] }
  return result.rows[0]
}

const expire = (key: string) =>
  database.db.execute(
    sql`update rate_limit_hits set expires_at = now() - interval '1 second' where key = ${key}`,
  )

describe('countHit', () => {
  it('reports the time left as whole milliseconds within the window', async () => {
    const hit = await countHit(database.db, 'm:count', 2_000)
    expect(hit.hits).toBe(1)
    expect(Number.isInteger(hit.ttlMs)).toBe(true)
    expect(hit.ttlMs).toBeGreaterThan(1_000)
    expect(hit.ttlMs).toBeLessThanOrEqual(2_000)
  })
  it('gives a window under a millisecond one millisecond', async () => {
    const hit = await countHit(database.db, 'm:tiny', 0.4)
    expect(hit.hits).toBe(1)
    expect(hit.ttlMs).toBeLessThanOrEqual(1)
  })
})

describe('takeQuota', () => {
  it('takes units up to max in one window, all or nothing', async () => {
    const take = (amount: number) => takeQuota(database.db, 'm:quota', 60_000, amount, 10)
    const first = await take(4)
    expect(first).toMatchObject({ allowed: true, used: 4 })
    expect(first.ttlMs).toBeGreaterThan(59_000)
    expect(first.ttlMs).toBeLessThanOrEqual(60_000)
    expect(await take(6)).toMatchObject({ allowed: true, used: 10 })
    const refused = await take(1)
    expect(refused).toMatchObject({ allowed: false, used: 10 })
    expect(refused.ttlMs).toBeGreaterThan(59_000)
    expect(refused.ttlMs).toBeLessThanOrEqual(60_000)
    expect(await row('m:quota')).toMatchObject({ hits: 10 })
  })

  it('refuses more than max at once, counting nothing', async () => {
    expect(await takeQuota(database.db, 'm:big', 60_000, 11, 10)).toEqual({
      allowed: false,
      used: 0,
      ttlMs: 0,
    })
    expect(await row('m:big')).toBeUndefined()
    expect(await takeQuota(database.db, 'm:big', 60_000, 10, 10)).toMatchObject({
      allowed: true,
      used: 10,
    })
    expect(await takeQuota(database.db, 'm:big', 60_000, 11, 10)).toMatchObject({
      allowed: false,
      used: 10,
    })
  })

  it('starts a new window once the old one is over', async () => {
    await takeQuota(database.db, 'm:window', 60_000, 10, 10)
    expect((await takeQuota(database.db, 'm:window', 60_000, 1, 10)).allowed).toBe(false)
    await expire('m:window')
    const refusedAfterEnd = await takeQuota(database.db, 'm:window', 60_000, 11, 10)
    expect(refusedAfterEnd).toEqual({ allowed: false, used: 0, ttlMs: 0 })
    const fresh = await takeQuota(database.db, 'm:window', 60_000, 3, 10)
    expect(fresh).toMatchObject({ allowed: true, used: 3 })
    expect(fresh.ttlMs).toBeGreaterThan(59_000)
  })

  it('gives units back, never below zero, and only in a live window', async () => {
    await takeQuota(database.db, 'm:back', 60_000, 5, 5)
    await giveBackQuota(database.db, 'm:back', 2)
    expect(await row('m:back')).toMatchObject({ hits: 3 })
    expect(await takeQuota(database.db, 'm:back', 60_000, 2, 5)).toMatchObject({
      allowed: true,
      used: 5,
    })
    await giveBackQuota(database.db, 'm:back', 9)
    expect(await row('m:back')).toMatchObject({ hits: 0 })
    await takeQuota(database.db, 'm:back', 60_000, 4, 5)
    await expire('m:back')
    await giveBackQuota(database.db, 'm:back', 4)
    expect(await row('m:back')).toMatchObject({ hits: 4, live: false })
    await giveBackQuota(database.db, 'm:other', 1)
    expect(await row('m:other')).toBeUndefined()
  })
})

describe('postgresRateLimitStore keys', () => {
  const incr = (store: { incr: (...a: never[]) => void }, key: string) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      (
        store.incr as (
          k: string,
          cb: (e: Error | null, r?: { current: number; ttl: number }) => void,
          w: number,
          m: number,
        ) => void
      )(key, (error, result) => (error || !result ? reject(error) : resolve(result)), 5_000, 2),
    )

  it('joins several methods, and leaves out what the route does not say', async () => {
    const Ctor = postgresRateLimitStore(database.db)
    const root = new Ctor({})
    await incr(root, 'k1')
    expect(await row('route:k1')).toMatchObject({ hits: 1 })
    await incr(root.child({ routeInfo: { method: ['GET', 'POST'], url: '/api/x' } } as never), 'k2')
    expect(await row('route:GET,POST/api/x:k2')).toMatchObject({ hits: 1 })
    await incr(root.child({} as never), 'k3')
    expect(await row('route::k3')).toMatchObject({ hits: 1 })
    await incr(root.child({ routeInfo: { url: '/api/y' } } as never), 'k4')
    expect(await row('route:/api/y:k4')).toMatchObject({ hits: 1 })
    await incr(root.child({ routeInfo: { method: 'PUT' } } as never), 'k5')
    expect(await row('route:PUT:k5')).toMatchObject({ hits: 1 })
  })
})

describe('authRateLimitStorage', () => {
  it('allows exactly max in a window', async () => {
    const storage = authRateLimitStorage(database.db)
    const rule = { window: 10, max: 1 }
    expect(await storage.consume('ip|/sign-in/email', rule)).toEqual({
      allowed: true,
      retryAfter: null,
    })
    const denied = await storage.consume('ip|/sign-in/email', rule)
    expect(denied.allowed).toBe(false)
    expect(denied.retryAfter).toBeGreaterThanOrEqual(9)
    expect(denied.retryAfter).toBeLessThanOrEqual(10)
    expect(await row('auth:ip|/sign-in/email')).toMatchObject({ hits: 2 })
  })
  it('rounds the seconds left up, so the last moments of a window ask for 1 s', async () => {
    const storage = authRateLimitStorage(database.db)
    await storage.consume('ip|/end', { window: 60, max: 0 })
    await database.db.execute(
      sql`update rate_limit_hits set expires_at = now() + interval '300 milliseconds' where key = 'auth:ip|/end'`,
    )
    const denied = await storage.consume('ip|/end', { window: 60, max: 0 })
    expect(denied).toEqual({ allowed: false, retryAfter: 1 })
  })
})

describe('registerRateLimits', () => {
  it('limits only routes that ask, and prunes finished windows every 10 minutes', async () => {
    expect(PRUNE_EVERY_MS).toBe(600_000)
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const app = Fastify()
    try {
      await registerRateLimits(app, database.db)
      app.get('/free', async () => ({ ok: true }))
      app.get('/limited', { config: { rateLimit: { max: 1, timeWindow: 60_000 } } }, async () => ({
        ok: true,
      }))
      await app.ready()
      for (let i = 0; i < 3; i++) {
        const free = await app.inject('/free')
        expect(free.statusCode).toBe(200)
        expect(free.headers['x-ratelimit-limit']).toBeUndefined()
      }
      expect((await app.inject('/limited')).statusCode).toBe(200)
      expect((await app.inject('/limited')).statusCode).toBe(429)
      // Counted in PostgreSQL, where every instance sees it.
      expect(await row('route:GET/limited:127.0.0.1')).toMatchObject({ hits: 2 })

      await countHit(database.db, 'm:prune', 60_000)
      await expire('m:prune')
      vi.advanceTimersByTime(PRUNE_EVERY_MS - 1)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(await row('m:prune')).toBeDefined()
      vi.advanceTimersByTime(1)
      await vi.waitFor(async () => expect(await row('m:prune')).toBeUndefined())
    } finally {
      await app.close()
      expect(vi.getTimerCount()).toBe(0)
      vi.useRealTimers()
    }
  })
})

describe('the periodic prune', () => {
  it('logs a failure and keeps the server running', async () => {
    const broken = await openDatabase({})
    await broken.close()
    const lines: string[] = []
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString())
        done()
      },
    })
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const app = Fastify({ logger: { level: 'warn', stream } })
    try {
      await registerRateLimits(app, broken.db)
      await app.ready()
      vi.advanceTimersByTime(PRUNE_EVERY_MS)
      await vi.waitFor(() => expect(lines.join('')).toContain('rate limit prune failed'))
      // With the error (its class and message), for whoever reads the log.
      expect(
        JSON.parse(lines.find((l) => l.includes('rate limit prune failed')) ?? '{}'),
      ).toHaveProperty('err')
    } finally {
      await app.close()
      vi.useRealTimers()
    }
  })
})
