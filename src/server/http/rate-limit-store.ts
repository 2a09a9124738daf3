import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit'
import type { BetterAuthRateLimitOptions } from 'better-auth'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { AppDb } from '../db/client'
import { rateLimitHits } from '../db/schema/rate-limits'
import { withPlatform } from '../db/tenant'

/**
 * Rate limits kept in PostgreSQL, so N instances behind a load balancer allow the configured
 * count in total, not N times it (ENGINEERING.md "Runs as many instances",
 * docs/decisions/008). Fixed windows on the database clock: one row per key, counted by one
 * atomic upsert that also starts a new window once the old one is over.
 */

export interface Hit {
  /** Requests counted in the current window, this one included. */
  hits: number
  /** Milliseconds until the current window ends. */
  ttlMs: number
}

/** Counts one request against `key` in a window of `windowMs`; one statement, race-free. */
export async function countHit(db: AppDb, key: string, windowMs: number): Promise<Hit> {
  const seconds = Math.max(1, Math.trunc(windowMs)) / 1000
  const t = rateLimitHits
  const over = sql`${t.expiresAt} <= now()`
  const rows = await withPlatform(db, (tx) =>
    tx
      .insert(t)
      .values({ key, hits: 1, expiresAt: sql`now() + make_interval(secs => ${seconds})` })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          hits: sql`case when ${over} then 1 else ${t.hits} + 1 end`,
          windowStartedAt: sql`case when ${over} then now() else ${t.windowStartedAt} end`,
          expiresAt: sql`case when ${over} then excluded.expires_at else ${t.expiresAt} end`,
        },
      })
      .returning({
        hits: t.hits,
        ttlMs: sql<number>`extract(epoch from ${t.expiresAt} - now())::float8 * 1000`,
      }),
  )
  const row = rows[0]
  return { hits: row?.hits ?? 1, ttlMs: Math.max(0, Math.ceil(Number(row?.ttlMs ?? 0))) }
}

export interface Quota {
  /** Whether `amount` was taken; when false nothing was counted. */
  allowed: boolean
  /** Used in the current window after this call (before it, when refused). */
  used: number
  /** Milliseconds until the current window ends (0 when no window has started). */
  ttlMs: number
}

/**
 * Takes `amount` units of a quota of `max` per window under `key`, all or nothing: one
 * statement adds them only if the window's total stays within `max` (or the window is over),
 * so concurrent callers on any instance never overrun it together. A refused call counts
 * nothing. The same rows as countHit (fixed windows on the database clock, pruned alike).
 */
export async function takeQuota(
  db: AppDb,
  key: string,
  windowMs: number,
  amount: number,
  max: number,
): Promise<Quota> {
  const seconds = Math.max(1, Math.trunc(windowMs)) / 1000
  const t = rateLimitHits
  const over = sql`${t.expiresAt} <= now()`
  const ttl = sql<number>`extract(epoch from ${t.expiresAt} - now())::float8 * 1000`
  return withPlatform(db, async (tx) => {
    const taken =
      amount <= max
        ? await tx
            .insert(t)
            .values({
              key,
              hits: amount,
              expiresAt: sql`now() + make_interval(secs => ${seconds})`,
            })
            .onConflictDoUpdate({
              target: t.key,
              set: {
                hits: sql`case when ${over} then excluded.hits else ${t.hits} + excluded.hits end`,
                windowStartedAt: sql`case when ${over} then now() else ${t.windowStartedAt} end`,
                expiresAt: sql`case when ${over} then excluded.expires_at else ${t.expiresAt} end`,
              },
              setWhere: sql`${over} or ${t.hits} + excluded.hits <= ${max}`,
            })
            .returning({ hits: t.hits, ttlMs: ttl })
        : []
    const row = taken[0]
    if (row)
      return { allowed: true, used: row.hits, ttlMs: Math.max(0, Math.ceil(Number(row.ttlMs))) }
    const [now] = await tx
      .select({ hits: t.hits, ttlMs: ttl })
      .from(t)
      .where(sql`${t.key} = ${key} and not ${over}`)
    return {
      allowed: false,
      used: now?.hits ?? 0,
      ttlMs: Math.max(0, Math.ceil(Number(now?.ttlMs ?? 0))),
    }
  })
}

/** Gives back units taken with takeQuota (a later step refused the work they were for). */
export async function giveBackQuota(db: AppDb, key: string, amount: number): Promise<void> {
  const t = rateLimitHits
  await withPlatform(db, (tx) =>
    tx
      .update(t)
      .set({ hits: sql`greatest(0, ${t.hits} - ${amount})` })
      .where(sql`${t.key} = ${key} and ${t.expiresAt} > now()`),
  )
}

/** Deletes rows whose window is over. Idempotent: every instance may run it. */
export async function pruneRateLimits(db: AppDb): Promise<number> {
  const rows = await withPlatform(db, (tx) =>
    tx
      .delete(rateLimitHits)
      .where(sql`${rateLimitHits.expiresAt} < now()`)
      .returning({ key: rateLimitHits.key }),
  )
  return rows.length
}

/** What @fastify/rate-limit hands child(): the merged route settings and the route itself. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string }
}

/**
 * A store for @fastify/rate-limit (its documented Store interface: constructor(options),
 * incr(key, callback, timeWindow, max), child(routeOptions)). Keys are `route:<METHOD><url>:`
 * plus the route's key (the client IP), like the plugin's own Redis store.
 */
export function postgresRateLimitStore(db: AppDb): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string

    constructor(_options: unknown, prefix = 'route:') {
      this.prefix = prefix
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      countHit(db, this.prefix + key, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      )
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as ChildOptions).routeInfo ?? {}
      const method = Array.isArray(route.method) ? route.method.join(',') : (route.method ?? '')
      return new PostgresRateLimitStore(routeOptions, `${this.prefix}${method}${route.url ?? ''}:`)
    }
  }
  return PostgresRateLimitStore
}

export type AuthRateLimitStorage = NonNullable<BetterAuthRateLimitOptions['customStorage']>

/**
 * better-auth's limiter (rateLimit.customStorage: one atomic consume(key, { window, max })
 * with the window in seconds) on the same table, under `auth:` keys (better-auth's key is
 * `<ip>|<path>`).
 */
export function authRateLimitStorage(db: AppDb): AuthRateLimitStorage {
  return {
    async consume(key, rule) {
      const { hits, ttlMs } = await countHit(db, `auth:${key}`, rule.window * 1000)
      if (hits <= rule.max) return { allowed: true, retryAfter: null }
      return { allowed: false, retryAfter: Math.max(1, Math.ceil(ttlMs / 1000)) }
    },
  }
}

/** How often each instance deletes finished windows. */
export const PRUNE_EVERY_MS = 10 * 60_000

/**
 * @fastify/rate-limit with the PostgreSQL store (off unless a route sets config.rateLimit),
 * plus the periodic prune, stopped when the app closes.
 */
export async function registerRateLimits(app: FastifyInstance, db: AppDb): Promise<void> {
  await app.register(rateLimit, { global: false, store: postgresRateLimitStore(db) })
  const pruning = setInterval(() => {
    pruneRateLimits(db).catch((error: unknown) =>
      app.log.warn({ err: error }, 'rate limit prune failed'),
    )
  }, PRUNE_EVERY_MS)
  pruning.unref()
  app.addHook('onClose', async () => clearInterval(pruning))
}
