import { z } from 'zod'
import { staffRoles } from '../roles'
import { emailAddress, password } from './auth'
import { requiredText } from './common'

/*
 * Admin → a hospital admin's team (issue 27). All under /api/team (hospital:manage), always
 * the caller's own hospital; the public invitation pages under /api/public/invitations.
 *   GET    /api/team                         members, open invitations and the plan's user limit
 *   POST   /api/team/invitations             invite {email, name, role}
 *   POST   /api/team/invitations/:id/resend  a new link (the old one stops working), 7 more days
 *   DELETE /api/team/invitations/:id         revoke
 *   PATCH  /api/team/members/:id             {role} and/or {status: active | suspended}
 *   DELETE /api/team/members/:id             remove (deactivated and detached; history kept)
 *   POST   /api/public/invitations/lookup    {token}: what the invitation is for
 *   POST   /api/public/invitations/accept    {token, password}: creates the account
 */

/** How long an invitation link works. */
export const INVITATION_DAYS = 7

export const memberStatuses = ['active', 'suspended'] as const
export type MemberStatus = (typeof memberStatuses)[number]

const staffRole = z.enum(staffRoles, {
  message: `Role must be one of: ${staffRoles.join(', ')}`,
})

export const inviteMemberInput = z.strictObject({
  email: emailAddress,
  name: requiredText('Name', 120),
  role: staffRole,
})
export type InviteMemberInput = z.input<typeof inviteMemberInput>
export type InviteMemberValues = z.output<typeof inviteMemberInput>

/** A user id (better-auth's ids are not all UUIDs). */
export const memberParam = z.strictObject({
  id: z
    .string({ message: 'Must be a valid id' })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'Must be a valid id' }),
})

export const updateMemberInput = z
  .strictObject({
    role: staffRole.optional(),
    status: z.enum(memberStatuses, { message: 'Status must be active or suspended' }).optional(),
  })
  .refine((v) => v.role !== undefined || v.status !== undefined, {
    message: 'Give a role or a status',
  })
export type UpdateMemberInput = z.output<typeof updateMemberInput>

/** The link's secret: '<hospital id, 32 hex>.<43 base64url characters>'. */
const invitationToken = z
  .string({ message: 'The invitation link is incomplete' })
  .trim()
  .regex(/^[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/, { message: 'The invitation link is incomplete' })

export const invitationLookupInput = z.strictObject({ token: invitationToken })

export const acceptInvitationInput = z.strictObject({ token: invitationToken, password })

/** The acceptance form: the password twice. */
export const acceptInvitationForm = z
  .strictObject({ password, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'The passwords do not match',
    path: ['confirmPassword'],
  })
export type AcceptInvitationForm = z.infer<typeof acceptInvitationForm>

export const teamMember = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: staffRole,
  status: z.enum(memberStatuses),
  joinedAt: z.string(),
  lastSignInAt: z.string().nullable(),
  /** The signed-in admin's own row. */
  isYou: z.boolean(),
})
export type TeamMember = z.infer<typeof teamMember>

export const invitation = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: staffRole,
  status: z.enum(['pending', 'expired']),
  invitedAt: z.string(),
  expiresAt: z.string(),
  invitedBy: z.string().nullable(),
})
export type Invitation = z.infer<typeof invitation>

export const team = z.object({
  members: z.array(teamMember),
  invitations: z.array(invitation),
  /** The plan's limit: active members plus pending invitations may not exceed maxUsers. */
  usage: z.object({
    maxUsers: z.number(),
    activeMembers: z.number(),
    pendingInvitations: z.number(),
  }),
})
export type Team = z.infer<typeof team>

/** POST /api/team/invitations and /resend: the invitation, and whether the email went out. */
export const invitationSent = z.object({
  invitation,
  emailStatus: z.enum(['sandbox', 'sent', 'failed']),
})
export type InvitationSent = z.infer<typeof invitationSent>

/** POST /api/public/invitations/lookup */
export const invitationDetails = z.object({
  hospitalName: z.string(),
  email: z.string(),
  name: z.string(),
  role: staffRole,
  expiresAt: z.string(),
})
export type InvitationDetails = z.infer<typeof invitationDetails>

/** The 409 at the plan's user limit (invite and activate). */
export function userLimitMessage(maxUsers: number): string {
  return `Your plan allows up to ${maxUsers} users (active members and pending invitations). Remove a member or revoke an invitation, or upgrade your plan, to add more.`
}

export const LAST_ADMIN_MESSAGE =
  'You are the last active admin of this hospital. Make another member an admin first.'
export const INVITATION_EXPIRED_MESSAGE =
  'This invitation has expired. Ask your hospital admin to send a new one.'
export const INVITATION_USED_MESSAGE =
  'This invitation has already been used. Sign in with your email and password.'
export const INVITATION_REVOKED_MESSAGE =
  'This invitation was withdrawn. Ask your hospital admin to send a new one.'
export const INVITATION_NOT_FOUND_MESSAGE =
  'This invitation link is not valid. Check that you opened the whole link from the email.'
export const EMAIL_TAKEN_MESSAGE = 'This email already has an Arogya CRM account.'
/** Issue 39: a platform suspension is never undone by a hospital (invite, accept, activate). */
export const PLATFORM_SUSPENDED_MESSAGE =
  'Arogya support suspended this account: only the platform can reactivate it, so the hospital cannot invite it again.'
export const ALREADY_INVITED_MESSAGE =
  'This email already has a pending invitation. Resend it from the list instead.'
