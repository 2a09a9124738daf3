import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Preferences, SavePreferencesInput } from '@/shared/schemas/preferences'
import { cachedAppearance } from '../apply-appearance'

export const preferencesKey = ['/api/me/preferences'] as const

/** GET /api/me/preferences: the signed-in user's own. */
export function getPreferences(): Promise<Preferences> {
  return api.get<Preferences>('/api/me/preferences')
}

export function getPreferencesQueryOptions() {
  return queryOptions({
    queryKey: preferencesKey,
    queryFn: getPreferences,
    // What this browser cached shows until the server answers (never saved from here).
    placeholderData: cachedAppearance,
  })
}

export function usePreferences() {
  return useQuery(getPreferencesQueryOptions())
}

/**
 * PUT /api/me/preferences. The change shows at once (optimistic); a refusal puts the previous
 * preferences back.
 */
export function useSavePreferences() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SavePreferencesInput) => api.put<Preferences>('/api/me/preferences', input),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: preferencesKey })
      const previous = queryClient.getQueryData<Preferences>(preferencesKey)
      queryClient.setQueryData(preferencesKey, input)
      return { previous }
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(preferencesKey, context.previous)
    },
    onSuccess: (saved) => queryClient.setQueryData(preferencesKey, saved),
  })
}
