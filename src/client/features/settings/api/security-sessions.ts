import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { ActiveSessions, OtherSessionsEnded } from '@/shared/schemas/account-security'

export const getSessions = () => api.get<ActiveSessions>('/api/me/sessions')

export function getSessionsQueryOptions() {
  return queryOptions({ queryKey: ['/api/me/sessions'], queryFn: getSessions })
}

/** The signed-in user's own live sessions (Settings -> Security). */
export function useSessions() {
  return useQuery(getSessionsQueryOptions())
}

/** Signs out one of the user's other sessions. */
export function useRevokeSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/api/me/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries(getSessionsQueryOptions()),
  })
}

/** Signs out every session of the user but this one. */
export function useSignOutOtherSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<OtherSessionsEnded>('/api/me/sessions/sign-out-others', {}),
    onSettled: () => queryClient.invalidateQueries(getSessionsQueryOptions()),
  })
}
