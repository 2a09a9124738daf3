import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { getUserQueryOptions } from '@/client/lib/current-user'

/** better-auth's answer to POST /api/auth/two-factor/enable. */
export interface TwoFactorSetup {
  totpURI: string
  backupCodes: string[]
}

/** Step 1: the password unlocks a new TOTP secret and backup codes (two-factor stays off). */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: (input: { password: string }) =>
      api.post<TwoFactorSetup>('/api/auth/two-factor/enable', input),
  })
}

/**
 * Step 2: a code from the authenticator app turns two-factor on. The current user is then
 * reloaded, so the app replaces the enrolment screen.
 */
export function useConfirmTwoFactor() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { code: string }) =>
      api.post<unknown>('/api/auth/two-factor/verify-totp', input),
    onSuccess: () => queryClient.refetchQueries(getUserQueryOptions()),
  })
}
