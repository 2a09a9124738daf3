import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { ContactState, Recipient } from '../types'

/** GET /api/messaging/contact-state: the WhatsApp window, opt-outs and sandbox channels. */
export function getContactState(who: Pick<Recipient, 'kind' | 'id'>): Promise<ContactState> {
  return api.get<ContactState>(
    `/api/messaging/contact-state${toQuery(who.kind === 'lead' ? { leadId: who.id } : { patientId: who.id })}`,
  )
}

export function getContactStateQueryOptions(who: Pick<Recipient, 'kind' | 'id'>) {
  return queryOptions({
    queryKey: ['/api/messaging/contact-state', who.kind, who.id],
    queryFn: () => getContactState(who),
    // The window closes with time: asked again each time the dialog opens.
    staleTime: 0,
  })
}

export function useContactState(who: Pick<Recipient, 'kind' | 'id'>) {
  return useQuery(getContactStateQueryOptions(who))
}
