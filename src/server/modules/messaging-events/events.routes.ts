import type { FastifyInstance } from 'fastify'
import { authed, member, requirePermission } from '../../auth/access'
import { streamAccess } from '../../auth/stream-access'
import type { AppDb } from '../../db/client'
import type { HubEvent, MessagingHub } from './hub'
import { patientReadRoutes } from './patient-read'
import { unreadCount } from './unread.service'

export interface MessagingEventsDeps {
  db: AppDb
  hub: MessagingHub
}

/**
 * Stream timings, read when a stream opens (tests shorten them): a comment line every
 * heartbeat keeps proxies from closing the stream and re-checks its access (the session, and a
 * support visit's grant: auth/stream-access.ts).
 */
export const streamTiming = { heartbeatMs: 25_000, maxStreamMs: 60 * 60_000 }

/** How long screens wait between polls while live updates are unavailable. */
export const POLL_MS = 15_000
const MAX_BUFFERED = 1024 * 1024

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

/**
 * GET /api/events/messages: server-sent events for the signed-in member's hospital only:
 * `communication` (a message's new status, or an inbound one), `unread` ({ count }, first on
 * connecting and after inbound messages). A comment every 25 s; the stream ends when the session
 * is signed out or times out (checked then), when a support visit's grant is revoked (at once,
 * by NOTIFY on every instance; else at the next heartbeat) or expires, after an hour, or at
 * once with a `retry` event when live updates are not available (no LISTEN): the screen polls
 * instead.
 * GET /api/messaging/unread: the bell's count; POST /api/patients/:id/read (patient-read.ts).
 */
export function messagingEventsRoutes(app: FastifyInstance, deps: MessagingEventsDeps): void {
  const { db, hub } = deps
  patientReadRoutes(app, { db })

  app.get('/api/messaging/unread', { config: requirePermission('leads:read') }, async (req) => ({
    count: await unreadCount(db, member(req).hospitalId),
  }))

  app.get('/api/events/messages', { config: authed }, async (req, reply) => {
    const actor = member(req)
    const access = streamAccess(db, req)
    const count = await unreadCount(db, actor.hospitalId)
    void reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    if (!hub.live()) {
      res.end(`retry: ${POLL_MS * 2}\n${frame('retry', { pollMs: POLL_MS })}`)
      return
    }
    res.write(`retry: 5000\n${frame('unread', { count })}`)
    let ended = false
    const end = () => {
      if (ended) return
      ended = true
      unsubscribe()
      clearInterval(heartbeat)
      clearTimeout(lifetime)
      clearTimeout(grantEnds)
      res.end()
    }
    const write = (text: string) => {
      if (ended) return
      if (res.writableLength > MAX_BUFFERED) return end()
      res.write(text)
    }
    const unsubscribe = hub.subscribe(actor.hospitalId, (event: HubEvent) => {
      if (event.type === 'support-ended') {
        if (access.endsWith(event)) end()
      } else if (event.type === 'retry') {
        write(frame('retry', { pollMs: POLL_MS }))
        end()
      } else write(frame(event.type, event.data))
    })
    const heartbeat = setInterval(() => {
      write(': ping\n\n')
      access.stillAllowed().then(
        (alive) => {
          if (!alive) end()
        },
        () => end(),
      )
    }, streamTiming.heartbeatMs)
    heartbeat.unref()
    // At most an hour: the browser reconnects, its session checked again.
    const lifetime = setTimeout(end, streamTiming.maxStreamMs)
    lifetime.unref()
    // A support visit's stream ends when its grant expires.
    const left = access.msLeft()
    const grantEnds = left === null ? undefined : setTimeout(end, Math.min(left, 2 ** 31 - 1))
    grantEnds?.unref()
    req.raw.on('close', end)
    res.on('close', end)
  })
}
