import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { StorageUsage } from '@/shared/schemas/storage'

/** GET /api/storage/usage (every member): the hospital's disk quota and what uses it. */
export function getStorageUsage(): Promise<StorageUsage> {
  return api.get<StorageUsage>('/api/storage/usage')
}

export function getStorageUsageQueryOptions() {
  return queryOptions({ queryKey: ['/api/storage/usage'] as const, queryFn: getStorageUsage })
}

export function useStorageUsage() {
  return useQuery(getStorageUsageQueryOptions())
}
