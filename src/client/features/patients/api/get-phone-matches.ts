import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { PhoneMatches } from '@/shared/schemas/patients'
import { patientsRootKey } from './get-patients'

/** GET /api/patients/duplicates: the hospital's patients with this phone (excluding one). */
export function getPhoneMatches(phone: string, excludeId?: string): Promise<PhoneMatches> {
  return api.get<PhoneMatches>(`/api/patients/duplicates${toQuery({ phone, excludeId })}`)
}

export function getPhoneMatchesQueryOptions(phone: string, excludeId?: string) {
  return queryOptions({
    queryKey: [...patientsRootKey, 'duplicates', { phone, excludeId }],
    queryFn: () => getPhoneMatches(phone, excludeId),
  })
}

/** Patients sharing `phone` (E.164); nothing is asked while phone is null (not a valid number). */
export function usePhoneMatches(phone: string | null, excludeId?: string) {
  return useQuery({
    ...getPhoneMatchesQueryOptions(phone ?? '', excludeId),
    enabled: phone !== null,
  })
}
