import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Communication, CreateCommunicationInput } from '@/shared/schemas/leads'
import { invalidateLeads } from './invalidate'

/** POST /api/communications: a call or an outbound record on the lead's history. */
export function createCommunication(input: CreateCommunicationInput): Promise<Communication> {
  return api.post<Communication>('/api/communications', input)
}

export function useCreateCommunication() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createCommunication,
    // Last Contact, the history and the follow-up figures change.
    onSuccess: () => invalidateLeads(queryClient),
  })
}
