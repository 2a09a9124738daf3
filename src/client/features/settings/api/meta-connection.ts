import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  MetaConnectionView,
  MetaTestResult,
  SaveMetaConnectionInput,
} from '@/shared/schemas/meta'

export const metaConnectionKey = ['/api/integrations/meta'] as const

/** GET /api/integrations/meta: the page ID and, for each secret, only whether it is set. */
export function getMetaConnection(): Promise<MetaConnectionView> {
  return api.get<MetaConnectionView>('/api/integrations/meta')
}

export function getMetaConnectionQueryOptions() {
  return queryOptions({ queryKey: metaConnectionKey, queryFn: getMetaConnection })
}

export function useMetaConnection() {
  return useQuery(getMetaConnectionQueryOptions())
}

/** PUT /api/integrations/meta: absent fields stay as they are, '' clears one. */
export function useSaveMetaConnection() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SaveMetaConnectionInput) =>
      api.put<MetaConnectionView>('/api/integrations/meta', input),
    onSuccess: (saved) => queryClient.setQueryData(metaConnectionKey, saved),
  })
}

/** POST /api/integrations/meta/test: asks Meta for the page with the stored token. */
export function useTestMetaConnection() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<MetaTestResult>('/api/integrations/meta/test'),
    // A failed test may mark the connection as needing attention.
    onSettled: () => queryClient.invalidateQueries({ queryKey: metaConnectionKey }),
  })
}
