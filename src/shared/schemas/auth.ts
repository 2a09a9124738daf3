import { z } from 'zod'
import { normalizePhone } from '../phone'
import { isSafeRedirectPath } from '../safe-redirect'
import { phoneNumber } from './common'
import { actingRoles } from '../roles'
import { readOnlyState, supportVisit } from './support-access'

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128

export const password = z
  .string({ message: 'Password is required' })
  .min(PASSWORD_MIN, { message: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { message: `Password must be at most ${PASSWORD_MAX} characters` })

export const emailAddress = z
  .string({ message: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, { message: 'Email is required' })
  .pipe(z.email({ message: 'Enter a valid email address' }).max(254))

export const signInInput = z.strictObject({
  email: emailAddress,
  password: z
    .string({ message: 'Password is required' })
    .min(1, { message: 'Password is required' }),
  rememberMe: z.boolean().optional(),
  // Only a path on this site, by the one redirect rule: never a redirect to another origin.
  callbackURL: z
    .string()
    .refine(isSafeRedirectPath, { message: 'callbackURL must be a path on this site' })
    .optional(),
})

/** POST /api/auth/trial: a new clinic signs up for the 14-day trial. */
export const trialSignUpInput = z.strictObject({
  hospitalName: z
    .string({ message: 'Clinic or hospital name is required' })
    .trim()
    .min(2, { message: 'Clinic or hospital name is required' })
    .max(200, { message: 'Clinic or hospital name must be at most 200 characters' }),
  name: z
    .string({ message: 'Your name is required' })
    .trim()
    .min(1, { message: 'Your name is required' })
    .max(120, { message: 'Name must be at most 120 characters' }),
  email: emailAddress,
  password,
  phone: phoneNumber(normalizePhone, {
    required: 'Mobile number is required',
    invalid: 'Enter a valid mobile number, e.g. 98765 43210',
  }),
})
export type TrialSignUpInput = z.input<typeof trialSignUpInput>

/** GET /api/auth/user (spec "User" plus the hospital). */
export const currentUser = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  username: z.string().nullable(),
  email: z.string(),
  /** The role the user acts as: `support` for a super admin inside under a support grant. */
  role: z.enum(actingRoles),
  isActive: z.boolean(),
  status: z.enum(['active', 'suspended']),
  plan: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  isSuperAdmin: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /** The user's hospital requires two-factor of every member (Settings -> Security). */
  twoFactorRequired: z.boolean().optional(),
  createdAt: z.string(),
  hospitalId: z.string().nullable(),
  hospitalName: z.string().nullable(),
  timeZone: z.string(),
  /** A super admin inside a hospital under its support grant (decision 029). */
  supportVisit: supportVisit.nullable().optional(),
  /** The hospital is read-only (cancelled, or past due beyond the grace period). */
  readOnly: readOnlyState.nullable().optional(),
})
export type CurrentUser = z.infer<typeof currentUser>

// mustEnrolTwoFactor lives in shared/two-factor.ts: the staff shell needs it without this
// file's phone check (libphonenumber's metadata, about 50 KB gzip).
export { mustEnrolTwoFactor } from '../two-factor'

/**
 * POST /api/auth/trial answers 202 with this body whether or not the email already has an
 * account (no enumeration); the account is activated by the emailed link.
 */
export const trialStarted = z.object({ message: z.string() })
export type TrialStarted = z.infer<typeof trialStarted>
export const TRIAL_STARTED_MESSAGE =
  'Check your email: we have sent a link to activate your account. It is valid for 24 hours.'
