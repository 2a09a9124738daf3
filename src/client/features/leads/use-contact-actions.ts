import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import type { CreateCommunicationInput, Lead } from '@/shared/schemas/leads'
import { useCreateCommunication } from './api/create-communication'

/**
 * A WhatsApp chat opened from a lead leaves a record on the lead's history (and sets Last
 * Contact) when the user may change leads; a viewer's tap only opens WhatsApp. Calls are placed
 * through POST /api/calls (features/calls: CallButton), which records them itself.
 */
export function useContactActions() {
  const canWrite = useCan('leads:write')
  const record = useCreateCommunication()

  function log(input: CreateCommunicationInput) {
    if (!canWrite) return
    record.mutate(input, {
      onError: () => toast.error('Error', 'The contact was not recorded on the lead.'),
    })
  }

  return {
    onWhatsApp: (lead: Lead) =>
      log({
        leadId: lead.id,
        type: 'whatsapp',
        direction: 'outbound',
        content: 'Opened WhatsApp chat',
        status: 'logged',
      }),
  }
}
