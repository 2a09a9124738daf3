import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiFetch, toQuery } from '@/client/lib/api-client'
import { NEXT_CURSOR_HEADER } from '@/shared/schemas/common'
import type { Patient } from '@/shared/schemas/patients'

export const PATIENTS_PAGE_SIZE = 30

export interface PatientsPage {
  items: Patient[]
  nextCursor: string | null
}

/** One page of GET /api/patients; the next page's cursor comes in a response header. */
export async function getPatientsPage(params: {
  search?: string
  cursor?: string | null
  limit?: number
}): Promise<PatientsPage> {
  const response = await apiFetch(
    'GET',
    `/api/patients${toQuery({ search: params.search, cursor: params.cursor, limit: params.limit ?? PATIENTS_PAGE_SIZE })}`,
  )
  return {
    items: (await response.json()) as Patient[],
    nextCursor: response.headers.get(NEXT_CURSOR_HEADER),
  }
}

export function getPatientsQueryOptions(search = '') {
  return infiniteQueryOptions({
    queryKey: ['/api/patients', { search }],
    queryFn: ({ pageParam }) => getPatientsPage({ search, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}

export function usePatients(search: string) {
  return useInfiniteQuery(getPatientsQueryOptions(search))
}
