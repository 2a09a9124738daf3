import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useSyncExternalStore } from 'react'
import { communicationsKey, sandboxOutboxKey, unreadKey } from './api/keys'

/** GET /api/events/messages: one server-sent event stream for every screen of the tab. */
export const MESSAGE_EVENTS_URL = '/api/events/messages'

/** A 'communication' event: a message changed status or arrived. */
export interface CommunicationEvent {
  id: string
  leadId: string | null
  patientId: string | null
  status: string
  failureReason: string | null
  direction: 'inbound' | 'outbound'
}

/**
 * What an event changes in the cache: the lead's or patient's history (and the sandbox outbox)
 * are fetched again; an 'unread' event carries the bell's count itself.
 */
export function applyMessageEvent(queryClient: QueryClient, type: string, data: string): void {
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch {
    return
  }
  if (typeof parsed !== 'object' || parsed === null) return
  if (type === 'unread') {
    const count = (parsed as { count?: unknown }).count
    if (typeof count === 'number') queryClient.setQueryData(unreadKey, { count })
    return
  }
  if (type !== 'communication') return
  const event = parsed as Partial<CommunicationEvent>
  if (typeof event.leadId === 'string')
    void queryClient.invalidateQueries({
      queryKey: communicationsKey({ kind: 'lead', id: event.leadId }),
    })
  if (typeof event.patientId === 'string')
    void queryClient.invalidateQueries({
      queryKey: communicationsKey({ kind: 'patient', id: event.patientId }),
    })
  void queryClient.invalidateQueries({ queryKey: sandboxOutboxKey })
  // An inbound reply also moves the leads list (Last Contact) and the bell.
  if (event.direction === 'inbound') {
    void queryClient.invalidateQueries({ queryKey: unreadKey })
    void queryClient.invalidateQueries({ queryKey: ['/api/stats'] })
  }
}

// One connection per tab, shared by every component that wants live messages.
let source: EventSource | null = null
let users = 0
let polling = false
const listeners = new Set<() => void>()

/** Event types another screen handles itself (live monitoring: 'activity', 'presence'). */
type StreamListener = (data: string) => void
const streamListeners = new Map<string, Set<StreamListener>>()
// The types the current connection already passes on to streamListeners.
const attached = new Set<string>()

function attach(type: string) {
  if (!source || attached.has(type)) return
  attached.add(type)
  source.addEventListener(type, (e) => {
    for (const listener of streamListeners.get(type) ?? [])
      listener((e as MessageEvent<string>).data)
  })
}

function setPolling(next: boolean) {
  if (polling === next) return
  polling = next
  for (const listener of listeners) listener()
}

function open(queryClient: QueryClient) {
  if (typeof EventSource === 'undefined') {
    setPolling(true)
    return
  }
  source = new EventSource(MESSAGE_EVENTS_URL, { withCredentials: true })
  source.onopen = () => setPolling(false)
  // The browser retries by itself; until it is back, screens poll every 10 s.
  source.onerror = () => setPolling(true)
  // The server has no live updates to give (no LISTEN): it says so and ends the stream.
  source.addEventListener('retry', () => setPolling(true))
  for (const type of ['communication', 'unread'])
    source.addEventListener(type, (e) =>
      applyMessageEvent(queryClient, type, (e as MessageEvent<string>).data),
    )
  attached.clear()
  for (const type of streamListeners.keys()) attach(type)
}

/** Keeps the shared message-event stream open while the calling component shows. */
export function useMessageEvents(): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    users += 1
    if (!source) open(queryClient)
    return () => {
      users -= 1
      if (users === 0 && source) {
        source.close()
        source = null
        attached.clear()
      }
    }
  }, [queryClient])
}

/**
 * Passes each `type` event of the shared stream (its JSON data, unparsed) to `listener` while
 * the calling component shows, and keeps the stream open meanwhile. For event types that belong
 * to another screen than messaging (live monitoring's 'activity' and 'presence').
 */
export function useStreamEvent(type: string, listener: StreamListener): void {
  useMessageEvents()
  const latest = useRef(listener)
  useEffect(() => {
    latest.current = listener
  })
  useEffect(() => {
    const forward: StreamListener = (data) => latest.current(data)
    let set = streamListeners.get(type)
    if (!set) streamListeners.set(type, (set = new Set()))
    set.add(forward)
    attach(type)
    return () => {
      set.delete(forward)
    }
  }, [type])
}

/** True while the stream is down: live screens then poll every 10 s instead. */
export function useLiveFallback(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange)
      return () => listeners.delete(onChange)
    },
    () => polling,
    () => false,
  )
}
