import { type QueryKey, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useStreamEvent } from '@/client/components/messaging/use-message-events'
import type { OnlineUsersResponse } from '@/shared/schemas/live-monitoring'
import { liveMonitoringKey } from './api/live-monitoring'
import { applyActivity, applyPresence, parseActivity, parsePresence } from './apply-live-event'

/** Reads that several events in a burst ask for are fetched once, this long after the first. */
const COALESCE_MS = 300

/**
 * Keeps the screen's reads live from the shared event stream (GET /api/events/messages):
 * `activity` and `presence` events change the cached answers at once, and what only the
 * server can count is fetched again. When the stream comes back after a drop, everything is
 * fetched again (events sent meanwhile were missed).
 */
export function useLiveEvents(streamDown: boolean): void {
  const queryClient = useQueryClient()
  const pending = useRef(new Map<string, QueryKey>())
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  function refetch(keys: QueryKey[]) {
    for (const key of keys) pending.current.set(JSON.stringify(key), key)
    if (timer.current || pending.current.size === 0) return
    timer.current = setTimeout(() => {
      timer.current = null
      const keys = [...pending.current.values()]
      pending.current.clear()
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
    }, COALESCE_MS)
  }

  useStreamEvent('activity', (data) => {
    const event = parseActivity(data)
    if (event) refetch(applyActivity(queryClient, event))
  })
  useStreamEvent('presence', (data) => {
    const event = parsePresence(data)
    if (event) refetch(applyPresence(queryClient, event))
  })

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    [],
  )

  const wasDown = useRef(streamDown)
  useEffect(() => {
    if (wasDown.current && !streamDown)
      void queryClient.invalidateQueries({ queryKey: liveMonitoringKey })
    wasDown.current = streamDown
  }, [streamDown, queryClient])
}

/**
 * The one watching is online: their tab sent a heartbeat as the shell opened. The board the page
 * read first may predate it (it was preloaded with the HTML, and the last page's pagehide beacon
 * said offline), and the stream may open only after the heartbeat's presence event went by; so
 * the screen applies that event itself, once, rather than showing its own user offline until
 * the next poll.
 */
export function useSelfOnline(userId: string | undefined, board: OnlineUsersResponse | undefined) {
  const queryClient = useQueryClient()
  const done = useRef(false)
  useEffect(() => {
    if (done.current || !userId || !board) return
    done.current = true
    const self = board.users.find((u) => u.userId === userId)
    if (!self || self.isOnline) return
    applyPresence(queryClient, { userId, isOnline: true, lastActivity: new Date().toISOString() })
  }, [userId, board, queryClient])
}
