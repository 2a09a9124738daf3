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
  'platform:manage',
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
  ],
  nurse: [
    'patients:read',
    'patients:write',
    'leads:read',
    'leads:write',
    'appointments:read',
    'appointments:write',
    'billing:read',
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
  ],
  viewer: ['patients:read', 'leads:read', 'appointments:read', 'billing:read'],
}

export function can(role: Role, permission: Permission): boolean {
  return permissionTable[role].includes(permission)
}
