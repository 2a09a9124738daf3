import { toast as sonner } from 'sonner'
import { useLocation } from 'wouter'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { paths } from '@/client/paths'
import { useStartCall } from './api/calls'
import { type CallContact, showCall } from './current-call'

/** Where a staff member sets and verifies the phone calls ring first. */
export const MY_PHONE_HREF = `${paths.settings}?tab=security`

/** The server's refusal for a staff member without a verified phone names "My phone". */
export function isMissingStaffPhone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && /my phone/i.test(error.body)
}

/**
 * Click-to-call (issue 41): POST /api/calls for a lead or patient, then the live call bar
 * follows the call. Staff without calls:make (viewers) get no Call button; a refusal shows the
 * server's words, and "no verified phone" also says where to set it and links there.
 */
export function usePlaceCall() {
  const canCall = useCan('calls:make')
  const start = useStartCall()
  const [, navigate] = useLocation()

  async function place(contact: CallContact) {
    try {
      const call = await start.mutateAsync(
        contact.kind === 'lead' ? { leadId: contact.id } : { patientId: contact.id },
      )
      showCall({ callId: call.id, contact })
    } catch (error) {
      if (isMissingStaffPhone(error)) {
        sonner.error('Set up your phone for calls', {
          description: `${(error as ApiError).jsonMessage ?? ''} Go to Settings → Security → "My phone for calls".`,
          action: { label: 'Open My phone', onClick: () => navigate(MY_PHONE_HREF) },
          duration: 15_000,
        })
        return
      }
      toast.failed('Call not placed', error, 'The call could not be placed. Please try again.')
    }
  }

  return { canCall, place, placing: start.isPending }
}
