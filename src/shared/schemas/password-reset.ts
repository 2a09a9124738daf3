import { z } from 'zod'
import { emailAddress, password } from './auth'

/**
 * Password reset (issue 40, item 7): "Forgot password?" on the sign-in page, and a hospital
 * admin's "Send password reset link" on /admin. The link works once and for 30 minutes.
 */

/** How long an emailed reset link stays valid. */
export const RESET_LINK_MINUTES = 30

/** Requests per address (whoever asks, the form or an admin) per window. */
export const RESET_REQUESTS_PER_ADDRESS = 3
export const RESET_ADDRESS_WINDOW_MINUTES = 60
/** Requests (and reset attempts) per client IP per window. */
export const RESET_REQUESTS_PER_IP = 10
export const RESET_IP_WINDOW_MINUTES = 15

/** POST /api/public/password-reset/request */
export const requestPasswordResetInput = z.strictObject({ email: emailAddress })
export type RequestPasswordResetInput = z.input<typeof requestPasswordResetInput>

/** The one answer to a request, whether or not an account uses the address. */
export const RESET_REQUESTED_MESSAGE = `If an account uses this email address, we have sent it a link to choose a new password. The link works once and is valid for ${RESET_LINK_MINUTES} minutes.`

export const RESET_RATE_LIMITED_MESSAGE =
  'Too many password reset requests. Please wait a while and try again.'

/** The reset link's secret: better-auth's token (24 letters and digits). */
const resetToken = z
  .string({ message: 'The reset link is incomplete' })
  .trim()
  .min(1, { message: 'The reset link is incomplete' })
  .max(200, { message: 'The reset link is not valid' })
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'The reset link is not valid' })

const confirmMismatch = {
  message: 'The passwords do not match',
  path: ['confirmPassword'],
}

/** The reset page's form: the same password rules as everywhere else. */
export const resetPasswordForm = z
  .strictObject({ newPassword: password, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, confirmMismatch)
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>

/** POST /api/public/password-reset/confirm */
export const resetPasswordInput = z
  .strictObject({ token: resetToken, newPassword: password, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, confirmMismatch)
export type ResetPasswordInput = z.input<typeof resetPasswordInput>

export const RESET_LINK_INVALID_MESSAGE =
  'This password reset link is invalid, has expired or was already used. Ask for a new one from the sign-in page.'

export const PASSWORD_RESET_DONE_MESSAGE =
  'Your password has been changed and you were signed out everywhere. Sign in with your new password.'

export const passwordResetDone = z.object({ message: z.string() })
export type PasswordResetDone = z.infer<typeof passwordResetDone>

/** POST /api/team/members/:id/password-reset (a hospital admin for a member). */
export const resetLinkSent = z.object({
  message: z.string(),
  emailStatus: z.enum(['sandbox', 'sent', 'failed']),
})
export type ResetLinkSent = z.infer<typeof resetLinkSent>

export const resetLinkSentMessage = (email: string) =>
  `A password reset link was emailed to ${email}. It works once and is valid for ${RESET_LINK_MINUTES} minutes.`

export const RESET_MEMBER_SUSPENDED_MESSAGE =
  'This member is suspended or inactive: activate them before sending a password reset link.'
