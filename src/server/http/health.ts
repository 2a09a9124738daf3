import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { publicRoute } from '../auth/access'
import type { AppDb } from '../db/client'
import { appliedMigrationMillis, latestMigrationMillis } from '../db/migrate'
import type { ListenState } from '../db/notify'
import { DATABASE_UNAVAILABLE_MESSAGE } from '../db/unavailable'
import { APP_VERSION } from '../../shared/version'

/** How long /readyz waits for the database before calling it unavailable. */
export const READY_TIMEOUT_MS = 2000

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error('timed out')), ms).unref()
  })
}

/** SQLSTATE of an error or of its cause (drizzle wraps query errors). */
function sqlState(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } }
  const code = typeof e.code === 'string' ? e.code : e.cause?.code
  return typeof code === 'string' ? code : undefined
}

type Migrations = 'applied' | 'pending' | 'unchecked'

/** Why /readyz says degraded while session revocations are not heard by NOTIFY. */
export const NOTIFICATIONS_DEGRADED_MESSAGE =
  'Notifications do not arrive on DATABASE_DIRECT_URL (is it PgBouncer in transaction mode?): ' +
  'sessions revoked elsewhere end here within 1 s instead of at once.'

export interface HealthDeps {
  db: AppDb
  /** The session-revocation listener's state (db/notify.ts); absent: not reported. */
  notifications?: () => ListenState
}

/**
 * For load balancers and orchestrators. /healthz: the process is alive and serving, and its
 * version (package.json).
 * /readyz: it should get traffic: the database answers, it has every migration this build
 * knows (a newer build may have applied more: still ready), and it is not shutting down.
 * Answers within READY_TIMEOUT_MS; while the database (or PgBouncer) is away it answers 503
 * and turns 200 again by itself when it is back.
 * Ready but degraded (200, `status: 'degraded'`, `notifications` naming the listener's state):
 * DATABASE_DIRECT_URL is set but notifications do not arrive on it (decision 022). The
 * instance still serves correctly, with revocations bounded by the 1 s fallback, so load
 * balancers keep it; monitoring should alert on it. Without DATABASE_DIRECT_URL (by
 * configuration) it is plainly ready.
 */
export function healthRoutes(
  app: FastifyInstance,
  { db, notifications }: HealthDeps,
): { drain: () => void } {
  let draining = false
  /** Migrations never go backwards: once seen applied, only the database is checked again. */
  let migrationsSeen = false
  /** Logged when the database goes away and when it is back, not at every probe. */
  let down = false
  const expected = latestMigrationMillis()
  const noStore = { 'cache-control': 'no-store' }

  async function migrations(): Promise<Migrations> {
    if (migrationsSeen) return 'applied'
    try {
      const applied = await appliedMigrationMillis(db)
      migrationsSeen = applied !== null && applied >= expected
      return migrationsSeen ? 'applied' : 'pending'
    } catch (error) {
      // A login role without access to the bookkeeping (DATABASE_MIGRATION_URL set-ups):
      // the owner migrated before this server started listening.
      if (sqlState(error) === '42501') return 'unchecked'
      if (sqlState(error) === '42P01') return 'pending'
      throw error
    }
  }

  app.get('/healthz', { config: publicRoute }, async (_req, reply) =>
    reply.headers(noStore).send({ status: 'ok', version: APP_VERSION }),
  )

  app.get('/readyz', { config: publicRoute }, async (req, reply) => {
    if (draining) {
      return reply.status(503).headers(noStore).send({ status: 'draining', database: 'unknown' })
    }
    let state: Migrations
    try {
      state = await Promise.race([
        db.execute(sql`select 1`).then(migrations),
        timeout(READY_TIMEOUT_MS),
      ])
    } catch (error) {
      if (!down) req.log.warn({ err: error }, 'readiness: the database is unreachable')
      down = true
      return reply.status(503).headers(noStore).send({
        status: 'unavailable',
        database: 'down',
        message: DATABASE_UNAVAILABLE_MESSAGE,
      })
    }
    if (down) req.log.info('readiness: the database is reachable again')
    down = false
    if (state === 'pending') {
      return reply.status(503).headers(noStore).send({
        status: 'unavailable',
        database: 'ok',
        migrations: 'pending',
        message: 'The database has not been migrated to this version yet.',
      })
    }
    const heard = notifications?.() ?? 'live'
    if (heard !== 'live' && heard !== 'off') {
      return reply.headers(noStore).send({
        status: 'degraded',
        database: 'ok',
        migrations: state,
        notifications: heard,
        message: NOTIFICATIONS_DEGRADED_MESSAGE,
      })
    }
    return reply.headers(noStore).send({ status: 'ready', database: 'ok', migrations: state })
  })

  return {
    drain: () => {
      draining = true
    },
  }
}
