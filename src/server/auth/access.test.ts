import { describe, expect, it } from 'vitest'
import { can, permissions } from '../../shared/permissions'
import { roles } from '../../shared/roles'
import { roleOf } from './access'

// Issue 30: a role the code does not know acts as a viewer, never as anything more.
describe('roleOf', () => {
  it.each(roles)('keeps a known role: %s', (role) => {
    expect(roleOf(role)).toBe(role)
  })

  it.each([
    'Admin',
    'ADMIN',
    'admin ',
    ' admin',
    'superadmin',
    'super-admin',
    'user',
    'owner',
    'admin,viewer',
    '',
    null,
    undefined,
    42,
    ['admin'],
    { role: 'admin' },
  ])('gives %j the least privilege (viewer)', (value) => {
    const role = roleOf(value)
    expect(role).toBe('viewer')
    // Whatever the fallback is, it may write nothing and manage nothing.
    for (const permission of permissions) {
      if (permission.endsWith(':read')) continue
      expect(can(role, permission), permission).toBe(false)
    }
  })
})
