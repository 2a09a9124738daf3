import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Stats } from '@/shared/schemas/leads'

/**
 * GET /api/stats for the home page's four cards. The same key as the leads screens' stats,
 * so both read one cache entry and a change to leads refreshes both.
 */
export function getStats(): Promise<Stats> {
  return api.get<Stats>('/api/stats')
}

export function getStatsQueryOptions() {
  return queryOptions({ queryKey: ['/api/stats'] as const, queryFn: getStats })
}

export function useStats() {
  return useQuery(getStatsQueryOptions())
}
