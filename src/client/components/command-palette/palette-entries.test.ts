import { describe, expect, it } from 'vitest'
import { roles } from '@/shared/roles'
import type { CurrentUser } from '@/shared/schemas/auth'
import { actionsFor, matches, screensFor } from './palette-entries'

function userWith(role: CurrentUser['role'], hospitalId: string | null = 'h-1'): CurrentUser {
  return {
    id: 'u-1',
    firstName: 'Asha',
    lastName: 'Kulkarni',
    username: null,
    email: 'asha@example.in',
    role,
    isActive: true,
    status: 'active',
    plan: null,
    profileImageUrl: null,
    isSuperAdmin: role === 'super_admin',
    twoFactorEnabled: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    hospitalId,
    hospitalName: hospitalId ? 'Sanjeevani' : null,
    timeZone: 'Asia/Kolkata',
  }
}

const labels = (entries: { label: string }[]) => entries.map((e) => e.label)

describe('the command palette respects the role', () => {
  it('offers each role exactly the New commands its permissions allow', () => {
    const expected: Record<string, string[]> = {
      admin: ['New Patient', 'New Lead', 'New Appointment', 'New Invoice'],
      receptionist: ['New Patient', 'New Lead', 'New Appointment', 'New Invoice'],
      doctor: ['New Patient', 'New Lead', 'New Appointment'],
      nurse: ['New Patient', 'New Lead', 'New Appointment'],
      viewer: [],
      super_admin: [],
    }
    for (const role of roles)
      expect(labels(actionsFor(userWith(role))), role).toEqual(expected[role])
  })

  it('lists hospital screens to members only, and the Super Admin Dashboard to super admins', () => {
    const viewer = labels(screensFor(userWith('viewer')))
    expect(viewer).toEqual(expect.arrayContaining(['Patients', 'Appointments', 'Settings']))
    expect(viewer).not.toContain('Super Admin Dashboard')
    expect(viewer).not.toContain('Manual Entry') // patients:write
    expect(viewer).not.toContain('Sandbox Outbox') // hospital:manage

    const platform = labels(screensFor(userWith('super_admin', null)))
    expect(platform).toContain('Super Admin Dashboard')
    expect(platform).toContain('Settings')
    expect(platform).not.toContain('Patients')
    expect(actionsFor(userWith('admin', null))).toEqual([])
  })

  it('matches every typed word in the label or keywords, in any case', () => {
    const [newInvoice] = actionsFor(userWith('admin')).filter((e) => e.label === 'New Invoice')
    expect(newInvoice && matches(newInvoice, 'NEW bill')).toBe(true)
    expect(newInvoice && matches(newInvoice, 'new patient')).toBe(false)
    expect(newInvoice && matches(newInvoice, '   ')).toBe(true)
  })
})

describe('screens (issue 40 item 16)', () => {
  it('lists no link-only page such as the Invitation', () => {
    for (const role of roles) {
      const screens = screensFor(userWith(role))
      expect(labels(screens)).not.toContain('Invitation')
      expect(screens.map((e) => e.href)).not.toContain('/invite')
    }
  })
})
