import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { SaveSettingsInput, Settings } from '@/shared/schemas/settings'
import { bookingSettingsKey } from './booking-settings'
import { hospitalSettingsKey } from './hospital-settings'

export const settingsKey = ['/api/settings'] as const

/** GET /api/settings: every section of the hospital's settings (any member). */
export function getSettings(): Promise<Settings> {
  return api.get<Settings>('/api/settings')
}

export function getSettingsQueryOptions() {
  return queryOptions({ queryKey: settingsKey, queryFn: getSettings })
}

export function useSettings() {
  return useQuery(getSettingsQueryOptions())
}

/**
 * PUT /api/settings (admins). Other screens read parts of the same records (the hospital's
 * settings for appointments and billing, the booking card), so
 * those reload too.
 */
export function useSaveSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SaveSettingsInput) => api.put<Settings>('/api/settings', input),
    onSuccess: async (saved) => {
      queryClient.setQueryData(settingsKey, saved)
      await Promise.all(
        [hospitalSettingsKey, bookingSettingsKey].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      )
    },
  })
}
