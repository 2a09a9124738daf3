import type { ActingRole } from './roles'

/**
 * The one permission table. Every server route names one of these (or is public,
 * signed-in only, or super-admin only), and the table below says which roles hold it.
 * Tenant permissions apply inside the user's own hospital; the super admin holds the
 * platform permissions only, and sees a hospital's data only as a member of it.
 */
export const permissions = [
  'patients:read',
  'patients:write',
  'leads:read',
  'leads:write',
  'leads:import',
  'appointments:read',
  'appointments:write',
  'billing:read',
  'billing:write',
  'audit:read',
  'hospital:manage',
  'campaigns:read',
  'campaigns:write',
  'platform:manage',
  // Issue 28: request lead-generation campaigns from the platform (hospital admins only).
  'lead-generation:manage',
  // Issue 28: FAQ Management (every member reads; admins and the front desk edit).
  'faqs:read',
  'faqs:write',
  // Issue 28: every staff role submits tickets and sees its own; admins see the hospital's all.
  'support:submit',
  'support:read_all',
  // Issue 39: adding files to tickets (stored bytes count toward the hospital's disk quota):
  // every role that writes, not a viewer.
  'support:write',
  // Issue 29: Live Monitoring (every member sees the board and feed; admins every summary).
  'live-monitoring:read',
  'live-monitoring:read_all',
  // Issue 29: backup configurations, runs, uploads and restores (hospital admins only).
  'backup:manage',
  // Issue 39: the hospital admin's powers a support visit does not get, split out of
  // hospital:manage and backup:manage so that each route names exactly one:
  //  - team:manage: invite, resend or revoke invitations, change roles, suspend, remove;
  //  - security:manage: the security section of PUT /api/settings (two-factor, sessions);
  //  - integrations:manage: provider credentials and webhooks (messaging, Meta, template resync);
  //  - data:export: whole-hospital exports, a patient's export, backup downloads;
  //  - data:delete: Delete All Data and a patient's erasure;
  //  - support-access:manage: granting and revoking support access;
  //  - backup:read: backup configurations, logs and restore progress (read only).
  'team:manage',
  'security:manage',
  'integrations:manage',
  'data:export',
  'data:delete',
  'support-access:manage',
  'backup:read',
  // Issue 40, item 7: email a team member a password reset link (Admin -> team).
  'team:reset-password',
  // Issue 41: click-to-call through the hospital's voice provider (every role that works with
  // patients and leads, not a viewer), and hearing call recordings (admins and doctors).
  'calls:make',
  'calls:recordings',
] as const
export type Permission = (typeof permissions)[number]

/** What only the hospital's own admin (or a full-admin support grant) may do. */
const adminOnly = [
  'team:manage',
  'security:manage',
  'integrations:manage',
  'data:export',
  'data:delete',
  'support-access:manage',
  'backup:manage',
  'lead-generation:manage',
  'team:reset-password',
] as const satisfies readonly Permission[]

export const permissionTable: Record<ActingRole, readonly Permission[]> = {
  super_admin: ['platform:manage'],
  admin: [
    'patients:read',
    'patients:write',
    'leads:read',
    'leads:write',
    'leads:import',
    'appointments:read',
    'appointments:write',
    'billing:read',
    'billing:write',
    'audit:read',
    'hospital:manage',
    'faqs:read',
    'faqs:write',
    'support:submit',
    'support:write',
    'support:read_all',
    'backup:read',
    ...adminOnly,
    // Issue 28: every member sees campaigns (spec §6: every signed-in user gets every route);
    // only an admin spends the marketing budget.
    'campaigns:read',
    'campaigns:write',
    'live-monitoring:read',
    'live-monitoring:read_all',
    'calls:make',
    'calls:recordings',
  ],
  // Issue 26: doctors and nurses book and run the day but do not take money; the front desk
  // (receptionist) books and bills; a viewer only reads.
  doctor: [
    'patients:read',
    'patients:write',
    'leads:read',
    'leads:write',
    'appointments:read',
    'appointments:write',
    'billing:read',
    'faqs:read',
    'support:submit',
    'support:write',
    'campaigns:read',

    'live-monitoring:read',
    'calls:make',
    'calls:recordings',
  ],
  nurse: [
    'patients:read',
    'patients:write',
    'leads:read',
    'leads:write',
    'appointments:read',
    'appointments:write',
    'billing:read',
    'faqs:read',
    'support:submit',
    'support:write',
    'campaigns:read',

    'live-monitoring:read',
    'calls:make',
  ],
  receptionist: [
    'patients:read',
    'patients:write',
    'leads:read',
    'leads:write',
    'leads:import',
    'appointments:read',
    'appointments:write',
    'billing:read',
    'billing:write',
    'faqs:read',
    'faqs:write',
    'support:submit',
    'support:write',
    'campaigns:read',

    'live-monitoring:read',
    'calls:make',
  ],
  viewer: [
    'patients:read',
    'leads:read',
    'appointments:read',
    'billing:read',
    'faqs:read',
    'support:submit',
    'campaigns:read',

    'live-monitoring:read',
  ],
  // Issue 39: a platform super admin inside a hospital under a support grant (never a user's
  // role). Reads what the hospital admin reads and makes ordinary data corrections; none of
  // `adminOnly` (a grant widened to full admin acts as `admin` instead).
  support: [
    'patients:read',
    'patients:write',
    'leads:read',
    'leads:write',
    'leads:import',
    'appointments:read',
    'appointments:write',
    'billing:read',
    'billing:write',
    'audit:read',
    'hospital:manage',
    'faqs:read',
    'faqs:write',
    'support:submit',
    'support:write',
    'support:read_all',
    'backup:read',
    'campaigns:read',
    'campaigns:write',
    'live-monitoring:read',
    'live-monitoring:read_all',
  ],
}

export function can(role: ActingRole, permission: Permission): boolean {
  return permissionTable[role].includes(permission)
}

/**
 * Why a support visit is refused a permission the hospital admin holds (403
 * SUPPORT_NOT_ALLOWED): each names the rule, for the support agent who reads it.
 */
export const supportRefusals: Record<(typeof adminOnly)[number], string> = {
  'team:manage':
    'Support visits may not change the team (invitations, roles, suspensions): only the hospital’s own admin can.',
  'security:manage':
    'Support visits may not change security settings (two-factor, sessions): only the hospital’s own admin can.',
  'integrations:manage':
    'Support visits may not change provider credentials or webhooks: only the hospital’s own admin can.',
  'data:export':
    'Support visits may not export the hospital’s data: only the hospital’s own admin can.',
  'data:delete': 'Support visits may not delete or erase data: only the hospital’s own admin can.',
  'support-access:manage':
    'Support visits may not manage support access: only the hospital’s own admin can.',
  'backup:manage':
    'Support visits may not configure, run or restore backups: only the hospital’s own admin can.',
  'lead-generation:manage':
    'Support visits may not request lead generation (it is billed to the hospital): only the hospital’s own admin can.',
  'team:reset-password':
    'Support visits may not send password reset links: only the hospital’s own admin can.',
}

/** The refusal a support visit gets for a permission it lacks. */
export function supportRefusal(permission: Permission): string {
  return (
    (supportRefusals as Partial<Record<Permission, string>>)[permission] ??
    'Support visits may not do this: only the hospital’s own admin can.'
  )
}
