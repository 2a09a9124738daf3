import type { CallEvent } from '../../../shared/schemas/calls'
import type { IncomingCallEvent } from '../../../shared/schemas/calls-incoming'
import type { CommunicationEvent } from '../../../shared/schemas/messaging-events'
import { messageEvent } from '../../../shared/schemas/messaging-events'
import type { Activity, PresenceEvent } from '../../../shared/schemas/live-monitoring'
import type { Database } from '../../db/client'
import { listen, type Listening } from '../../db/notify'
import { callNotice } from '../calls/call-notice'
import { incomingNotice } from '../calls-incoming/incoming-notice'
import { liveNotice } from '../live-monitoring/live-notice'
import { createNameCache } from '../live-monitoring/members'
import { forgetWebhookConfig } from '../messaging-webhooks/config-cache'
import { MESSAGING_CHANNEL } from '../messaging/notify'
import { supportEndedNotice } from '../support-access/support-ended'
import { unreadCount } from './unread.service'

/** What a connected screen is sent (GET /api/events/messages). */
export type HubEvent =
  | { type: 'communication'; data: CommunicationEvent }
  | { type: 'unread'; data: { count: number } }
  | { type: 'activity'; data: Activity }
  | { type: 'presence'; data: PresenceEvent }
  /** A voice call's new state (issue 41, calls/call-notice.ts). */
  | { type: 'call'; data: CallEvent }
  /** A call came in: the ring group's screens pop up (calls-incoming/incoming-notice.ts). */
  | { type: 'incoming_call'; data: IncomingCallEvent }
  | { type: 'retry' }
  /** A support grant of the hospital was revoked: streams opened under it end (issue 39). */
  | { type: 'support-ended'; grantId: string }

type Subscriber = (event: HubEvent) => void

export interface MessagingHub {
  /** Receives the hospital's events until the returned function is called. */
  subscribe: (hospitalId: string, subscriber: Subscriber) => () => void
  /** Whether notifications arrive now (else screens poll). */
  live: () => boolean
  close: () => Promise<void>
}

export interface HubOptions {
  database: Pick<Database, 'db' | 'driver'>
  directUrl?: string | undefined
  log: { warn: (obj: object, msg: string) => void; info: (msg: string) => void }
  /** Unread counts after inbound messages are coalesced over this long per hospital. */
  unreadDelayMs?: number
}

/**
 * One LISTEN on channel 'messaging' per process (db/notify.ts: PGlite in-process, PostgreSQL on
 * DATABASE_DIRECT_URL), fanned out in memory to the screens connected here, each only its own
 * hospital's events. An inbound message also sends that hospital's new unread count. The same
 * channel carries "settings changed" (config-cache.ts): this instance's cached secrets of that
 * hospital are dropped; live monitoring's `activity` and `presence` notices (issue 29) go to the
 * hospital's screens too, and "a support grant was revoked" (issue 39) ends the streams opened
 * under it. When notifications stop arriving, every screen is told to retry
 * (it polls meanwhile).
 */
export async function createMessagingHub(options: HubOptions): Promise<MessagingHub> {
  const { db } = options.database
  const subscribers = new Map<string, Set<Subscriber>>()
  const pendingUnread = new Map<string, NodeJS.Timeout>()
  const unreadDelayMs = options.unreadDelayMs ?? 100
  const nameOf = createNameCache(db)
  let live = false
  let closed = false

  function send(hospitalId: string, event: HubEvent) {
    for (const subscriber of subscribers.get(hospitalId) ?? []) subscriber(event)
  }

  function scheduleUnread(hospitalId: string) {
    if (pendingUnread.has(hospitalId) || !subscribers.has(hospitalId)) return
    const timer = setTimeout(() => {
      pendingUnread.delete(hospitalId)
      if (closed || !subscribers.has(hospitalId)) return
      unreadCount(db, hospitalId).then(
        (count) => send(hospitalId, { type: 'unread', data: { count } }),
        (error: unknown) => options.log.warn({ err: error }, 'messaging: unread count failed'),
      )
    }, unreadDelayMs)
    timer.unref()
    pendingUnread.set(hospitalId, timer)
  }

  function onNotify(payload: string) {
    let json: unknown
    try {
      json = JSON.parse(payload)
    } catch {
      return
    }
    const settings = json as { kind?: unknown; hospitalId?: unknown }
    if (settings.kind === 'settings' && typeof settings.hospitalId === 'string') {
      forgetWebhookConfig(db, settings.hospitalId)
      return
    }
    // A support grant revoked (issue 39): the streams opened under it end, on every instance.
    const ended = supportEndedNotice(json)
    if (ended) {
      send(ended.hospitalId, { type: 'support-ended', grantId: ended.grantId })
      return
    }
    // Voice calls (issue 41): a call's new state.
    const call = callNotice(json)
    if (call) {
      send(call.hospitalId, { type: 'call', data: call.call })
      return
    }
    const incoming = incomingNotice(json)
    if (incoming) {
      send(incoming.hospitalId, { type: 'incoming_call', data: incoming.call })
      return
    }
    // Live monitoring (issue 29): activities (named here) and presence changes.
    const live = liveNotice(json)
    if (live) {
      const { hospitalId } = live
      if (!subscribers.has(hospitalId)) return
      if (live.kind === 'presence') {
        send(hospitalId, { type: 'presence', data: live.presence })
        return
      }
      nameOf(hospitalId, live.activity.userId).then(
        (userName) => send(hospitalId, { type: 'activity', data: { ...live.activity, userName } }),
        (error: unknown) => options.log.warn({ err: error }, 'live monitoring: no name'),
      )
      return
    }
    const parsed = messageEvent.safeParse(json)
    if (!parsed.success) return
    const { hospitalId, ...data } = parsed.data
    send(hospitalId, { type: 'communication', data })
    if (data.direction === 'inbound') scheduleUnread(hospitalId)
  }

  const listening: Listening = await listen({
    database: options.database,
    directUrl: options.directUrl,
    channel: MESSAGING_CHANNEL,
    log: options.log,
    onNotify,
    onLive: (now) => {
      const was = live
      live = now
      if (was && !now)
        for (const hospitalId of subscribers.keys()) send(hospitalId, { type: 'retry' })
    },
  })

  return {
    subscribe(hospitalId, subscriber) {
      let set = subscribers.get(hospitalId)
      if (!set) subscribers.set(hospitalId, (set = new Set()))
      set.add(subscriber)
      return () => {
        set.delete(subscriber)
        if (!set.size && subscribers.get(hospitalId) === set) subscribers.delete(hospitalId)
      }
    },
    live: () => live && !closed,
    close: async () => {
      closed = true
      for (const timer of pendingUnread.values()) clearTimeout(timer)
      pendingUnread.clear()
      await listening.close()
    },
  }
}
