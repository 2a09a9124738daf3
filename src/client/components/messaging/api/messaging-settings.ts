import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { MessagingSettings, SaveMessagingSettings } from '../types'

export const messagingSettingsKey = ['/api/settings/messaging'] as const

/** GET /api/settings/messaging: providers, non-secret settings, and only hints of secrets. */
export function getMessagingSettings(): Promise<MessagingSettings> {
  return api.get<MessagingSettings>('/api/settings/messaging')
}

export function getMessagingSettingsQueryOptions() {
  return queryOptions({ queryKey: messagingSettingsKey, queryFn: getMessagingSettings })
}

export function useMessagingSettings() {
  return useQuery(getMessagingSettingsQueryOptions())
}

/** PUT /api/settings/messaging (admin): secrets typed anew replace the stored ones. */
export function useSaveMessagingSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SaveMessagingSettings) =>
      api.put<MessagingSettings>('/api/settings/messaging', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagingSettingsKey }),
  })
}
