import { sql } from 'drizzle-orm'
import type { AppDb } from '../db/client'
import { session as sessions } from '../db/schema/auth'

/**
 * Sessions end at whichever comes first: the absolute limit after sign-in, or the idle
 * limit after the last request (ASVS 7.3.1/7.3.2). Both are kept in the one `expires_at`
 * that better-auth already checks on every use, so every instance and every better-auth
 * endpoint enforces them alike. The policy is per hospital (Settings -> Security, issue 27:
 * hospital-policy.ts); accounts outside a hospital have the global one (env).
 */
export interface SessionPolicy {
  absoluteHours: number
  idleMinutes: number
}

/**
 * Writes are skipped while the idle deadline moved less than this long ago: an active session
 * costs one UPDATE a minute (per instance at most), not one per request. The idle limit is
 * thereby enforced to within this minute.
 */
export const TOUCH_EVERY_MS = 60_000

/** A new session starts with the idle deadline (never beyond the absolute limit). */
export function initialExpiry(policy: SessionPolicy, now = Date.now()): Date {
  const idle = policy.idleMinutes * 60_000
  const absolute = policy.absoluteHours * 3_600_000
  return new Date(now + Math.min(idle, absolute))
}

/**
 * The idle deadline a use now asks for, capped at sign-in + the absolute limit; null while the
 * current deadline is within a minute of it. A deadline beyond the cap (the hospital shortened
 * its session hours since) is brought back to the cap at once.
 */
export function wantedExpiry(
  session: { createdAt: Date; expiresAt: Date },
  policy: SessionPolicy,
  now = Date.now(),
): Date | null {
  const idleMs = policy.idleMinutes * 60_000
  const cap = session.createdAt.getTime() + policy.absoluteHours * 3_600_000
  if (session.expiresAt.getTime() > cap) return new Date(cap)
  const wanted = Math.min(now + idleMs, cap)
  return wanted - session.expiresAt.getTime() < TOUCH_EVERY_MS ? null : new Date(wanted)
}

/** What keeping a session alive did: nothing to do, a new deadline, or no live session found. */
export type KeepAlive =
  { kind: 'unchanged' } | { kind: 'moved'; expiresAt: Date } | { kind: 'gone' }

/**
 * Moves the idle deadline forward on use (one statement, one round trip, at most once a
 * minute), and records the use (updated_at: the "last used" of the sessions list, to within
 * that minute). Moving the deadline forward sends no revocation notice (migration 0008), so
 * cached sessions stay cached; moving it back (a shortened policy) does. 'gone': the session
 * was deleted or had expired meanwhile, or the shortened policy ended it.
 */
export async function keepSessionAlive(
  db: AppDb,
  session: { id: string; createdAt: Date; expiresAt: Date },
  policy: SessionPolicy,
): Promise<KeepAlive> {
  const wanted = wantedExpiry(session, policy)
  if (!wanted) return { kind: 'unchanged' }
  // A platform table, one statement: no transaction needed (withPlatform would add BEGIN and
  // COMMIT round trips).
  const rows = await db
    .update(sessions)
    .set({ expiresAt: wanted, updatedAt: new Date() })
    .where(sql`${sessions.id} = ${session.id} and ${sessions.expiresAt} > now()`)
    .returning({ id: sessions.id })
  if (!rows.length || wanted.getTime() <= Date.now()) return { kind: 'gone' }
  return { kind: 'moved', expiresAt: wanted }
}
