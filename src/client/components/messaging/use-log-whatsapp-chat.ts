import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { communicationsKey } from './api/keys'
import type { Recipient } from './types'

/**
 * A chat opened in the person's own WhatsApp leaves a record ('logged', not a send) on a lead's
 * history, when the user may change leads (records are kept on leads only).
 */
export function useLogWhatsAppChat(): (to: Recipient) => void {
  const canLeads = useCan('leads:write')
  const queryClient = useQueryClient()
  const record = useMutation({
    mutationFn: (to: Recipient) =>
      api.post('/api/communications', {
        leadId: to.id,
        type: 'whatsapp',
        direction: 'outbound',
        content: 'Opened WhatsApp chat',
        status: 'logged',
      }),
    onSuccess: (_r, to) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: communicationsKey(to) }),
        queryClient.invalidateQueries({ queryKey: ['/api/leads'] }),
      ]),
    onError: () => toast.error('Error', 'The contact was not recorded.'),
  })
  return (to) => {
    if (to.kind === 'lead' && canLeads) record.mutate(to)
  }
}
