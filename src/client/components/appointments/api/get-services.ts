import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'

/** What the booking dialog reads of the service catalogue (GET /api/services). */
export interface BookableService {
  id: string
  name: string
  durationMinutes: number | null
  bookable: boolean
  active: boolean
}

export async function getServices(): Promise<BookableService[]> {
  return api.get<BookableService[]>('/api/services')
}

export function getServicesQueryOptions() {
  return queryOptions({ queryKey: ['/api/services'] as const, queryFn: getServices })
}

/** The active, bookable services, by name (the dialog's suggestions). */
export function useBookableServices(enabled = true) {
  return useQuery({
    ...getServicesQueryOptions(),
    enabled,
    select: (services) =>
      services
        .filter((s) => s.active && s.bookable)
        .sort((a, b) => a.name.localeCompare(b.name, 'en-IN')),
  })
}
