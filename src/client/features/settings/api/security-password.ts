import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { ChangePasswordInput } from '@/shared/schemas/account-security'
import { getSessionsQueryOptions } from './security-sessions'

/** Changes the password; the server signs out every other session (and renews this one). */
export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      api.post<{ message: string }>('/api/me/password', input),
    onSuccess: () => queryClient.invalidateQueries(getSessionsQueryOptions()),
  })
}
