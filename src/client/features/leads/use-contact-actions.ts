import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import type { CreateCommunicationInput, Lead } from '@/shared/schemas/leads'
import { useCreateCommunication } from './api/create-communication'

/**
 * Calls and WhatsApp chats leave a record on the lead's history (and set Last Contact) when
 * the user may change leads; a viewer's tap only opens the phone or WhatsApp.
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
    onCall: (lead: Lead) =>
      log({
        leadId: lead.id,
        type: 'call',
        direction: 'outbound',
        content: 'Outgoing call',
        status: 'logged',
      }),
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
