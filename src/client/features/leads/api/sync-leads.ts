import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { MetaSyncResult } from '@/shared/schemas/meta'
import { invalidateLeads } from './invalidate'

/** POST /api/leads/sync: the server fetches the page's lead-ad leads from Meta and stores them. */
export function syncLeads(): Promise<MetaSyncResult> {
  return api.post<MetaSyncResult>('/api/leads/sync')
}

export function useSyncLeads() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: syncLeads,
    onSettled: () => invalidateLeads(queryClient),
  })
}
