import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { LeadTrends } from '@/shared/schemas/leads'

/**
 * Under the leads' root key ['/api/leads'], so whatever refreshes the leads after a change
 * (invalidateLeads) refreshes the charts too.
 */
export const leadTrendsKey = ['/api/leads', 'trends'] as const

/** GET /api/leads/trends: leads per day by source (30 days) and the funnel. */
export function getLeadTrends(): Promise<LeadTrends> {
  return api.get<LeadTrends>('/api/leads/trends')
}

export function getLeadTrendsQueryOptions() {
  return queryOptions({ queryKey: leadTrendsKey, queryFn: getLeadTrends })
}

export function useLeadTrends() {
  return useQuery(getLeadTrendsQueryOptions())
}
