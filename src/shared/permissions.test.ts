import { describe, expect, it } from 'vitest'
import { can, type Permission, permissions, permissionTable } from './permissions'
import { type ActingRole, actingRoles as roles } from './roles'

/**
 * GitLab-style: every role against every permission, each cell written out. Adding a
 * role or a permission fails this test until someone decides every new cell.
 */
const expected: Record<ActingRole, Record<Permission, boolean>> = {
  super_admin: {
    'patients:read': false,
    'patients:write': false,
    'leads:read': false,
    'leads:write': false,
    'leads:import': false,
    'appointments:read': false,
    'appointments:write': false,
    'billing:read': false,
    'billing:write': false,
    'audit:read': false,
    'hospital:manage': false,
    'campaigns:read': false,
    'campaigns:write': false,
    'platform:manage': true,
    'lead-generation:manage': false,
    'faqs:read': false,
    'faqs:write': false,
    'support:submit': false,
    'support:write': false,
    'support:read_all': false,

    'live-monitoring:read': false,
    'live-monitoring:read_all': false,
    'backup:manage': false,
    'team:manage': false,
    'security:manage': false,
    'integrations:manage': false,
    'data:export': false,
    'data:delete': false,
    'support-access:manage': false,
    'backup:read': false,
    'team:reset-password': false,
    'calls:make': false,
    'calls:recordings': false,
  },
  admin: {
    'patients:read': true,
    'patients:write': true,
    'leads:read': true,
    'leads:write': true,
    'leads:import': true,
    'appointments:read': true,
    'appointments:write': true,
    'billing:read': true,
    'billing:write': true,
    'audit:read': true,
    'hospital:manage': true,
    'campaigns:read': true,
    'campaigns:write': true,
    'platform:manage': false,
    'lead-generation:manage': true,
    'faqs:read': true,
    'faqs:write': true,
    'support:submit': true,
    'support:write': true,
    'support:read_all': true,

    'live-monitoring:read': true,
    'live-monitoring:read_all': true,
    'backup:manage': true,
    'team:manage': true,
    'security:manage': true,
    'integrations:manage': true,
    'data:export': true,
    'data:delete': true,
    'support-access:manage': true,
    'backup:read': true,
    'team:reset-password': true,
    'calls:make': true,
    'calls:recordings': true,
  },
  doctor: {
    'patients:read': true,
    'patients:write': true,
    'leads:read': true,
    'leads:write': true,
    'leads:import': false,
    'appointments:read': true,
    'appointments:write': true,
    'billing:read': true,
    'billing:write': false,
    'audit:read': false,
    'hospital:manage': false,
    'campaigns:read': true,
    'campaigns:write': false,
    'platform:manage': false,
    'lead-generation:manage': false,
    'faqs:read': true,
    'faqs:write': false,
    'support:submit': true,
    'support:write': true,
    'support:read_all': false,

    'live-monitoring:read': true,
    'live-monitoring:read_all': false,
    'backup:manage': false,
    'team:manage': false,
    'security:manage': false,
    'integrations:manage': false,
    'data:export': false,
    'data:delete': false,
    'support-access:manage': false,
    'backup:read': false,
    'team:reset-password': false,
    'calls:make': true,
    'calls:recordings': true,
  },
  nurse: {
    'patients:read': true,
    'patients:write': true,
    'leads:read': true,
    'leads:write': true,
    'leads:import': false,
    'appointments:read': true,
    'appointments:write': true,
    'billing:read': true,
    'billing:write': false,
    'audit:read': false,
    'hospital:manage': false,
    'campaigns:read': true,
    'campaigns:write': false,
    'platform:manage': false,
    'lead-generation:manage': false,
    'faqs:read': true,
    'faqs:write': false,
    'support:submit': true,
    'support:write': true,
    'support:read_all': false,

    'live-monitoring:read': true,
    'live-monitoring:read_all': false,
    'backup:manage': false,
    'team:manage': false,
    'security:manage': false,
    'integrations:manage': false,
    'data:export': false,
    'data:delete': false,
    'support-access:manage': false,
    'backup:read': false,
    'team:reset-password': false,
    'calls:make': true,
    'calls:recordings': false,
  },
  receptionist: {
    'patients:read': true,
    'patients:write': true,
    'leads:read': true,
    'leads:write': true,
    'leads:import': true,
    'appointments:read': true,
    'appointments:write': true,
    'billing:read': true,
    'billing:write': true,
    'audit:read': false,
    'hospital:manage': false,
    'campaigns:read': true,
    'campaigns:write': false,
    'platform:manage': false,
    'lead-generation:manage': false,
    'faqs:read': true,
    'faqs:write': true,
    'support:submit': true,
    'support:write': true,
    'support:read_all': false,

    'live-monitoring:read': true,
    'live-monitoring:read_all': false,
    'backup:manage': false,
    'team:manage': false,
    'security:manage': false,
    'integrations:manage': false,
    'data:export': false,
    'data:delete': false,
    'support-access:manage': false,
    'backup:read': false,
    'team:reset-password': false,
    'calls:make': true,
    'calls:recordings': false,
  },
  viewer: {
    'patients:read': true,
    'patients:write': false,
    'leads:read': true,
    'leads:write': false,
    'leads:import': false,
    'appointments:read': true,
    'appointments:write': false,
    'billing:read': true,
    'billing:write': false,
    'audit:read': false,
    'hospital:manage': false,
    'campaigns:read': true,
    'campaigns:write': false,
    'platform:manage': false,
    'lead-generation:manage': false,
    'faqs:read': true,
    'faqs:write': false,
    'support:submit': true,
    'support:write': false,
    'support:read_all': false,

    'live-monitoring:read': true,
    'live-monitoring:read_all': false,
    'backup:manage': false,
    'team:manage': false,
    'security:manage': false,
    'integrations:manage': false,
    'data:export': false,
    'data:delete': false,
    'support-access:manage': false,
    'backup:read': false,
    'team:reset-password': false,
    'calls:make': false,
    'calls:recordings': false,
  },
  // Issue 39: a super admin inside a hospital under a support grant (never a user's role).
  support: {
    'patients:read': true,
    'patients:write': true,
    'leads:read': true,
    'leads:write': true,
    'leads:import': true,
    'appointments:read': true,
    'appointments:write': true,
    'billing:read': true,
    'billing:write': true,
    'audit:read': true,
    'hospital:manage': true,
    'campaigns:read': true,
    'campaigns:write': true,
    'platform:manage': false,
    'lead-generation:manage': false,
    'faqs:read': true,
    'faqs:write': true,
    'support:submit': true,
    'support:write': true,
    'support:read_all': true,

    'live-monitoring:read': true,
    'live-monitoring:read_all': true,
    'backup:manage': false,
    'team:manage': false,
    'security:manage': false,
    'integrations:manage': false,
    'data:export': false,
    'data:delete': false,
    'support-access:manage': false,
    'backup:read': true,
    'team:reset-password': false,
    'calls:make': false,
    'calls:recordings': false,
  },
}

describe('permission table', () => {
  it('covers exactly the known roles and permissions', () => {
    expect(Object.keys(expected).sort()).toEqual([...roles].sort())
    expect(Object.keys(permissionTable).sort()).toEqual([...roles].sort())
    for (const role of roles) {
      expect(Object.keys(expected[role]).sort(), role).toEqual([...permissions].sort())
    }
  })

  const cells = roles.flatMap((role) =>
    permissions.map((permission) => [role, permission] as const),
  )
  it.each(cells)('%s / %s', (role, permission) => {
    const allowed = expected[role][permission]
    expect(can(role, permission)).toBe(allowed)
  })

  it('names only known permissions, each once', () => {
    for (const role of roles) {
      const granted = permissionTable[role]
      expect(new Set(granted).size, role).toBe(granted.length)
      for (const p of granted) expect(permissions, role).toContain(p)
    }
  })

  it('keeps the support role out of the roles a user can hold', async () => {
    const { roles: userRoles, staffRoles } = await import('./roles')
    expect(userRoles as readonly string[]).not.toContain('support')
    expect(staffRoles as readonly string[]).not.toContain('support')
  })

  it('never lets a read-only or platform role write patient data', () => {
    expect(can('viewer', 'patients:write')).toBe(false)
    expect(can('super_admin', 'patients:read')).toBe(false)
    expect(can('super_admin', 'patients:write')).toBe(false)
  })
})
