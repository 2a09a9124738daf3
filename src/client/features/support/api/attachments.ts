import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ApiError, api } from '@/client/lib/api-client'
import type { TicketAttachment } from '@/shared/schemas/support-tickets'
import { ticketsRootKey } from './support-tickets'

/**
 * POST /api/support-tickets/:id/attachments: the file itself as the body (streamed by the
 * browser, never read into memory here), its name URI-encoded in X-Filename.
 */
export async function uploadAttachment(ticketId: string, file: File): Promise<TicketAttachment> {
  const response = await fetch(`/api/support-tickets/${encodeURIComponent(ticketId)}/attachments`, {
    method: 'POST',
    credentials: 'include',
    headers: {
      'Content-Type': 'application/octet-stream',
      'X-Filename': encodeURIComponent(file.name),
    },
    body: file,
  })
  const text = await response.text()
  if (!response.ok) throw new ApiError(response.status, response.statusText, text)
  return JSON.parse(text) as TicketAttachment
}

/** DELETE /api/support-tickets/:id/attachments/:attachmentId (the uploader, ticket open). */
export function useRemoveAttachment(ticketId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (attachmentId: string) =>
      api.delete<null>(
        `/api/support-tickets/${encodeURIComponent(ticketId)}/attachments/${encodeURIComponent(attachmentId)}`,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsRootKey }),
  })
}
