import { eq } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import type { AppDb } from '../db/client'
import { session } from '../db/schema/auth'
import { withPlatform } from '../db/tenant'
import { supportGrantLive, supportVisitOf } from './hospital-access'

/**
 * The one rule for long-lived answers (server-sent events, issue 39): a stream may go on only
 * while the request that opened it would still be let in. Every heartbeat re-checks it:
 *  - the session is still there and not past its (idle or absolute) deadline;
 *  - a support visit's grant is neither revoked nor expired, and the session is still inside
 *    under it (never only the session: support access ends everything it opened).
 * A support visit's stream also ends at its grant's expiry, and at once when the grant is
 * revoked (`endsWith`: the NOTIFY the revocation sends, heard by every instance's hub).
 */
export interface StreamAccess {
  /** Whether the stream may go on (false also when the check itself fails). */
  stillAllowed: () => Promise<boolean>
  /** The support grant the stream was opened under, if any. */
  grantId: string | null
  /** Milliseconds until the grant expires (support visits), else null. */
  msLeft: () => number | null
  /** Whether a support grant ending (revoked) ends this stream. */
  endsWith: (ended: { grantId: string }) => boolean
}

async function sessionAlive(db: AppDb, sessionId: string): Promise<boolean> {
  const [row] = await withPlatform(db, (tx) =>
    tx.select({ expiresAt: session.expiresAt }).from(session).where(eq(session.id, sessionId)),
  )
  return !!row && row.expiresAt.getTime() > Date.now()
}

export function streamAccess(db: AppDb, req: FastifyRequest): StreamAccess {
  const actor = req.actor
  const visit = supportVisitOf(req)
  const sessionId = actor?.sessionId ?? ''
  const grantId = visit?.grantId ?? null
  const expiresAt = visit ? Date.parse(visit.expiresAt) : null
  return {
    grantId,
    msLeft: () => (expiresAt === null ? null : Math.max(0, expiresAt - Date.now())),
    endsWith: (ended) => grantId !== null && ended.grantId === grantId,
    stillAllowed: async () => {
      if (!actor) return false
      try {
        if (!(await sessionAlive(db, sessionId))) return false
        return grantId === null || (await supportGrantLive(db, sessionId, grantId))
      } catch {
        return false
      }
    },
  }
}
