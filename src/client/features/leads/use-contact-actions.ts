import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import type { CreateCommunicationInput, Lead } from '@/shared/schemas/leads'
import { getActiveCall, setActiveCall } from './active-call'
import { useCreateCommunication } from './api/create-communication'
import { endLeadCall, startLeadCall } from './api/lead-calls'

/**
 * Calls and WhatsApp chats leave a record on the lead's history (and set Last Contact) when
 * the user may change leads; a viewer's tap only opens the phone or WhatsApp. A call also starts
 * Live Monitoring's call (issue 29) until 'End call' (ActiveCallBar); a new call ends the last.
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

  async function startCall(lead: Lead) {
    const previous = getActiveCall()
    if (previous) {
      setActiveCall(null)
      await endLeadCall(previous.leadId, previous.callId).catch(() => undefined)
    }
    try {
      const started = await startLeadCall(lead.id)
      setActiveCall({ leadId: lead.id, leadName: lead.name, ...started })
    } catch {
      toast.error('Error', 'The call was not recorded on Live Monitoring.')
    }
  }

  return {
    onCall: (lead: Lead) => {
      log({
        leadId: lead.id,
        type: 'call',
        direction: 'outbound',
        content: 'Outgoing call',
        status: 'logged',
      })
      if (canWrite) void startCall(lead)
    },
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
