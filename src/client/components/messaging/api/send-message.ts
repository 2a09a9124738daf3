import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { MessageChannel } from '@/shared/messaging'
import type { Communication } from '@/shared/schemas/leads'
import type { Recipient } from '../types'
import { communicationsKey, sandboxOutboxKey } from './keys'

export interface SendMessageInput {
  to: Pick<Recipient, 'kind' | 'id'>
  type: MessageChannel
  content: string
  subject?: string
  templateId?: string
  /** The template's name for the record (spec: metadata holds the template name). */
  templateName?: string
}

/** The body of POST /api/communications for a real send (the server writes it queued). */
export function sendMessageBody(input: SendMessageInput): Record<string, unknown> {
  const subject = input.type === 'email' ? input.subject?.trim() : undefined
  const metadata: Record<string, string> = {}
  if (input.templateName) metadata.template = input.templateName
  // Spec §5: the email subject goes along only when non-empty.
  if (subject) metadata.subject = subject
  return {
    ...(input.to.kind === 'lead' ? { leadId: input.to.id } : { patientId: input.to.id }),
    type: input.type,
    direction: 'outbound',
    // Spec §7: the dialog sends status 'sent'; any status but 'logged' makes the server queue a
    // real send and decide the status itself.
    status: 'sent',
    content: input.content,
    metadata,
    ...(subject ? { subject } : {}),
    ...(input.templateId ? { templateId: input.templateId } : {}),
  }
}

/** POST /api/communications: answers 201 with the queued message. */
export function sendMessage(input: SendMessageInput): Promise<Communication> {
  return api.post<Communication>('/api/communications', sendMessageBody(input))
}

export function useSendMessage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: sendMessage,
    onSuccess: (_sent, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: communicationsKey(input.to) }),
        // Last Contact and the figures change on the leads screen.
        queryClient.invalidateQueries({ queryKey: ['/api/leads'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/stats'] }),
        queryClient.invalidateQueries({ queryKey: sandboxOutboxKey }),
      ]),
  })
}
