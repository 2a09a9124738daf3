import { sql } from 'drizzle-orm'
import type { AppDb, Tx } from '../../db/client'
import { userPresence } from '../../db/schema/live-monitoring'
import { withTenant } from '../../db/tenant'
import { notifyLive } from './activity'

/*
 * Presence (issue 29, docs/decisions/040): one user_presence row per member, in the database so
 * every instance agrees. Online is decided at read time: is_online (signed in, not signed out,
 * no pagehide beacon since) and last_activity within OFFLINE_AFTER_MS. Every write announces a
 * `presence` event (NOTIFY at COMMIT).
 */

export interface PresenceWho {
  hospitalId: string
  userId: string
}

/** Online now (a heartbeat, a request, a sign-in: `login` restarts the login time). */
export async function markOnline(
  tx: Tx,
  who: PresenceWho & { at?: Date | undefined; login?: boolean },
): Promise<void> {
  const at = who.at ?? new Date()
  const login = who.login === true
  await tx
    .insert(userPresence)
    .values({
      hospitalId: who.hospitalId,
      userId: who.userId,
      isOnline: true,
      lastActivity: at,
      loginTime: at,
    })
    .onConflictDoUpdate({
      target: [userPresence.hospitalId, userPresence.userId],
      set: {
        isOnline: true,
        lastActivity: sql`greatest(${userPresence.lastActivity}, excluded.last_activity)`,
        loginTime: login
          ? sql`excluded.login_time`
          : sql`case when ${userPresence.isOnline} and ${userPresence.loginTime} is not null
              then ${userPresence.loginTime} else excluded.login_time end`,
      },
    })
  await notifyLive(tx, {
    kind: 'presence',
    hospitalId: who.hospitalId,
    presence: { userId: who.userId, isOnline: true, lastActivity: at.toISOString() },
  })
}

/** Signed out, or the tab was closed (pagehide beacon). */
export async function markOffline(tx: Tx, who: PresenceWho): Promise<void> {
  const [row] = await tx
    .insert(userPresence)
    .values({ hospitalId: who.hospitalId, userId: who.userId, isOnline: false })
    .onConflictDoUpdate({
      target: [userPresence.hospitalId, userPresence.userId],
      set: { isOnline: false },
    })
    .returning({ lastActivity: userPresence.lastActivity })
  await notifyLive(tx, {
    kind: 'presence',
    hospitalId: who.hospitalId,
    presence: {
      userId: who.userId,
      isOnline: false,
      lastActivity: row?.lastActivity?.toISOString() ?? null,
    },
  })
}

/** Request activity bumps presence at most this often per user and instance. */
export const TOUCH_EVERY_MS = 30_000
const MAX_TRACKED = 10_000

/**
 * Any signed-in request counts as activity, but writes are throttled: at most one per user per
 * TOUCH_EVERY_MS on this instance (a few instances write a few times as often: still cheap).
 */
export function createPresenceToucher(db: AppDb, log: { warn: (o: object, m: string) => void }) {
  const lastWrite = new Map<string, number>()
  return {
    /** Forgets the throttle of a user (after a heartbeat or a sign-out wrote anyway). */
    wrote(who: PresenceWho, at = Date.now()) {
      lastWrite.set(`${who.hospitalId}:${who.userId}`, at)
    },
    forget(who: PresenceWho) {
      lastWrite.delete(`${who.hospitalId}:${who.userId}`)
    },
    async touch(who: PresenceWho, now = Date.now()): Promise<void> {
      const key = `${who.hospitalId}:${who.userId}`
      const last = lastWrite.get(key)
      if (last !== undefined && now - last < TOUCH_EVERY_MS) return
      if (lastWrite.size >= MAX_TRACKED) {
        for (const [k, at] of lastWrite) if (now - at >= TOUCH_EVERY_MS) lastWrite.delete(k)
        if (lastWrite.size >= MAX_TRACKED) lastWrite.clear()
      }
      lastWrite.set(key, now)
      try {
        await withTenant(db, { hospitalId: who.hospitalId, userId: who.userId }, (tx) =>
          markOnline(tx, who),
        )
      } catch (error) {
        lastWrite.delete(key)
        log.warn({ err: error }, 'live monitoring: presence not updated')
      }
    },
  }
}
export type PresenceToucher = ReturnType<typeof createPresenceToucher>
