import { useMutation } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { TrialSignUpInput, TrialStarted } from '@/shared/schemas/auth'

export interface SignInResult {
  twoFactorRedirect?: boolean
  user?: { id: string }
}

export function useSignIn() {
  return useMutation({
    mutationFn: (input: { email: string; password: string }) =>
      api.post<SignInResult>('/api/auth/sign-in/email', input),
  })
}

export function useVerifyTotp() {
  return useMutation({
    mutationFn: (input: { code: string }) =>
      api.post<unknown>('/api/auth/two-factor/verify-totp', input),
  })
}

/** Signs in with one of the backup codes shown at enrolment (each works once). */
export function useVerifyBackupCode() {
  return useMutation({
    mutationFn: (input: { code: string }) =>
      api.post<unknown>('/api/auth/two-factor/verify-backup-code', input),
  })
}

/** Starts a trial; the server answers 202 and emails an activation link (no sign-in yet). */
export function useStartTrial() {
  return useMutation({
    mutationFn: (input: TrialSignUpInput) => api.post<TrialStarted>('/api/auth/trial', input),
  })
}
