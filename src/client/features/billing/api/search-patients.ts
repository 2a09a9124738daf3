import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { Patient } from '@/shared/schemas/patients'

/** How many matches the picker lists. */
export const PICKER_LIMIT = 8

/** GET /api/patients?search= (name, email or phone digits), the first few matches. */
export function searchPatientsQueryOptions(search: string) {
  return queryOptions({
    queryKey: ['/api/patients', 'billing-picker', search],
    queryFn: () =>
      api.get<Patient[]>(`/api/patients${toQuery({ search, sort: 'name', limit: PICKER_LIMIT })}`),
  })
}

/** Runs once two characters are typed; the previous matches stay while the next load. */
export function usePatientSearch(search: string) {
  return useQuery({
    ...searchPatientsQueryOptions(search),
    enabled: search.length >= 2,
    placeholderData: keepPreviousData,
  })
}
