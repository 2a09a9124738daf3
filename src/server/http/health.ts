import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { publicRoute } from '../auth/access'
import type { AppDb } from '../db/client'

/** How long /readyz waits for the database before calling it unavailable. */
export const READY_TIMEOUT_MS = 2000

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error('timed out')), ms).unref()
  })
}

/**
 * For load balancers and orchestrators. /healthz: the process is alive and serving.
 * /readyz: it should get traffic: the database answers (migrations ran before the server
 * started listening) and it is not shutting down.
 */
export function healthRoutes(app: FastifyInstance, { db }: { db: AppDb }): { drain: () => void } {
  let draining = false
  const noStore = { 'cache-control': 'no-store' }

  app.get('/healthz', { config: publicRoute }, async (_req, reply) =>
    reply.headers(noStore).send({ status: 'ok' }),
  )

  app.get('/readyz', { config: publicRoute }, async (_req, reply) => {
    if (draining) {
      return reply.status(503).headers(noStore).send({ status: 'draining', database: 'unknown' })
    }
    try {
      await Promise.race([db.execute(sql`select 1`), timeout(READY_TIMEOUT_MS)])
      return reply.headers(noStore).send({ status: 'ready', database: 'ok', migrations: 'applied' })
    } catch {
      return reply.status(503).headers(noStore).send({ status: 'unavailable', database: 'down' })
    }
  })

  return {
    drain: () => {
      draining = true
    },
  }
}
