import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { CreateLeadInput, CreateLeadResult } from '@/shared/schemas/leads'
import { invalidateLeads } from './invalidate'

/** POST /api/leads: 201 with a new lead, or 200 with duplicate: true when the phone was known. */
export function createLead(input: CreateLeadInput): Promise<CreateLeadResult> {
  return api.post<CreateLeadResult>('/api/leads', input)
}

export function useCreateLead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createLead,
    onSuccess: () => invalidateLeads(queryClient),
  })
}
