import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { getUserQueryOptions } from '@/client/lib/current-user'

/** Turns two-factor off (the password confirms it); the current user is reloaded. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { password: string }) =>
      api.post<unknown>('/api/auth/two-factor/disable', input),
    onSuccess: () => queryClient.refetchQueries(getUserQueryOptions()),
  })
}
