import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { HospitalSettings } from '@/shared/schemas/hospital-settings'

/** Shared with the appointments and billing screens, which read the same settings. */
export const hospitalSettingsKey = ['/api/hospital/settings'] as const

/** GET /api/hospital/settings (any member). */
export function getHospitalSettings(): Promise<HospitalSettings> {
  return api.get<HospitalSettings>('/api/hospital/settings')
}

export function getHospitalSettingsQueryOptions() {
  return queryOptions({ queryKey: hospitalSettingsKey, queryFn: getHospitalSettings })
}

export function useHospitalSettings() {
  return useQuery(getHospitalSettingsQueryOptions())
}
