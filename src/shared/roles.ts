export const roles = ['super_admin', 'admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const
export type Role = (typeof roles)[number]

/** Roles a hospital's own staff can hold (super_admin is the platform operator). */
export const staffRoles = ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const
export type StaffRole = (typeof staffRoles)[number]

/**
 * The roles a request can act as (issue 39): a user's own role, or `support`, the role of a
 * platform super admin inside a hospital under the hospital's support grant. No user ever holds
 * `support` (it is not in `roles`, nor in the users.role CHECK of migration 0015).
 */
export const actingRoles = [...roles, 'support'] as const
export type ActingRole = (typeof actingRoles)[number]

export const roleLabels: Record<ActingRole, string> = {
  super_admin: 'Super Admin',
  admin: 'Admin',
  doctor: 'Doctor',
  nurse: 'Nurse',
  receptionist: 'Receptionist',
  viewer: 'Viewer',
  support: 'Arogya support',
}
