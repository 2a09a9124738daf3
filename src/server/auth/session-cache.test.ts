import { describe, expect, it } from 'vitest'
import { cookieValue, createSessionCache, sessionCacheKey } from './session-cache'

function setUp(options: { maxEntries?: number } = {}) {
  let clock = 1_000_000
  const cache = createSessionCache<{ sessionId: string; userId: string; n?: number }>({
    liveTtlMs: 5_000,
    fallbackTtlMs: 1_000,
    maxEntries: options.maxEntries ?? 100,
    now: () => clock,
  })
  return { cache, tick: (ms: number) => (clock += ms) }
}

describe('session cache', () => {
  it('keeps an entry for 1 s without NOTIFY, 5 s with it', () => {
    const { cache, tick } = setUp()
    cache.set('k', { sessionId: 's', userId: 'u' }, cache.generation())
    tick(999)
    expect(cache.get('k')).toBeDefined()
    tick(1)
    expect(cache.get('k')).toBeUndefined()
    cache.setLive(true)
    cache.set('k', { sessionId: 's', userId: 'u' }, cache.generation())
    tick(4_999)
    expect(cache.get('k')).toBeDefined()
    tick(1)
    expect(cache.get('k')).toBeUndefined()
  })

  it('forgets everything when NOTIFY stops or starts (notices may have been missed)', () => {
    const { cache } = setUp()
    cache.setLive(true)
    cache.set('k', { sessionId: 's', userId: 'u' }, cache.generation())
    cache.setLive(false)
    expect(cache.get('k')).toBeUndefined()
  })

  it('drops by session, by user, or everything, as arogya_revoked says', () => {
    const { cache } = setUp()
    const fill = () => {
      cache.set('a', { sessionId: 's1', userId: 'u1' }, cache.generation())
      cache.set('b', { sessionId: 's2', userId: 'u1' }, cache.generation())
      cache.set('c', { sessionId: 's3', userId: 'u2' }, cache.generation())
    }
    fill()
    cache.applyRevocation('s:s1')
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([
      false,
      true,
      true,
    ])
    cache.applyRevocation('u:u1')
    expect([cache.get('b'), cache.get('c')].map(Boolean)).toEqual([false, true])
    fill()
    cache.applyRevocation('*')
    expect(cache.size()).toBe(0)
  })

  it('does not cache a lookup that an invalidation overtook', () => {
    const { cache } = setUp()
    const before = cache.generation()
    cache.applyRevocation('u:someone-else')
    cache.set('k', { sessionId: 's', userId: 'u' }, before)
    expect(cache.get('k')).toBeUndefined()
  })

  it('holds at most maxEntries, dropping the least recently used', () => {
    const { cache } = setUp({ maxEntries: 2 })
    cache.set('a', { sessionId: 'a', userId: 'u' }, cache.generation())
    cache.set('b', { sessionId: 'b', userId: 'u' }, cache.generation())
    expect(cache.get('a')).toBeDefined()
    cache.set('c', { sessionId: 'c', userId: 'u' }, cache.generation())
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBeDefined()
    expect(cache.get('c')).toBeDefined()
  })

  it('refuses a fallback lifetime over 2 s', () => {
    expect(() => createSessionCache({ fallbackTtlMs: 2_001 })).toThrow()
  })
})

describe('cookieValue and sessionCacheKey', () => {
  it('finds one cookie as sent, and none when the name appears twice', () => {
    expect(cookieValue('a=1; arogya.session_token=t.s%3D; b=2', 'arogya.session_token')).toBe(
      't.s%3D',
    )
    expect(cookieValue('a=1', 'arogya.session_token')).toBeUndefined()
    expect(cookieValue(undefined, 'x')).toBeUndefined()
    expect(cookieValue('x=1; x=2', 'x')).toBeUndefined()
  })

  it('keys on the whole signed value, so another signature is another key', () => {
    expect(sessionCacheKey('t.sig1')).not.toBe(sessionCacheKey('t.sig2'))
    expect(sessionCacheKey('t.sig1')).toBe(sessionCacheKey('t.sig1'))
    expect(sessionCacheKey('t.sig1')).not.toContain('t.sig1')
  })
})
