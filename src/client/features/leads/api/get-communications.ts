import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Communication } from '@/shared/schemas/leads'
import { leadsRootKey } from './get-leads'

/** GET /api/leads/:id/communications: the lead's history, newest first. */
export async function getCommunications(leadId: string): Promise<Communication[]> {
  const list = await api.get<Communication[]>(
    `/api/leads/${encodeURIComponent(leadId)}/communications`,
  )
  return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

export function getCommunicationsQueryOptions(leadId: string) {
  return queryOptions({
    queryKey: [...leadsRootKey, 'communications', leadId],
    queryFn: () => getCommunications(leadId),
  })
}

export function useCommunications(leadId: string) {
  return useQuery(getCommunicationsQueryOptions(leadId))
}
