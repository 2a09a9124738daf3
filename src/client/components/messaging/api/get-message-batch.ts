import { useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { MessageBatch } from '../types'

/** GET /api/message-batches/:id every second while the dialog shows it, until done. */
export function useMessageBatch(batchId: string | null) {
  return useQuery({
    queryKey: ['/api/message-batches', batchId ?? ''],
    enabled: batchId !== null,
    queryFn: () =>
      api.get<MessageBatch>(`/api/message-batches/${encodeURIComponent(batchId ?? '')}`),
    refetchInterval: (query) => (query.state.data?.done ? false : 1000),
    retry: 2,
  })
}
