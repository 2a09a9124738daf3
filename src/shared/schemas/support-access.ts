import { z } from 'zod'

/*
 * Support access granted by the hospital, and read-only mode (issue 27, docs/decisions/032).
 *   GET    /api/support-access                       (hospital:manage) grants and support actions
 *   POST   /api/support-access                       (support-access:manage) grant
 *                                                      {hours, reason, scope?}
 *   POST   /api/support-access/:id/revoke            (support-access:manage) end a grant now
 *   POST   /api/admin/hospitals/:id/support-session  (super admin) enter under a live grant
 *   DELETE /api/admin/support-session                (super admin) exit
 */

export const SUPPORT_HOURS_MIN = 1
export const SUPPORT_HOURS_MAX = 72
/** Days a hospital stays writable after it became past due. */
export const PAST_DUE_GRACE_DAYS = 14

/**
 * What a grant lets support do (issue 39): 'support' acts as the support role (reads, ordinary
 * corrections; never the team, security, credentials, exports, deletes, backups); 'full_admin'
 * acts as the hospital's admin, given explicitly.
 */
export const supportScopes = ['support', 'full_admin'] as const
export type SupportScope = (typeof supportScopes)[number]
export const supportScopeLabels: Record<SupportScope, string> = {
  support: 'Support (no team, security, credentials, exports or deletes)',
  full_admin: 'Full admin',
}

export const grantSupportAccessInput = z.strictObject({
  hours: z
    .number({ message: 'Hours must be a number' })
    .int({ message: 'Hours must be a whole number' })
    .min(SUPPORT_HOURS_MIN, { message: `Grant at least ${SUPPORT_HOURS_MIN} hour` })
    .max(SUPPORT_HOURS_MAX, { message: `Grant at most ${SUPPORT_HOURS_MAX} hours` }),
  reason: z
    .string({ message: 'Reason is required' })
    .trim()
    .min(3, { message: 'Say in a few words why support needs access' })
    .max(500, { message: 'Reason must be at most 500 characters' }),
  scope: z.enum(supportScopes, { message: 'Choose support or full admin' }).default('support'),
})
export type GrantSupportAccessInput = z.input<typeof grantSupportAccessInput>

export const grantStatuses = ['active', 'expired', 'revoked'] as const
export type GrantStatus = (typeof grantStatuses)[number]

export const supportGrant = z.object({
  id: z.string(),
  hours: z.number(),
  reason: z.string(),
  scope: z.enum(supportScopes),
  grantedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  status: z.enum(grantStatuses),
})
export type SupportGrant = z.infer<typeof supportGrant>

/** One thing a super admin did inside the hospital (its audit row). */
export const supportAction = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** The super admin, by name and email. */
  by: z.string(),
  action: z.string(),
  summary: z.string(),
})
export type SupportAction = z.infer<typeof supportAction>

export const supportAccessOverview = z.object({
  grants: z.array(supportGrant),
  actions: z.array(supportAction),
})
export type SupportAccessOverview = z.infer<typeof supportAccessOverview>

/** A super admin's session inside a hospital, as /api/auth/user shows it. */
export const supportVisit = z.object({
  hospitalId: z.string(),
  hospitalName: z.string(),
  expiresAt: z.string(),
  /** 'support' acts as the support role, 'full_admin' as the hospital's admin. */
  scope: z.enum(supportScopes),
})
export type SupportVisit = z.infer<typeof supportVisit>

export const readOnlyReasons = ['cancelled', 'past_due'] as const
export type ReadOnlyReason = (typeof readOnlyReasons)[number]

export const readOnlyState = z.object({
  reason: z.enum(readOnlyReasons),
  message: z.string(),
})
export type ReadOnlyState = z.infer<typeof readOnlyState>

export const READ_ONLY_MESSAGES: Record<ReadOnlyReason, string> = {
  cancelled:
    'This hospital’s subscription is cancelled, so Arogya CRM is read-only: you can view and export data but not change it. Contact support to reactivate.',
  past_due: `This hospital’s payment is more than ${PAST_DUE_GRACE_DAYS} days overdue, so Arogya CRM is read-only: you can view and export data but not change it. Pay the outstanding invoice to continue.`,
}

export { supportToasts } from '../support-access-texts'
