import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Lead } from '@/shared/schemas/leads'
import { leadsRootKey } from './get-leads'

/** GET /api/leads/:id */
export function getLead(id: string): Promise<Lead> {
  return api.get<Lead>(`/api/leads/${encodeURIComponent(id)}`)
}

export function getLeadQueryOptions(id: string) {
  return queryOptions({ queryKey: [...leadsRootKey, 'one', id], queryFn: () => getLead(id) })
}

/** One lead; `shown` (the row already on screen) is used while it loads. */
export function useLead(id: string | null, shown?: Lead) {
  return useQuery({
    ...getLeadQueryOptions(id ?? ''),
    enabled: id !== null,
    placeholderData: shown?.id === id ? shown : undefined,
  })
}
