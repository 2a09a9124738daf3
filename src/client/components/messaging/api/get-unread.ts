import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { useLiveFallback, useMessageEvents } from '../use-message-events'
import { unreadKey } from './keys'

/** GET /api/messaging/unread: inbound replies nobody has read yet (the bell). */
export function getUnread(): Promise<{ count: number }> {
  return api.get<{ count: number }>('/api/messaging/unread')
}

export function getUnreadQueryOptions() {
  return queryOptions({ queryKey: unreadKey, queryFn: getUnread })
}

/** The count, kept live by the 'unread' events (polled every 10 s while they are down). */
export function useUnread() {
  useMessageEvents()
  const polling = useLiveFallback()
  return useQuery({ ...getUnreadQueryOptions(), refetchInterval: polling ? 10_000 : false })
}
