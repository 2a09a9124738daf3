import {
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import { communicationsKey } from '@/client/components/messaging/api/keys'
import type { Call, DispositionInput, StartCallInput } from '@/shared/schemas/calls'

/**
 * The calls API (issue 41; routes in src/shared/schemas/calls.ts): place a call, read one or a
 * contact's list, choose a disposition, and the staff member's own phone for calls.
 */

export const callsRootKey = ['/api/calls'] as const
export const callKey = (id: string) => [...callsRootKey, 'one', id] as const
export const callsListKey = (filter: CallsFilter) => [...callsRootKey, 'list', filter] as const
export const myPhoneKey = [...callsRootKey, 'my-phone'] as const

export interface CallsFilter {
  leadId?: string | undefined
  patientId?: string | undefined
}

/** What a disposition posts: the call-back time as an ISO instant with its offset. */
export type DispositionBody = Omit<DispositionInput, 'callBackAt'> & { callBackAt?: string | null }

export interface MyPhone {
  phone: string | null
  verified: boolean
  verifiedAt: string | null
}

/** POST /api/calls: 201 the call, queued; the server rings the staff phone, then the contact. */
export function startCall(input: StartCallInput): Promise<Call> {
  return api.post<Call>('/api/calls', input)
}

export function getCall(id: string): Promise<Call> {
  return api.get<Call>(`/api/calls/${encodeURIComponent(id)}`)
}

export function listCalls(filter: CallsFilter): Promise<{ calls: Call[] }> {
  return api.get<{ calls: Call[] }>(
    `/api/calls${toQuery({ leadId: filter.leadId, patientId: filter.patientId })}`,
  )
}

export function postDisposition(id: string, body: DispositionBody): Promise<Call> {
  return api.post<Call>(`/api/calls/${encodeURIComponent(id)}/disposition`, body)
}

export function getMyPhone(): Promise<MyPhone> {
  return api.get<MyPhone>('/api/calls/my-phone')
}

export function callQueryOptions(id: string) {
  return queryOptions({ queryKey: callKey(id), queryFn: () => getCall(id) })
}

const LIVE = new Set(['queued', 'ringing', 'in-progress'])

/**
 * One call, fetched again every `pollMs` while it is still live (the realtime events refetch it
 * at once; polling is the fallback while the stream is down) and no more once it has ended.
 */
export function useCall(id: string, pollMs: number) {
  return useQuery({
    ...callQueryOptions(id),
    refetchInterval: (query) => {
      const status = query.state.data?.status
      return status === undefined || LIVE.has(status) ? pollMs : false
    },
  })
}

/** A lead's or patient's calls, newest first. */
export function useCalls(filter: CallsFilter, enabled = true) {
  return useQuery({
    queryKey: callsListKey(filter),
    queryFn: () => listCalls(filter),
    enabled: enabled && Boolean(filter.leadId || filter.patientId),
  })
}

export function useMyPhone(enabled = true) {
  return useQuery({ queryKey: myPhoneKey, queryFn: getMyPhone, enabled })
}

/** After a call changes: its record, the contact's calls and history, and the figures. */
export function invalidateAfterCall(queryClient: QueryClient, call: Call): Promise<void> {
  const keys: (readonly unknown[])[] = [callsRootKey, ['/api/stats'], ['/api/leads']]
  if (call.leadId) keys.push(communicationsKey({ kind: 'lead', id: call.leadId }))
  if (call.patientId) {
    keys.push(communicationsKey({ kind: 'patient', id: call.patientId }), ['/api/patients'])
  }
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(
    () => undefined,
  )
}

export function useStartCall() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: startCall,
    onSuccess: (call) => {
      queryClient.setQueryData(callKey(call.id), call)
      void queryClient.invalidateQueries({ queryKey: callsRootKey })
    },
  })
}

export function useDisposition() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DispositionBody }) => postDisposition(id, body),
    onSuccess: (call) => {
      queryClient.setQueryData(callKey(call.id), call)
      void invalidateAfterCall(queryClient, call)
    },
  })
}
