import type { Role } from './roles'

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
  // Issue 29: backup configurations, runs, downloads and restores (hospital admins only).
  'backup:manage',
] as const
export type Permission = (typeof permissions)[number]

export const permissionTable: Record<Role, readonly Permission[]> = {
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
    'lead-generation:manage',
    'faqs:read',
    'faqs:write',
    'support:submit',
    'support:write',
    'support:read_all',
    'backup:manage',
    // Issue 28: every member sees campaigns (spec §6: every signed-in user gets every route);
    // only an admin spends the marketing budget.
    'campaigns:read',
    'campaigns:write',
    'live-monitoring:read',
    'live-monitoring:read_all',
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
}

export function can(role: Role, permission: Permission): boolean {
  return permissionTable[role].includes(permission)
}
