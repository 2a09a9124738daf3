import { describe, expect, it } from 'vitest'
import { appPaths } from '../../../shared/app-routes'
import { can } from '../../../shared/permissions'
import { staffPages } from './staff-head'

// Issue 40 item 17: a screen's HTML preloads only reads every member who opens it may make.
describe('staff preloads', () => {
  it('Settings preloads /api/settings only (General opens first; Integrations are admin-only)', () => {
    expect(staffPages[appPaths.settings]?.data).toEqual(['/api/settings'])
    expect(can('receptionist', 'integrations:manage')).toBe(false)
  })
})
