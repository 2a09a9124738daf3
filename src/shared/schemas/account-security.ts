import { z } from 'zod'
import { password } from './auth'

/** POST /api/me/password (Settings -> Security, Change Password): always ends other sessions. */
export const changePasswordInput = z
  .strictObject({
    currentPassword: z
      .string({ message: 'Enter your current password' })
      .min(1, { message: 'Enter your current password' })
      .max(1024, { message: 'Enter your current password' }),
    newPassword: password,
    confirmPassword: z.string({ message: 'Confirm the new password' }),
  })
  .superRefine((value, ctx) => {
    if (value.confirmPassword !== value.newPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: 'The passwords do not match',
      })
    }
    if (value.newPassword === value.currentPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['newPassword'],
        message: 'Choose a password different from your current one',
      })
    }
  })
export type ChangePasswordInput = z.input<typeof changePasswordInput>

export const PASSWORD_CHANGED_MESSAGE =
  'Password updated. You were signed out on your other devices.'
export const passwordChanged = z.object({ message: z.string() })

/** GET /api/me/sessions: one of the signed-in user's own live sessions. */
export const activeSession = z.object({
  id: z.string(),
  /** "Chrome on Windows", from the session's user agent ("Unknown device" without one). */
  device: z.string(),
  /** The address it signed in from (the "place"); null when unknown. */
  ipAddress: z.string().nullable(),
  signedInAt: z.string(),
  /** The last request on it, to within a minute. */
  lastUsedAt: z.string(),
  expiresAt: z.string(),
  /** The session of the device asking. */
  current: z.boolean(),
})
export type ActiveSession = z.infer<typeof activeSession>
export const activeSessions = z.object({ sessions: z.array(activeSession) })
export type ActiveSessions = z.infer<typeof activeSessions>

/** DELETE /api/me/sessions/:id */
export const sessionIdParams = z.strictObject({
  id: z
    .string()
    .min(1, { message: 'Session id is required' })
    .max(64, { message: 'Session id is too long' })
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'Session id is not valid' }),
})

/** POST /api/me/sessions/sign-out-others */
export const otherSessionsEnded = z.object({ revoked: z.number().int() })
export type OtherSessionsEnded = z.infer<typeof otherSessionsEnded>

/** POST /api/me/sessions/sign-out-others takes no fields (an empty body or {}). */
export const signOutOthersInput = z.strictObject({})
