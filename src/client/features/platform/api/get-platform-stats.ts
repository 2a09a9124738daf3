import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { PlatformStats } from '@/shared/schemas/platform'
import { adminKey } from './admin-key'

export function getPlatformStats(): Promise<PlatformStats> {
  return api.get<PlatformStats>('/api/admin/platform-stats')
}

export function getPlatformStatsQueryOptions() {
  return queryOptions({ queryKey: [...adminKey, 'stats'], queryFn: getPlatformStats })
}

export function usePlatformStats() {
  return useQuery(getPlatformStatsQueryOptions())
}
