import { createHash } from 'node:crypto'
import { listen, type Listening, type ListenOptions } from '../db/notify'

/**
 * A short-lived, bounded, in-process cache of signed-in sessions (docs/decisions/010), so that
 * a signed-in request needs no session or user lookup most of the time.
 *
 * - Keyed by a SHA-256 of the signed session cookie exactly as sent: a hit means the very same
 *   signed value that better-auth accepted a moment ago; a forged or altered cookie misses and
 *   goes to better-auth. Tokens themselves are never kept.
 * - Revocation: every change that ends or alters a session (sign-out, revoked sessions,
 *   suspension, role, password...) reaches every instance through NOTIFY arogya_revoked
 *   (migration 0008, db/notify.ts) and is dropped here; the instance that made the change
 *   drops it itself before answering. While that signal is live (a NOTIFY the listener sent
 *   itself came back: decision 022), entries live `liveTtlMs`; without it (no
 *   DATABASE_DIRECT_URL, the listening connection down, or a direct URL that does not deliver
 *   notifications, like PgBouncer in transaction mode), `fallbackTtlMs` (at most 2 s), so no
 *   revocation is outlived by more than that.
 * - An answer that was being looked up while an invalidation arrived is not cached (it may
 *   predate the revocation).
 */
export interface SessionCacheOptions {
  /** Entry lifetime while invalidations arrive by NOTIFY. */
  liveTtlMs: number
  /** Entry lifetime without them; at most 2 s (issue 16: revocation within 2 s everywhere). */
  fallbackTtlMs: number
  /** At most this many sessions; the least recently used go first. */
  maxEntries: number
  now?: () => number
}

export const defaultSessionCacheOptions: SessionCacheOptions = {
  liveTtlMs: 5_000,
  fallbackTtlMs: 1_000,
  maxEntries: 10_000,
}

/** What a cached session must name so that it can be dropped by session or by user. */
export interface CachedSession {
  sessionId: string
  userId: string
}

interface Entry<T> {
  value: T
  cachedAt: number
}

export interface SessionCache<T extends CachedSession> {
  /** The cached session for this key, or undefined (missing, too old). */
  get: (key: string) => T | undefined
  /** Replaces the value of a key still cached (e.g. a moved expiry); no-op otherwise. */
  update: (key: string, value: T) => void
  /** A marker to take before a lookup; set() ignores the result if anything was dropped since. */
  generation: () => number
  set: (key: string, value: T, generation: number) => void
  /** Drops the session of this cookie key, and returns what was cached for it. */
  dropKey: (key: string) => T | undefined
  dropSession: (sessionId: string) => void
  dropUser: (userId: string) => void
  clear: () => void
  /** Applies an arogya_revoked payload: 's:<session id>', 'u:<user id>' or '*'. */
  applyRevocation: (payload: string) => void
  /** Whether invalidations arrive by NOTIFY right now (longer TTL); changing it clears. */
  setLive: (live: boolean) => void
  isLive: () => boolean
  size: () => number
}

/** The cache key of a signed session cookie value. */
export function sessionCacheKey(signedCookieValue: string): string {
  return createHash('sha256').update(signedCookieValue).digest('base64url')
}

export function createSessionCache<T extends CachedSession>(
  options: Partial<SessionCacheOptions> = {},
): SessionCache<T> {
  const opts = { ...defaultSessionCacheOptions, ...options }
  if (opts.fallbackTtlMs > 2_000) throw new Error('fallbackTtlMs must be at most 2000 ms')
  const now = opts.now ?? Date.now
  const entries = new Map<string, Entry<T>>()
  let gen = 0
  let live = false

  const ttl = () => (live ? opts.liveTtlMs : opts.fallbackTtlMs)

  function dropWhere(test: (value: T) => boolean) {
    gen++
    for (const [key, entry] of entries) if (test(entry.value)) entries.delete(key)
  }

  const cache: SessionCache<T> = {
    get(key) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (now() - entry.cachedAt >= ttl()) {
        entries.delete(key)
        return undefined
      }
      // Most recently used last: eviction takes the first.
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },
    update(key, value) {
      const entry = entries.get(key)
      if (entry) entry.value = value
    },
    generation: () => gen,
    set(key, value, generation) {
      if (generation !== gen) return
      entries.delete(key)
      entries.set(key, { value, cachedAt: now() })
      while (entries.size > opts.maxEntries) {
        const oldest = entries.keys().next().value
        if (oldest === undefined) break
        entries.delete(oldest)
      }
    },
    dropKey(key) {
      const entry = entries.get(key)
      gen++
      entries.delete(key)
      return entry?.value
    },
    dropSession: (sessionId) => dropWhere((v) => v.sessionId === sessionId),
    dropUser: (userId) => dropWhere((v) => v.userId === userId),
    clear() {
      gen++
      entries.clear()
    },
    applyRevocation(payload) {
      if (payload.startsWith('s:')) cache.dropSession(payload.slice(2))
      else if (payload.startsWith('u:')) cache.dropUser(payload.slice(2))
      else cache.clear()
    },
    setLive(next) {
      if (next === live) return
      live = next
      // Going live: invalidations may have been missed before. Going dark: entries cached
      // under the longer TTL must not outlive the fallback one.
      cache.clear()
    },
    isLive: () => live,
    size: () => entries.size,
  }
  return cache
}

/**
 * The value of one cookie in a Cookie header, as sent (not decoded). Undefined when absent,
 * and when the name appears more than once (which value a library takes is then unclear:
 * such a request is not answered from the cache).
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  let found: string | undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    if (part.slice(0, eq).trim() !== name) continue
    if (found !== undefined) return undefined
    found = part.slice(eq + 1).trim()
  }
  return found
}

/** The NOTIFY channel of migration 0008's triggers. */
export const REVOCATION_CHANNEL = 'arogya_revoked'

/** Keeps a cache in step with revocations on every instance (LISTEN arogya_revoked). */
export function listenForRevocations<T extends CachedSession>(
  cache: SessionCache<T>,
  options: Omit<ListenOptions, 'channel' | 'onNotify' | 'onLive'>,
): Promise<Listening> {
  return listen({
    ...options,
    channel: REVOCATION_CHANNEL,
    onNotify: (payload) => cache.applyRevocation(payload),
    onLive: (live) => cache.setLive(live),
  })
}
