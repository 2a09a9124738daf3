import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Lead, LeadsPage } from '@/shared/schemas/leads'

/** Dashboard lists show 5 items (spec section 9). */
export const RECENT_COUNT = 5

/** The newest leads, for the home page's Recent Leads tab. */
export async function getRecentLeads(): Promise<Lead[]> {
  return (await api.get<LeadsPage>(`/api/leads?limit=${RECENT_COUNT}`)).leads
}

export function getRecentLeadsQueryOptions() {
  return queryOptions({
    // Under the leads key, so any change to leads refreshes it.
    queryKey: ['/api/leads', 'recent'] as const,
    queryFn: getRecentLeads,
  })
}

export function useRecentLeads() {
  return useQuery(getRecentLeadsQueryOptions())
}
