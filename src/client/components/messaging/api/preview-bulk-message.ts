import { useMutation } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { BulkMessageInput, BulkPreview } from '../types'

/** POST /api/leads/bulk/message/preview: who would receive it and who is skipped, and why. */
export function previewBulkMessage(input: BulkMessageInput): Promise<BulkPreview> {
  return api.post<BulkPreview>('/api/leads/bulk/message/preview', input)
}

export function usePreviewBulkMessage() {
  return useMutation({ mutationFn: previewBulkMessage })
}
