import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Stats } from '@/shared/schemas/leads'

export const statsKey = ['/api/stats'] as const

/** GET /api/stats: the dashboard figures, trends and the bell count. */
export function getStats(): Promise<Stats> {
  return api.get<Stats>('/api/stats')
}

export function getStatsQueryOptions() {
  return queryOptions({ queryKey: statsKey, queryFn: getStats })
}

export function useStats() {
  return useQuery(getStatsQueryOptions())
}
