import { useMutation, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { InvitationDetails } from '@/shared/schemas/team'

/** POST /api/public/invitations/lookup: what the link is for (the token stays out of URLs). */
export function useInvitationDetails(token: string) {
  return useQuery({
    queryKey: ['/api/public/invitations/lookup', token],
    queryFn: () => api.post<InvitationDetails>('/api/public/invitations/lookup', { token }),
    enabled: token !== '',
  })
}

/** Accepts the invitation, then signs in with the new password (the usual sign-in route). */
export function useAcceptInvitation() {
  return useMutation({
    mutationFn: async ({ token, password }: { token: string; password: string }) => {
      const { email } = await api.post<{ email: string }>('/api/public/invitations/accept', {
        token,
        password,
      })
      await api.post('/api/auth/sign-in/email', { email, password })
      return email
    },
  })
}
