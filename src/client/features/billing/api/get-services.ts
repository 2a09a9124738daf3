import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { CatalogueService } from '@/shared/schemas/billing'

export const servicesKey = ['/api/services'] as const

/** GET /api/services: the hospital's catalogue, by name (active and inactive). */
export function getServicesQueryOptions() {
  return queryOptions({
    queryKey: servicesKey,
    queryFn: () => api.get<CatalogueService[]>('/api/services'),
  })
}

export function useServices() {
  return useQuery(getServicesQueryOptions())
}
