import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { LeadGenStatus } from '@/shared/lead-generation'
import type {
  AdminLeadGenRequest,
  AdminLeadGenRequestList,
  MoveLeadGenRequestInput,
} from '@/shared/schemas/lead-generation'
import { adminKey } from './admin-key'

export type LeadGenFilter = LeadGenStatus | 'all'

/** GET /api/admin/lead-generation-requests: every hospital's requests, newest first. */
export function useAdminLeadGenRequests(status: LeadGenFilter) {
  return useQuery({
    queryKey: [...adminKey, 'lead-generation', status],
    queryFn: () =>
      api.get<AdminLeadGenRequestList>(`/api/admin/lead-generation-requests${toQuery({ status })}`),
    placeholderData: keepPreviousData,
  })
}

/** POST /api/admin/lead-generation-requests/:id/status {status, note}. */
export function useMoveLeadGenRequest() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: MoveLeadGenRequestInput }) =>
      api.post<AdminLeadGenRequest>(
        `/api/admin/lead-generation-requests/${encodeURIComponent(id)}/status`,
        input,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  })
}
