import type { FastifyInstance, FastifyRequest } from 'fastify'
import { can } from '../../../shared/permissions'
import { noBody } from '../../../shared/schemas/common'
import { activitiesQuery, dailySummaryQuery } from '../../../shared/schemas/live-monitoring'
import { member, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { parse } from '../../http/parse'
import {
  dailySummary,
  type LiveActor,
  listActivities,
  onlineUsers,
  overview,
} from './live-monitoring.service'
import { createPresenceToucher, markOffline, markOnline } from './presence'

/** Paths whose own handler writes presence (the request bump leaves them alone). */
const OWN_PRESENCE = new Set(['/api/live-monitoring/heartbeat', '/api/live-monitoring/offline'])

function liveActor(db: AppDb, req: FastifyRequest): LiveActor {
  const actor = member(req)
  return {
    db,
    hospitalId: actor.hospitalId,
    userId: actor.userId,
    seesAll: can(actor.role, 'live-monitoring:read_all'),
  }
}

/** A hospital's own member in their own session (not a platform visit or an impersonation). */
function presenceOf(req: FastifyRequest): { hospitalId: string; userId: string } | null {
  const actor = req.actor
  if (!actor?.hospitalId || actor.isSuperAdmin || actor.impersonatedBy) return null
  return { hospitalId: actor.hospitalId, userId: actor.userId }
}

/** The body a heartbeat or beacon may carry: nothing (sendBeacon without data), or {}. */
function emptyBody(body: unknown) {
  parse(noBody, body === undefined || body === null || body === '' ? {} : body)
}

/**
 * Live Monitoring (issue 29, docs/decisions/040): the board, the feed, daily summaries and the
 * cards; presence (heartbeat, pagehide beacon, and any signed-in request, throttled); calls
 * from a lead. Events are pushed on GET /api/events/messages (messaging-events/hub.ts).
 */
export function liveMonitoringRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('live-monitoring:read') }
  const toucher = createPresenceToucher(db, app.log)

  // Any signed-in request is activity: presence moves at most once per 30 s per user here.
  // Awaited before the handler (after access control resolved who it is), so the write belongs
  // to that request: it never lands in the middle of a later one, and a read right after sees it.
  app.addHook('preHandler', async (req) => {
    const who = presenceOf(req)
    if (!who || req.url.startsWith('/api/logout')) return
    if (OWN_PRESENCE.has(req.url.split('?', 1)[0] ?? '')) return
    await toucher.touch(who)
  })

  app.get('/api/live-monitoring/online-users', read, async (req) => onlineUsers(liveActor(db, req)))

  app.get('/api/live-monitoring/activities', read, async (req) => {
    const { limit } = parse(activitiesQuery, req.query)
    return listActivities({ ...liveActor(db, req), limit })
  })

  app.get('/api/live-monitoring/daily-summary', read, async (req) => {
    const { date, userId } = parse(dailySummaryQuery, req.query)
    return dailySummary({ ...liveActor(db, req), date, forUserId: userId })
  })

  app.get('/api/live-monitoring/overview', read, async (req) => {
    parse(noBody, req.query)
    return overview(liveActor(db, req))
  })

  app.post('/api/live-monitoring/heartbeat', read, async (req, reply) => {
    emptyBody(req.body)
    const who = presenceOf(req)
    if (who) {
      await withTenant(db, who, (tx) => markOnline(tx, who))
      toucher.wrote(who)
    }
    return reply.status(204).send()
  })

  app.post('/api/live-monitoring/offline', read, async (req, reply) => {
    emptyBody(req.body)
    const who = presenceOf(req)
    if (who) {
      await withTenant(db, who, (tx) => markOffline(tx, who))
      // The next request of this user (a reload's first read) marks them online again at once,
      // not after the throttle: a reload must not leave them offline for 30 s.
      toucher.forget(who)
    }
    return reply.status(204).send()
  })
}
