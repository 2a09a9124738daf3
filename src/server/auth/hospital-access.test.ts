import { describe, expect, it } from 'vitest'
import { can } from '../../shared/permissions'
import { readOnlyReason, supportRoleOf, writableWhenReadOnly } from './hospital-access'

const DAY = 86_400_000

describe('readOnlyReason', () => {
  const now = Date.parse('2026-11-27T12:00:00Z')
  const at = (days: number) => new Date(now - days * DAY)

  it('cancelled is read-only at once; past due only beyond 14 days', () => {
    expect(readOnlyReason({ status: 'cancelled', changedAt: at(0) }, now)).toBe('cancelled')
    expect(readOnlyReason({ status: 'past_due', changedAt: at(14) }, now)).toBeNull()
    expect(readOnlyReason({ status: 'past_due', changedAt: at(14.01) }, now)).toBe('past_due')
    expect(readOnlyReason({ status: 'active', changedAt: at(400) }, now)).toBeNull()
    expect(readOnlyReason({ status: 'trial', changedAt: at(400) }, now)).toBeNull()
  })
})

describe('writableWhenReadOnly', () => {
  it('lets sign-out, the account and exports through, and nothing else', () => {
    for (const path of [
      '/api/logout',
      '/api/auth/sign-out',
      '/api/me/preferences',
      '/api/invoices/export.csv',
      '/api/settings/data/export',
      '/api/patients/1/export.json',
    ])
      expect(writableWhenReadOnly(path), path).toBe(true)
    for (const path of [
      '/api/patients/manual',
      '/api/patients/1/erase',
      '/api/hospital/settings',
      '/api/team/invitations',
      '/api/leads/exporter-lead',
      '/api/me',
    ])
      expect(writableWhenReadOnly(path), path).toBe(false)
  })
})

describe('supportRoleOf (issue 39)', () => {
  it('acts as the support role unless the grant is full admin', () => {
    expect(supportRoleOf({ scope: 'support' })).toBe('support')
    expect(supportRoleOf({ scope: 'full_admin' })).toBe('admin')
    expect(can(supportRoleOf({ scope: 'support' }), 'team:manage')).toBe(false)
    expect(can(supportRoleOf({ scope: 'full_admin' }), 'team:manage')).toBe(true)
  })
})
