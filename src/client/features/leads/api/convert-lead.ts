import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { ConvertLeadResult } from '@/shared/schemas/leads'
import { invalidateLeads } from './invalidate'

/** POST /api/leads/:id/convert: the patient made from the lead; 409 when converted before. */
export function convertLead(id: string): Promise<ConvertLeadResult> {
  return api.post<ConvertLeadResult>(`/api/leads/${encodeURIComponent(id)}/convert`, {})
}

export function useConvertLead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: convertLead,
    // The new patient shows in the patients list too.
    onSuccess: () =>
      Promise.all([
        invalidateLeads(queryClient),
        queryClient.invalidateQueries({ queryKey: ['/api/patients'] }),
      ]),
  })
}
