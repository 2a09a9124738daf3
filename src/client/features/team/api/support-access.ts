import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  GrantSupportAccessInput,
  SupportAccessOverview,
  SupportGrant,
} from '@/shared/schemas/support-access'

export const supportAccessKey = ['/api/support-access'] as const

/** GET /api/support-access (hospital admins): grants, newest first, and what support did. */
export function getSupportAccess(): Promise<SupportAccessOverview> {
  return api.get<SupportAccessOverview>('/api/support-access')
}

export function getSupportAccessQueryOptions() {
  return queryOptions({ queryKey: supportAccessKey, queryFn: getSupportAccess })
}

export function useSupportAccess() {
  return useQuery(getSupportAccessQueryOptions())
}

function useSupportMutation<I>(fn: (input: I) => Promise<SupportGrant>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportAccessKey }),
  })
}

export function useGrantSupportAccess() {
  return useSupportMutation((input: GrantSupportAccessInput) =>
    api.post<SupportGrant>('/api/support-access', input),
  )
}

export function useRevokeSupportAccess() {
  return useSupportMutation((id: string) =>
    api.post<SupportGrant>(`/api/support-access/${id}/revoke`),
  )
}
