import { useMutation } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  PasswordResetDone,
  RequestPasswordResetInput,
  ResetLinkSent,
  ResetPasswordInput,
} from '@/shared/schemas/password-reset'

/** "Forgot password?": always the same 202 answer, whether or not the address has an account. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (input: RequestPasswordResetInput) =>
      api.post<{ message: string }>('/api/public/password-reset/request', input),
  })
}

/** The reset page: sets the new password with the emailed link's token. */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (input: ResetPasswordInput) =>
      api.post<PasswordResetDone>('/api/public/password-reset/confirm', input),
  })
}

/** A hospital admin emails a member a reset link (Admin → team row action). */
export function useSendResetLink() {
  return useMutation({
    mutationFn: (memberId: string) =>
      api.post<ResetLinkSent>(`/api/team/members/${encodeURIComponent(memberId)}/password-reset`),
  })
}
