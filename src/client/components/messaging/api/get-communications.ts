import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Communication } from '@/shared/schemas/leads'
import type { Recipient } from '../types'
import { useLiveFallback } from '../use-message-events'
import { communicationsKey } from './keys'

/** GET /api/leads/:id/communications or /api/patients/:id/communications, newest first. */
export async function getCommunications(
  who: Pick<Recipient, 'kind' | 'id'>,
): Promise<Communication[]> {
  const base = who.kind === 'lead' ? '/api/leads' : '/api/patients'
  const list = await api.get<Communication[]>(
    `${base}/${encodeURIComponent(who.id)}/communications`,
  )
  return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

export function getCommunicationsQueryOptions(who: Pick<Recipient, 'kind' | 'id'>) {
  return queryOptions({
    queryKey: communicationsKey(who),
    queryFn: () => getCommunications(who),
  })
}

/** The history; live through the message events, polled every 10 s when they are down. */
export function useCommunications(who: Pick<Recipient, 'kind' | 'id'>) {
  const polling = useLiveFallback()
  return useQuery({
    ...getCommunicationsQueryOptions(who),
    refetchInterval: polling ? 10_000 : false,
  })
}
