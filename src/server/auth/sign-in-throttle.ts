import { inArray, sql } from 'drizzle-orm'
import type { AppDb } from '../db/client'
import { authThrottle } from '../db/schema/security'
import { withPlatform } from '../db/tenant'

/**
 * Sign-in throttling that an attacker cannot turn into a lockout of the real user
 * (ASVS 6.3.1/6.1.1), kept in PostgreSQL so every instance sees the same counts:
 * - per account + IP pair: a few free failures, then growing delays (the guesser waits,
 *   the clinic's own front desk on another address does not);
 * - per account, from anywhere: a ceiling far higher, against distributed guessing;
 * - per IP: failures only, so a clinic signing in 40 staff from one address is never held up.
 * A success clears its pair; it never counts against any budget.
 */
export interface ThrottlePolicy {
  /** Failures of one account from one IP before delays start. */
  freePairFailures: number
  /** The first delay; each further failure doubles it. */
  firstDelaySeconds: number
  maxDelaySeconds: number
  /** Failures of one account from all addresses in a window before it is held. */
  accountCeiling: number
  /** Failures from one IP (any accounts) in a window before that IP is held. */
  ipCeiling: number
  windowMinutes: number
}

export const defaultThrottlePolicy: ThrottlePolicy = {
  freePairFailures: 5,
  firstDelaySeconds: 30,
  maxDelaySeconds: 15 * 60,
  accountCeiling: 100,
  ipCeiling: 50,
  windowMinutes: 15,
}

export interface Attempt {
  email: string
  ip: string
}

export type Hold = { scope: 'pair' | 'account' | 'ip'; retryAfterSeconds: number }

const keys = ({ email, ip }: Attempt) => ({
  pair: `pair:${email.trim().toLowerCase()}|${ip}`,
  account: `acct:${email.trim().toLowerCase()}`,
  ip: `ip:${ip}`,
})

export function createSignInThrottle(db: AppDb, policy: ThrottlePolicy = defaultThrottlePolicy) {
  const window = `${policy.windowMinutes} minutes`

  /** Adds a failure to one key and returns its count in the current window. */
  async function addFailure(key: string): Promise<number> {
    const rows = await withPlatform(db, (tx) =>
      tx
        .insert(authThrottle)
        .values({ key, failures: 1 })
        .onConflictDoUpdate({
          target: authThrottle.key,
          set: {
            failures: sql`case when ${authThrottle.windowStartedAt} < now() - ${window}::interval then 1 else ${authThrottle.failures} + 1 end`,
            windowStartedAt: sql`case when ${authThrottle.windowStartedAt} < now() - ${window}::interval then now() else ${authThrottle.windowStartedAt} end`,
          },
        })
        .returning({ failures: authThrottle.failures }),
    )
    return rows[0]?.failures ?? 1
  }

  async function hold(key: string, seconds: number): Promise<void> {
    await withPlatform(db, (tx) =>
      tx
        .update(authThrottle)
        .set({ lockedUntil: sql`now() + make_interval(secs => ${seconds})` })
        .where(sql`${authThrottle.key} = ${key}`),
    )
  }

  return {
    policy,

    /** The hold that applies to this attempt now, if any (the longest). */
    async check(attempt: Attempt): Promise<Hold | null> {
      const k = keys(attempt)
      const rows = await withPlatform(db, (tx) =>
        tx
          .select({
            key: authThrottle.key,
            seconds: sql<number>`ceil(extract(epoch from ${authThrottle.lockedUntil} - now()))::int`,
          })
          .from(authThrottle)
          .where(
            sql`${inArray(authThrottle.key, [k.pair, k.account, k.ip])} and ${authThrottle.lockedUntil} > now()`,
          ),
      )
      let worst: Hold | null = null
      for (const row of rows) {
        const scope = row.key === k.pair ? 'pair' : row.key === k.account ? 'account' : 'ip'
        const seconds = Math.max(1, Number(row.seconds))
        if (!worst || seconds > worst.retryAfterSeconds)
          worst = { scope, retryAfterSeconds: seconds }
      }
      return worst
    },

    /** Counts a failed attempt; returns the hold it caused, if any. */
    async recordFailure(attempt: Attempt): Promise<Hold | null> {
      const k = keys(attempt)
      const [pair, account, ip] = [
        await addFailure(k.pair),
        await addFailure(k.account),
        await addFailure(k.ip),
      ]
      let caused: Hold | null = null
      if (pair > policy.freePairFailures) {
        const exponent = pair - policy.freePairFailures - 1
        const seconds = Math.min(policy.maxDelaySeconds, policy.firstDelaySeconds * 2 ** exponent)
        await hold(k.pair, seconds)
        caused = { scope: 'pair', retryAfterSeconds: seconds }
      }
      const windowSeconds = policy.windowMinutes * 60
      if (account >= policy.accountCeiling) {
        await hold(k.account, windowSeconds)
        caused = { scope: 'account', retryAfterSeconds: windowSeconds }
      }
      if (ip >= policy.ipCeiling) {
        await hold(k.ip, windowSeconds)
        caused = { scope: 'ip', retryAfterSeconds: windowSeconds }
      }
      return caused
    },

    /** A success clears the delays of its own account + IP pair. */
    async recordSuccess(attempt: Attempt): Promise<void> {
      const k = keys(attempt)
      await withPlatform(db, (tx) =>
        tx.delete(authThrottle).where(sql`${authThrottle.key} = ${k.pair}`),
      )
    },

    /** Drops rows whose window and hold are both over (called now and then). */
    async prune(): Promise<void> {
      await withPlatform(db, (tx) =>
        tx
          .delete(authThrottle)
          .where(
            sql`${authThrottle.windowStartedAt} < now() - ${window}::interval and (${authThrottle.lockedUntil} is null or ${authThrottle.lockedUntil} < now())`,
          ),
      )
    },
  }
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>
