import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  SaveVoiceSettingsInput,
  VoiceSettingsView,
  VoiceTestCallResult,
} from '@/shared/schemas/voice-settings'

export const voiceSettingsKey = ['/api/settings/voice'] as const

/** GET /api/settings/voice: provider, hours, recording; the account and URLs for admins only. */
export function getVoiceSettings(): Promise<VoiceSettingsView> {
  return api.get<VoiceSettingsView>('/api/settings/voice')
}

export function getVoiceSettingsQueryOptions() {
  return queryOptions({ queryKey: voiceSettingsKey, queryFn: getVoiceSettings })
}

export function useVoiceSettings() {
  return useQuery(getVoiceSettingsQueryOptions())
}

/** PUT /api/settings/voice (admins): a blank secret keeps the stored one. */
export function useSaveVoiceSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SaveVoiceSettingsInput) =>
      api.put<VoiceSettingsView>('/api/settings/voice', input),
    onSuccess: (saved) => queryClient.setQueryData(voiceSettingsKey, saved),
  })
}

/** POST /api/settings/voice/test-call (admins): rings the typed number through the provider. */
export function useVoiceTestCall() {
  return useMutation({
    mutationFn: (input: { phone: string }) =>
      api.post<VoiceTestCallResult>('/api/settings/voice/test-call', input),
  })
}
