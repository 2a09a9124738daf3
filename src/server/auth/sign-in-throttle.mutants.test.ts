import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../db/client'
import { createSignInThrottle, defaultThrottlePolicy } from './sign-in-throttle'

// The sign-in throttle at its edges (mutation testing, docs/decisions/024): free failures,
// doubling delays up to the cap, ceilings per account and per address, what a success clears.

let database: Database
beforeAll(async () => {
  database = await openDatabase({})
})
afterAll(async () => {
  await database?.close()
})

const policy = {
  freePairFailures: 2,
  firstDelaySeconds: 10,
  maxDelaySeconds: 35,
  accountCeiling: 5,
  ipCeiling: 4,
  windowMinutes: 15,
}

async function row(key: string) {
  const result = (await database.db.execute(
    sql`select failures, locked_until > now() as held from auth_throttle where key = ${key}`,
  )) as unknown as { rows: { failures: number; held: boolean | null }[] }
  return result.rows[0]
}

describe('defaultThrottlePolicy', () => {
  it('is 5 free failures, then 30 s doubling to 15 min; 100 per account, 50 per address in 15 min', () => {
    expect(defaultThrottlePolicy).toEqual({
      freePairFailures: 5,
      firstDelaySeconds: 30,
      maxDelaySeconds: 900,
      accountCeiling: 100,
      ipCeiling: 50,
      windowMinutes: 15,
    })
  })
})

describe('createSignInThrottle', () => {
  it('gives free failures, then delays that double up to the cap', async () => {
    const pairAndAccount = { ...policy, ipCeiling: 100 }
    const throttle = createSignInThrottle(database.db, pairAndAccount)
    expect(throttle.policy).toBe(pairAndAccount)
    const attempt = { email: ' Asha@Clinic.IN ', ip: '198.51.100.1' }
    expect(await throttle.recordFailure(attempt)).toBeNull()
    expect(await throttle.recordFailure(attempt)).toBeNull()
    expect(await throttle.check(attempt)).toBeNull()
    expect(await throttle.recordFailure(attempt)).toEqual({ scope: 'pair', retryAfterSeconds: 10 })
    const held = await throttle.check(attempt)
    expect(held?.scope).toBe('pair')
    expect(held?.retryAfterSeconds).toBeGreaterThanOrEqual(9)
    expect(held?.retryAfterSeconds).toBeLessThanOrEqual(10)
    expect(await throttle.recordFailure(attempt)).toEqual({ scope: 'pair', retryAfterSeconds: 20 })
    expect(await throttle.recordFailure({ email: 'asha@clinic.in', ip: '198.51.100.1' })).toEqual({
      scope: 'account',
      retryAfterSeconds: 900,
    })
    expect(await row('pair:asha@clinic.in|198.51.100.1')).toMatchObject({ failures: 5, held: true })
    expect(await row('acct:asha@clinic.in')).toMatchObject({ failures: 5, held: true })
  })

  it('caps the delay at maxDelaySeconds', async () => {
    const throttle = createSignInThrottle(database.db, {
      ...policy,
      accountCeiling: 100,
      ipCeiling: 100,
    })
    const attempt = { email: 'cap@clinic.in', ip: '198.51.100.2' }
    const holds = []
    for (let i = 0; i < 6; i++) holds.push(await throttle.recordFailure(attempt))
    expect(holds.map((h) => h?.retryAfterSeconds ?? 0)).toEqual([0, 0, 10, 20, 35, 35])
  })

  it('holds an address after ipCeiling failures on any accounts, and that address only', async () => {
    const throttle = createSignInThrottle(database.db, { ...policy, freePairFailures: 100 })
    const ip = '198.51.100.3'
    for (let i = 0; i < 3; i++) {
      expect(await throttle.recordFailure({ email: `u${i}@clinic.in`, ip })).toBeNull()
    }
    expect(await throttle.recordFailure({ email: 'u3@clinic.in', ip })).toEqual({
      scope: 'ip',
      retryAfterSeconds: 900,
    })
    expect((await throttle.check({ email: 'new@clinic.in', ip }))?.scope).toBe('ip')
    expect(await throttle.check({ email: 'new@clinic.in', ip: '198.51.100.4' })).toBeNull()
  })

  it('reports the longest hold that applies', async () => {
    const throttle = createSignInThrottle(database.db, policy)
    const attempt = { email: 'long@clinic.in', ip: '198.51.100.5' }
    await database.db.execute(
      sql`insert into auth_throttle (key, failures, locked_until) values
          ('pair:long@clinic.in|198.51.100.5', 9, now() + interval '100 seconds'),
          ('acct:long@clinic.in', 9, now() + interval '300 seconds'),
          ('ip:198.51.100.5', 9, now() + interval '200 seconds')`,
    )
    const hold = await throttle.check(attempt)
    expect(hold?.scope).toBe('account')
    expect(hold?.retryAfterSeconds).toBeGreaterThan(290)
    await database.db.execute(
      sql`update auth_throttle set locked_until = now() + interval '400 seconds' where key = 'ip:198.51.100.5'`,
    )
    expect((await throttle.check(attempt))?.scope).toBe('ip')
    await database.db.execute(
      sql`update auth_throttle set locked_until = now() + interval '500 seconds' where key = 'pair:long@clinic.in|198.51.100.5'`,
    )
    expect((await throttle.check(attempt))?.scope).toBe('pair')
    await database.db.execute(
      sql`update auth_throttle set locked_until = now() + interval '200 milliseconds' where key like '%long@clinic.in%' or key = 'ip:198.51.100.5'`,
    )
    expect((await throttle.check(attempt))?.retryAfterSeconds).toBe(1)
  })

  it('clears only its own pair on success, and counts afresh after the window', async () => {
    const throttle = createSignInThrottle(database.db, { ...policy, freePairFailures: 100 })
    const attempt = { email: 'ok@clinic.in', ip: '198.51.100.6' }
    await throttle.recordFailure(attempt)
    await throttle.recordFailure(attempt)
    await throttle.recordSuccess({ email: ' OK@clinic.in', ip: '198.51.100.6' })
    expect(await row('pair:ok@clinic.in|198.51.100.6')).toBeUndefined()
    expect(await row('acct:ok@clinic.in')).toMatchObject({ failures: 2 })
    await database.db.execute(
      sql`update auth_throttle set window_started_at = now() - interval '16 minutes' where key = 'acct:ok@clinic.in'`,
    )
    await throttle.recordFailure(attempt)
    expect(await row('acct:ok@clinic.in')).toMatchObject({ failures: 1 })
  })

  it('prunes rows whose window and hold are both over', async () => {
    const throttle = createSignInThrottle(database.db, policy)
    await database.db.execute(
      sql`insert into auth_throttle (key, failures, window_started_at, locked_until) values
          ('prune:old', 1, now() - interval '16 minutes', null),
          ('prune:held', 1, now() - interval '16 minutes', now() + interval '1 minute'),
          ('prune:done', 1, now() - interval '16 minutes', now() - interval '1 minute'),
          ('prune:recent', 1, now() - interval '14 minutes', null)`,
    )
    await throttle.prune()
    const keys = (await database.db.execute(
      sql`select key from auth_throttle where key like 'prune:%' order by key`,
    )) as unknown as { rows: { key: string }[] }
    expect(keys.rows.map((r) => r.key)).toEqual(['prune:held', 'prune:recent'])
  })
})
