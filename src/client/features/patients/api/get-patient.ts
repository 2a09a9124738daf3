import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Patient } from '@/shared/schemas/patients'
import { patientsRootKey } from './get-patients'

/** GET /api/patients/:id */
export function getPatient(id: string): Promise<Patient> {
  return api.get<Patient>(`/api/patients/${encodeURIComponent(id)}`)
}

export function getPatientQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...patientsRootKey, id],
    queryFn: () => getPatient(id),
  })
}

/** One patient; `shown` (the row already on screen) is used while it loads. */
export function usePatient(id: string | null, shown?: Patient) {
  return useQuery({
    ...getPatientQueryOptions(id ?? ''),
    enabled: id !== null,
    placeholderData: shown?.id === id ? shown : undefined,
  })
}
