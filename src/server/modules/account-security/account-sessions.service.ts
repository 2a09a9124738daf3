import { and, desc, eq, gt, ne, sql } from 'drizzle-orm'
import type { ActiveSession } from '../../../shared/schemas/account-security'
import type { AppDb } from '../../db/client'
import { session } from '../../db/schema/auth'
import { withPlatform } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import { deviceName } from './device-name'

interface Own {
  db: AppDb
  userId: string
}

/** The user's own live sessions, most recently used first; the asking one marked current. */
export async function listOwnSessions(
  options: Own & { currentSessionId: string },
): Promise<ActiveSession[]> {
  const rows = await withPlatform(options.db, (tx) =>
    tx
      .select()
      .from(session)
      .where(and(eq(session.userId, options.userId), gt(session.expiresAt, sql`now()`)))
      .orderBy(desc(session.updatedAt), desc(session.createdAt))
      .limit(100),
  )
  return rows.map((row) => ({
    id: row.id,
    device: deviceName(row.userAgent),
    ipAddress: row.ipAddress || null,
    signedInAt: row.createdAt.toISOString(),
    lastUsedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    current: row.id === options.currentSessionId,
  }))
}

/**
 * Ends one of the user's own sessions. Another user's session id (or one that no longer
 * exists) is 404 and changes nothing. Deleting it notifies every instance (migration 0008).
 */
export async function revokeOwnSession(options: Own & { sessionId: string }): Promise<void> {
  const deleted = await withPlatform(options.db, (tx) =>
    tx
      .delete(session)
      .where(and(eq(session.id, options.sessionId), eq(session.userId, options.userId)))
      .returning({ id: session.id }),
  )
  if (!deleted.length) throw notFound('Session')
}

/** Ends every session of the user but the asking one; returns how many ended. */
export async function revokeOtherOwnSessions(
  options: Own & { currentSessionId: string },
): Promise<number> {
  const deleted = await withPlatform(options.db, (tx) =>
    tx
      .delete(session)
      .where(and(eq(session.userId, options.userId), ne(session.id, options.currentSessionId)))
      .returning({ id: session.id }),
  )
  return deleted.length
}
