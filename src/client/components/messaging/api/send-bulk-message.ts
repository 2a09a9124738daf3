import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { BulkMessageInput, BulkStarted } from '../types'

/** POST /api/leads/bulk/message: 202 with the batch whose progress the dialog follows. */
export function sendBulkMessage(input: BulkMessageInput): Promise<BulkStarted> {
  return api.post<BulkStarted>('/api/leads/bulk/message', input)
}

export function useSendBulkMessage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: sendBulkMessage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/leads'] }),
  })
}
