import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { MessageChannel } from '@/shared/messaging'
import type { ConsentRecordView } from '@/shared/schemas/messaging-events'

/** The person whose consent records these are: a lead or a patient. */
export interface ConsentSubject {
  kind: 'lead' | 'patient'
  id: string
}

const subjectQuery = (who: ConsentSubject) =>
  who.kind === 'lead' ? { leadId: who.id } : { patientId: who.id }

export const consentsKey = (who: ConsentSubject) => ['/api/consents', who.kind, who.id] as const

/** GET /api/consents?leadId=|patientId=: the person's consent records, newest first. */
export function getConsents(who: ConsentSubject): Promise<ConsentRecordView[]> {
  return api.get<ConsentRecordView[]>(`/api/consents${toQuery(subjectQuery(who))}`)
}

export function getConsentsQueryOptions(who: ConsentSubject) {
  return queryOptions({ queryKey: consentsKey(who), queryFn: () => getConsents(who) })
}

export function useConsents(who: ConsentSubject) {
  return useQuery(getConsentsQueryOptions(who))
}

/** POST /api/consents with an opt-out: withdraws consent on a channel (a new, kept record). */
export function useWithdrawConsent(who: ConsentSubject) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (channel: MessageChannel) =>
      api.post<ConsentRecordView>('/api/consents', {
        ...subjectQuery(who),
        channel,
        action: 'opt_out',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: consentsKey(who) }),
  })
}
