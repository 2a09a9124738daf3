import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { BookingSettings, SaveBookingSettingsInput } from '@/shared/schemas/hospital-settings'

export const bookingSettingsKey = ['/api/settings/booking'] as const

/** GET /api/settings/booking (any member). */
export function getBookingSettings(): Promise<BookingSettings> {
  return api.get<BookingSettings>('/api/settings/booking')
}

export function getBookingSettingsQueryOptions() {
  return queryOptions({ queryKey: bookingSettingsKey, queryFn: getBookingSettings })
}

export function useBookingSettings() {
  return useQuery(getBookingSettingsQueryOptions())
}

/** PUT /api/settings/booking (admins). */
export function useSaveBookingSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SaveBookingSettingsInput) =>
      api.put<BookingSettings>('/api/settings/booking', input),
    onSuccess: (saved) => queryClient.setQueryData(bookingSettingsKey, saved),
  })
}
