import { describe, expect, it, vi } from 'vitest'
import type { ListenOptions } from '../db/notify'

// The session cache at its edges (mutation testing, docs/decisions/024): its default lifetimes
// and size, what bumps the generation (so a lookup that an invalidation overtook is not
// cached), revocation payloads, and the cookie parsing a cache hit depends on.

const listened: ListenOptions[] = []
vi.mock('../db/notify', () => ({
  listen: (options: ListenOptions) => {
    listened.push(options)
    return Promise.resolve({ state: () => 'live', close: () => Promise.resolve() })
  },
}))

const {
  cookieValue,
  createSessionCache,
  defaultSessionCacheOptions,
  listenForRevocations,
  REVOCATION_CHANNEL,
} = await import('./session-cache')

type Value = { sessionId: string; userId: string; n?: number }

function clocked(options: { maxEntries?: number; fallbackTtlMs?: number } = {}) {
  let clock = 5_000_000
  const cache = createSessionCache<Value>({ ...options, now: () => clock })
  return { cache, tick: (ms: number) => (clock += ms) }
}

const value = (sessionId: string, userId = 'u'): Value => ({ sessionId, userId })

describe('session cache defaults', () => {
  it('lives 1 s without NOTIFY and 5 s with it, and holds 10,000 sessions', () => {
    expect(defaultSessionCacheOptions).toEqual({
      liveTtlMs: 5_000,
      fallbackTtlMs: 1_000,
      maxEntries: 10_000,
    })
    const { cache, tick } = clocked()
    cache.set('k', value('s'), cache.generation())
    tick(999)
    expect(cache.get('k')).toEqual(value('s'))
    tick(1)
    expect(cache.get('k')).toBeUndefined()
    expect(cache.size()).toBe(0)

    cache.setLive(true)
    cache.set('k', value('s'), cache.generation())
    tick(4_999)
    expect(cache.get('k')).toEqual(value('s'))
    tick(1)
    expect(cache.get('k')).toBeUndefined()
  })

  it('keeps exactly 10,000 sessions by default, dropping the oldest', () => {
    const { cache } = clocked()
    for (let i = 0; i <= 10_000; i++) cache.set(`k${i}`, value(`s${i}`), cache.generation())
    expect(cache.size()).toBe(10_000)
    expect(cache.get('k0')).toBeUndefined()
    expect(cache.get('k1')).toEqual(value('s1'))
    expect(cache.get('k10000')).toEqual(value('s10000'))
  })

  it('keeps nothing, and never loops, when it has no room at all', () => {
    const cache = createSessionCache<Value>({ maxEntries: -1 })
    cache.set('k', value('s'), cache.generation())
    expect(cache.size()).toBe(0)
  })

  it('uses the real clock when none is given', () => {
    const cache = createSessionCache<Value>()
    cache.set('k', value('s'), cache.generation())
    expect(cache.get('k')).toEqual(value('s'))
  })

  it('accepts a fallback lifetime of exactly 2 s, not one more millisecond', () => {
    expect(() => createSessionCache({ fallbackTtlMs: 2_000 })).not.toThrow()
    expect(() => createSessionCache({ fallbackTtlMs: 2_001 })).toThrow(
      'fallbackTtlMs must be at most 2000 ms',
    )
  })
})

describe('session cache entries', () => {
  it('starts dark: the fallback lifetime until NOTIFY is live', () => {
    const { cache } = clocked()
    expect(cache.isLive()).toBe(false)
    cache.setLive(true)
    expect(cache.isLive()).toBe(true)
  })

  it('updates only a key still cached, and keeps its age', () => {
    const { cache, tick } = clocked()
    cache.update('missing', value('x'))
    expect(cache.get('missing')).toBeUndefined()
    expect(cache.size()).toBe(0)
    cache.set('k', { ...value('s'), n: 1 }, cache.generation())
    tick(600)
    cache.update('k', { ...value('s'), n: 2 })
    expect(cache.get('k')).toEqual({ ...value('s'), n: 2 })
    tick(400)
    expect(cache.get('k')).toBeUndefined()
  })

  it('restarts the age of a key set again, and makes it the most recently used', () => {
    const { cache, tick } = clocked({ maxEntries: 2 })
    cache.set('a', value('a'), cache.generation())
    cache.set('b', value('b'), cache.generation())
    tick(600)
    cache.set('a', value('a2'), cache.generation())
    cache.set('c', value('c'), cache.generation())
    expect(cache.get('b')).toBeUndefined()
    tick(600)
    expect(cache.get('a')).toEqual(value('a2'))
    expect(cache.size()).toBe(2)
  })

  it('drops one cookie key, returns what it held, and refuses a lookup it overtook', () => {
    const { cache } = clocked()
    cache.set('k', value('s'), cache.generation())
    cache.set('other', value('o'), cache.generation())
    const before = cache.generation()
    expect(cache.dropKey('k')).toEqual(value('s'))
    expect(cache.get('k')).toBeUndefined()
    expect(cache.get('other')).toEqual(value('o'))
    cache.set('k', value('stale'), before)
    expect(cache.get('k')).toBeUndefined()
    expect(cache.dropKey('never')).toBeUndefined()
  })

  it('refuses a lookup overtaken by a dropped session, user or everything', () => {
    for (const drop of [
      (c: ReturnType<typeof clocked>['cache']) => c.dropSession('nobody'),
      (c: ReturnType<typeof clocked>['cache']) => c.dropUser('nobody'),
      (c: ReturnType<typeof clocked>['cache']) => c.clear(),
    ]) {
      const { cache } = clocked()
      const before = cache.generation()
      drop(cache)
      expect(cache.generation()).not.toBe(before)
      cache.set('k', value('s'), before)
      expect(cache.get('k')).toBeUndefined()
      cache.set('k', value('s'), cache.generation())
      expect(cache.get('k')).toEqual(value('s'))
    }
  })

  it('drops by session id and by user id exactly', () => {
    const { cache } = clocked()
    cache.set('a', value('s1', 'u1'), cache.generation())
    cache.set('b', value('s2', 'u1'), cache.generation())
    cache.set('c', value('s3', 'u2'), cache.generation())
    cache.dropSession('s2')
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([
      true,
      false,
      true,
    ])
    cache.dropUser('u2')
    expect([cache.get('a'), cache.get('c')].map(Boolean)).toEqual([true, false])
  })

  it('reads s: and u: payloads by their prefix only; anything else clears', () => {
    const { cache } = clocked()
    const fill = () => {
      cache.set('a', value('s1', 'u1'), cache.generation())
      cache.set('b', value('u1', 's1'), cache.generation())
    }
    fill()
    cache.applyRevocation('s:s1')
    expect([cache.get('a'), cache.get('b')].map(Boolean)).toEqual([false, true])
    fill()
    cache.applyRevocation('u:u1')
    expect([cache.get('a'), cache.get('b')].map(Boolean)).toEqual([false, true])
    fill()
    cache.applyRevocation('x:s:s1')
    expect(cache.size()).toBe(0)
  })

  it('keeps its entries when told a liveness it already has', () => {
    const { cache } = clocked()
    cache.set('k', value('s'), cache.generation())
    const before = cache.generation()
    cache.setLive(false)
    expect(cache.get('k')).toEqual(value('s'))
    expect(cache.generation()).toBe(before)
    cache.setLive(true)
    expect(cache.size()).toBe(0)
    cache.set('k', value('s'), cache.generation())
    cache.setLive(true)
    expect(cache.get('k')).toEqual(value('s'))
    cache.setLive(false)
    expect(cache.size()).toBe(0)
  })
})

describe('cookieValue', () => {
  it('skips parts without =, trims names and values, and keeps = inside a value', () => {
    expect(cookieValue('flag; x=1', 'x')).toBe('1')
    expect(cookieValue('a=1;   x =  v=w  ', 'x')).toBe('v=w')
    expect(cookieValue('xy=1; yx=2', 'x')).toBeUndefined()
    expect(cookieValue('', 'x')).toBeUndefined()
    expect(cookieValue('x=', 'x')).toBe('')
    expect(cookieValue('x=; x=2', 'x')).toBeUndefined()
    expect(cookieValue('=1; x=2', 'x')).toBe('2')
    // A part without = is no cookie, even when all but its last character is the name.
    expect(cookieValue('xy', 'x')).toBeUndefined()
    expect(cookieValue('xy; x=1', 'x')).toBe('1')
  })
})

describe('listenForRevocations', () => {
  it('listens on arogya_revoked and applies what it hears to the cache', async () => {
    expect(REVOCATION_CHANNEL).toBe('arogya_revoked')
    const { cache } = clocked()
    await listenForRevocations(cache, {
      database: {} as ListenOptions['database'],
      directUrl: 'postgres://direct',
      log: { warn: () => undefined, info: () => undefined },
    })
    const options = listened.at(-1)
    expect(options?.channel).toBe('arogya_revoked')
    expect(options?.directUrl).toBe('postgres://direct')
    cache.set('a', value('s1'), cache.generation())
    options?.onNotify('s:s1')
    expect(cache.get('a')).toBeUndefined()
    options?.onLive(true)
    expect(cache.isLive()).toBe(true)
    options?.onLive(false)
    expect(cache.isLive()).toBe(false)
  })
})
