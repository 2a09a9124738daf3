import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import { PAGE_SIZE } from '@/shared/pagination'
import type { LeadSource, LeadsPage, LeadStatus } from '@/shared/schemas/leads'

/** Every leads query key starts with this: invalidating it refreshes lists, leads and histories. */
export const leadsRootKey = ['/api/leads'] as const

/** The table's filters; 'all' means no filter and is not sent (spec section 5). */
export interface LeadFilters {
  status: LeadStatus | 'all'
  source: LeadSource | 'all'
  search: string
}

/** GET /api/leads: the spec's { leads } object with the next page's cursor. */
export function getLeadsPage(
  filters: Partial<LeadFilters> & { cursor?: string | null; limit?: number },
): Promise<LeadsPage> {
  return api.get<LeadsPage>(
    `/api/leads${toQuery({
      status: filters.status,
      source: filters.source,
      search: filters.search?.trim(),
      cursor: filters.cursor,
      limit: filters.limit ?? PAGE_SIZE,
    })}`,
  )
}

export function getLeadsQueryOptions(filters: LeadFilters) {
  return infiniteQueryOptions({
    queryKey: [...leadsRootKey, 'list', filters],
    queryFn: ({ pageParam }) => getLeadsPage({ ...filters, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}

export function useLeads(filters: LeadFilters) {
  return useInfiniteQuery(getLeadsQueryOptions(filters))
}
