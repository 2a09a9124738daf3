import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiFetch, toQuery } from '@/client/lib/api-client'
import { NEXT_CURSOR_HEADER, PAGE_SIZE } from '@/shared/pagination'
import type { Patient, PatientSort } from '@/shared/schemas/patients'
import { TOTAL_COUNT_HEADER } from '@/shared/total-count'

/** Every patients query key starts with this: invalidating it refreshes lists, details, matches. */
export const patientsRootKey = ['/api/patients'] as const

export interface PatientsPage {
  items: Patient[]
  nextCursor: string | null
  /** Patients matching the search over all pages: on the first page only, else null. */
  total: number | null
}

/**
 * One page of GET /api/patients; the next page's cursor and the total come in headers. The
 * first page (no cursor) asks for the total: counting reads every match, so later pages,
 * which only append rows, do not.
 */
export async function getPatientsPage(params: {
  search?: string
  sort?: PatientSort
  cursor?: string | null
  limit?: number
}): Promise<PatientsPage> {
  const response = await apiFetch(
    'GET',
    `/api/patients${toQuery({
      search: params.search,
      sort: params.sort,
      cursor: params.cursor,
      limit: params.limit ?? PAGE_SIZE,
      count: params.cursor ? undefined : 1,
    })}`,
  )
  const total = Number(response.headers.get(TOTAL_COUNT_HEADER) ?? Number.NaN)
  return {
    items: (await response.json()) as Patient[],
    nextCursor: response.headers.get(NEXT_CURSOR_HEADER),
    total: Number.isFinite(total) ? total : null,
  }
}

export function getPatientsQueryOptions(search = '', sort: PatientSort = 'recent') {
  return infiniteQueryOptions({
    queryKey: [...patientsRootKey, { search, sort }],
    queryFn: ({ pageParam }) => getPatientsPage({ search, sort, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}

export function usePatients(search: string, sort: PatientSort) {
  return useInfiniteQuery(getPatientsQueryOptions(search, sort))
}
