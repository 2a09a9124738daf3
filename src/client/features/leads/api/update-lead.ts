import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Lead, UpdateLeadInput } from '@/shared/schemas/leads'
import { invalidateLeads } from './invalidate'

/** PATCH /api/leads/:id with the fields that change. */
export function updateLead({ id, input }: { id: string; input: UpdateLeadInput }): Promise<Lead> {
  return api.patch<Lead>(`/api/leads/${encodeURIComponent(id)}`, input)
}

export function useUpdateLead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateLead,
    onSuccess: () => invalidateLeads(queryClient),
  })
}

/** Bulk actions: one PATCH per lead; reports how many succeeded and failed. */
export function useUpdateLeads() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ ids, input }: { ids: string[]; input: UpdateLeadInput }) => {
      const results = await Promise.allSettled(ids.map((id) => updateLead({ id, input })))
      const failed = results.filter((r) => r.status === 'rejected').length
      return { updated: results.length - failed, failed }
    },
    onSettled: () => invalidateLeads(queryClient),
  })
}
