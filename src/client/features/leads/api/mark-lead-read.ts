import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { statsKey } from './get-stats'

/** POST /api/leads/:id/read: the lead's inbound messages count as read (the bell drops). */
export function markLeadRead(id: string): Promise<null> {
  return api.post<null>(`/api/leads/${encodeURIComponent(id)}/read`, {})
}

export function useMarkLeadRead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markLeadRead,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: statsKey }),
        queryClient.invalidateQueries({ queryKey: ['/api/messaging/unread'] }),
      ]),
  })
}
