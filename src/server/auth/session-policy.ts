import { sql } from 'drizzle-orm'
import type { AppDb } from '../db/client'
import { session as sessions } from '../db/schema/auth'
import { withPlatform } from '../db/tenant'

/**
 * Sessions end at whichever comes first: the absolute limit after sign-in, or the idle
 * limit after the last request (ASVS 7.3.1/7.3.2). Both are kept in the one `expires_at`
 * that better-auth already checks on every use, so every instance and every better-auth
 * endpoint enforces them alike.
 */
export interface SessionPolicy {
  absoluteHours: number
  idleMinutes: number
}

/** Writes are skipped while the idle deadline moved less than this long ago. */
const TOUCH_EVERY_MS = 60_000

/** A new session starts with the idle deadline (never beyond the absolute limit). */
export function initialExpiry(policy: SessionPolicy, now = Date.now()): Date {
  const idle = policy.idleMinutes * 60_000
  const absolute = policy.absoluteHours * 3_600_000
  return new Date(now + Math.min(idle, absolute))
}

/** Moves the idle deadline forward on use, capped at sign-in time + the absolute limit. */
export async function keepSessionAlive(
  db: AppDb,
  session: { id: string; createdAt: Date; expiresAt: Date },
  policy: SessionPolicy,
): Promise<void> {
  const idleMs = policy.idleMinutes * 60_000
  const cap = session.createdAt.getTime() + policy.absoluteHours * 3_600_000
  const wanted = Math.min(Date.now() + idleMs, cap)
  if (wanted - session.expiresAt.getTime() < TOUCH_EVERY_MS) return
  await withPlatform(db, (tx) =>
    tx
      .update(sessions)
      .set({ expiresAt: new Date(wanted) })
      .where(sql`${sessions.id} = ${session.id} and ${sessions.expiresAt} > now()`),
  )
}
