import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../db/client'
import {
  authRateLimitStorage,
  countHit,
  postgresRateLimitStore,
  pruneRateLimits,
} from './rate-limit-store'

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
  it('counts hits in one window and reports the time left in it', async () => {
    const first = await countHit(database.db, 'unit:a', 60_000)
    expect(first.hits).toBe(1)
    expect(first.ttlMs).toBeGreaterThan(59_000)
    expect(first.ttlMs).toBeLessThanOrEqual(60_000)
    const second = await countHit(database.db, 'unit:a', 60_000)
    expect(second.hits).toBe(2)
    expect(second.ttlMs).toBeLessThanOrEqual(first.ttlMs)
    expect((await countHit(database.db, 'unit:b', 60_000)).hits).toBe(1)
  })

  it('starts a new window once the old one is over', async () => {
    for (let i = 0; i < 3; i++) await countHit(database.db, 'unit:c', 3_600_000)
    await expire('unit:c')
    const fresh = await countHit(database.db, 'unit:c', 3_600_000)
    expect(fresh).toMatchObject({ hits: 1 })
    expect(fresh.ttlMs).toBeGreaterThan(3_590_000)
  })
})

describe('pruneRateLimits', () => {
  it('deletes finished windows only, and may run again', async () => {
    await countHit(database.db, 'unit:old', 60_000)
    await countHit(database.db, 'unit:live', 60_000)
    await expire('unit:old')
    expect(await pruneRateLimits(database.db)).toBeGreaterThanOrEqual(1)
    expect(await row('unit:old')).toBeUndefined()
    expect(await row('unit:live')).toMatchObject({ hits: 1, live: true })
    expect(await pruneRateLimits(database.db)).toBe(0)
  })
})

describe('postgresRateLimitStore (the @fastify/rate-limit store)', () => {
  it('keeps one count per route and key', async () => {
    const Ctor = postgresRateLimitStore(database.db)
    const root = new Ctor({})
    const trial = root.child({ routeInfo: { method: 'POST', url: '/api/auth/trial' } } as never)
    const demo = root.child({ routeInfo: { method: 'POST', url: '/api/demo-requests' } } as never)
    const incr = (store: typeof trial, key: string) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        store.incr(
          key,
          (error, result) => (error || !result ? reject(error) : resolve(result)),
          5_000,
          2,
        ),
      )
    expect((await incr(trial, '192.0.2.1')).current).toBe(1)
    expect((await incr(trial, '192.0.2.1')).current).toBe(2)
    expect((await incr(demo, '192.0.2.1')).current).toBe(1)
    const { ttl } = await incr(trial, '192.0.2.1')
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(5_000)
    expect(await row('route:POST/api/auth/trial:192.0.2.1')).toMatchObject({ hits: 3 })
  })

  it('passes a database error to the callback', async () => {
    const broken = await openDatabase({})
    await broken.close()
    const Ctor = postgresRateLimitStore(broken.db)
    const error = await new Promise<Error | null>((resolve) =>
      new Ctor({}).incr('k', (e) => resolve(e), 1_000, 1),
    )
    expect(error).toBeInstanceOf(Error)
  })
})

describe('authRateLimitStorage (better-auth customStorage)', () => {
  it('allows max requests in a window, then answers with the seconds left', async () => {
    const storage = authRateLimitStorage(database.db)
    const rule = { window: 60, max: 2 }
    expect(await storage.consume('198.51.100.7|/two-factor/verify-totp', rule)).toEqual({
      allowed: true,
      retryAfter: null,
    })
    await storage.consume('198.51.100.7|/two-factor/verify-totp', rule)
    const denied = await storage.consume('198.51.100.7|/two-factor/verify-totp', rule)
    expect(denied.allowed).toBe(false)
    expect(denied.retryAfter).toBeGreaterThan(50)
    expect(denied.retryAfter).toBeLessThanOrEqual(60)
    expect(await row('auth:198.51.100.7|/two-factor/verify-totp')).toMatchObject({ hits: 3 })
  })
})
