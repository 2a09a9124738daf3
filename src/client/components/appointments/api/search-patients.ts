import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { Patient } from '@/shared/schemas/patients'

/** How many matches the patient picker lists. */
export const PICKER_LIMIT = 8

/** GET /api/patients?search=: name, email or any run of the phone's digits. */
export function searchPatients(search: string): Promise<Patient[]> {
  return api.get<Patient[]>(`/api/patients${toQuery({ search, limit: PICKER_LIMIT })}`)
}

export function usePatientSearch(search: string) {
  return useQuery(
    queryOptions({
      queryKey: ['/api/patients', 'picker', search] as const,
      queryFn: () => searchPatients(search),
      enabled: search.length >= 2,
      placeholderData: (previous) => previous,
    }),
  )
}
