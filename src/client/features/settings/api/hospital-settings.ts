import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  HospitalSettings,
  HospitalSettingsFormOutput,
} from '@/shared/schemas/hospital-settings'
import { bookingSettingsKey } from './booking-settings'

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

/** PATCH /api/hospital/settings (admins). The booking card shows the link, so it reloads too. */
export function useUpdateHospitalSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: Partial<HospitalSettingsFormOutput>) =>
      api.patch<HospitalSettings>('/api/hospital/settings', input),
    onSuccess: async (saved) => {
      queryClient.setQueryData(hospitalSettingsKey, saved)
      await queryClient.invalidateQueries({ queryKey: bookingSettingsKey })
    },
  })
}
