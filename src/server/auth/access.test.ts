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
    // Whatever the fallback is, it may write nothing and manage nothing; it may only ask
    // support for help (issue 28: every member, a viewer too, can submit a support ticket).
    for (const permission of permissions) {
      if (permission.endsWith(':read') || permission === 'support:submit') continue
      expect(can(role, permission), permission).toBe(false)
    }
  })
})
