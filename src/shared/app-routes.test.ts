import { describe, expect, it } from 'vitest'
import { appPaths, matchAppPath, requiresSignIn } from './app-routes'

describe('app routes', () => {
  it('matches a page as the client router does: any case, one trailing slash', () => {
    expect(matchAppPath('/patients')).toBe(appPaths.patients)
    expect(matchAppPath('/Patients/')).toBe(appPaths.patients)
    expect(matchAppPath('/')).toBe(appPaths.home)
    expect(matchAppPath('/patients//')).toBeUndefined()
    expect(matchAppPath('/patients/1')).toBeUndefined()
    expect(matchAppPath('/no-such-page')).toBeUndefined()
    expect(matchAppPath('/leads')).toBe(appPaths.leads)
    expect(matchAppPath('/leads/1')).toBeUndefined()
  })

  it('sends signed-out visitors of staff screens to sign-in, not of public pages or unknown paths', () => {
    for (const p of [
      '/patients',
      '/manual-patient',
      '/dashboard',
      '/leads',
      '/super-admin',
      '/settings',
    ])
      expect(requiresSignIn(p), p).toBe(true)
    for (const p of [
      '/',
      '/pricing',
      '/add-ons',
      '/login',
      '/forgot-password',
      '/reset-password',
      '/no-such-page',
    ])
      expect(requiresSignIn(p), p).toBe(false)
  })
})
