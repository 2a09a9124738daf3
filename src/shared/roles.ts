export const roles = ['super_admin', 'admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const
export type Role = (typeof roles)[number]

/** Roles a hospital's own staff can hold (super_admin is the platform operator). */
export const staffRoles = ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const
export type StaffRole = (typeof staffRoles)[number]

export const roleLabels: Record<Role, string> = {
  super_admin: 'Super Admin',
  admin: 'Admin',
  doctor: 'Doctor',
  nurse: 'Nurse',
  receptionist: 'Receptionist',
  viewer: 'Viewer',
}
