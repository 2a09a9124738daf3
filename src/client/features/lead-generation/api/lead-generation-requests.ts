import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  CreateLeadGenRequestInput,
  LeadGenRequest,
  LeadGenRequestList,
} from '@/shared/schemas/lead-generation'

export const leadGenRequestsKey = ['/api/marketing-campaigns'] as const

/** GET /api/marketing-campaigns: the hospital's requests, newest first. */
export function getLeadGenRequests(): Promise<LeadGenRequestList> {
  return api.get<LeadGenRequestList>('/api/marketing-campaigns')
}

export function getLeadGenRequestsQueryOptions() {
  return queryOptions({ queryKey: leadGenRequestsKey, queryFn: getLeadGenRequests })
}

export function useLeadGenRequests(enabled: boolean) {
  return useQuery({ ...getLeadGenRequestsQueryOptions(), enabled })
}

/** POST /api/marketing-campaigns: the server computes the estimates and the one-time cost. */
export function createLeadGenRequest(input: CreateLeadGenRequestInput): Promise<LeadGenRequest> {
  return api.post<LeadGenRequest>('/api/marketing-campaigns', input)
}

export function useCreateLeadGenRequest() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createLeadGenRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leadGenRequestsKey }),
  })
}
