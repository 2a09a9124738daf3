import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  InvitationSent,
  InviteMemberValues,
  Team,
  TeamMember,
  UpdateMemberInput,
} from '@/shared/schemas/team'

export const teamKey = ['/api/team'] as const

/** GET /api/team (hospital admins): members, open invitations, seats in use. */
export function getTeam(): Promise<Team> {
  return api.get<Team>('/api/team')
}

export function getTeamQueryOptions() {
  return queryOptions({ queryKey: teamKey, queryFn: getTeam })
}

export function useTeam() {
  return useQuery(getTeamQueryOptions())
}

/** Every team change reloads the list (seats, statuses and invitations move together). */
function useTeamMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKey }),
  })
}

export const useInviteMember = () =>
  useTeamMutation((input: InviteMemberValues) =>
    api.post<InvitationSent>('/api/team/invitations', input),
  )

export const useUpdateMember = () =>
  useTeamMutation(({ id, ...values }: UpdateMemberInput & { id: string }) =>
    api.patch<TeamMember>(`/api/team/members/${encodeURIComponent(id)}`, values),
  )

export const useRemoveMember = () =>
  useTeamMutation((id: string) => api.delete<null>(`/api/team/members/${encodeURIComponent(id)}`))

export const useResendInvitation = () =>
  useTeamMutation((id: string) => api.post<InvitationSent>(`/api/team/invitations/${id}/resend`))

export const useRevokeInvitation = () =>
  useTeamMutation((id: string) => api.delete<null>(`/api/team/invitations/${id}`))
