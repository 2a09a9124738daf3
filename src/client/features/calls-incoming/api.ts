import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  IncomingCallCard,
  RingGroup,
  SandboxIncomingInput,
} from '@/shared/schemas/calls-incoming'

/**
 * Incoming calls' API (issue 41; routes in src/shared/schemas/calls-incoming.ts): the pop-up's
 * card of a call, and the sandbox's "Simulate an incoming call".
 */

export const incomingCardKey = (id: string) => ['/api/calls/incoming', id] as const

export function useIncomingCard(id: string) {
  return useQuery({
    queryKey: incomingCardKey(id),
    queryFn: () => api.get<IncomingCallCard>(`/api/calls/incoming/${encodeURIComponent(id)}`),
  })
}

export function useSimulateIncoming() {
  return useMutation({
    mutationFn: (input: SandboxIncomingInput) =>
      api.post<IncomingCallCard>('/api/calls/sandbox/incoming', input),
  })
}

export const ringGroupKey = ['/api/calls/ring-group'] as const

export function useRingGroup() {
  return useQuery({
    queryKey: ringGroupKey,
    queryFn: () => api.get<RingGroup>('/api/calls/ring-group'),
  })
}

export function useSaveRingGroup() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userIds: string[]) => api.put<RingGroup>('/api/calls/ring-group', { userIds }),
    onSuccess: (saved) => queryClient.setQueryData(ringGroupKey, saved),
  })
}
