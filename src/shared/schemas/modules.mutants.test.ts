import { describe, expect, it } from 'vitest'

// Every shared schema module loads. A test file that imports a module which throws while it
// loads collects no tests, and Stryker 9.6 then counts the mutant that broke the module as
// survived; importing the modules inside tests turns such a mutant into a failing test
// (docs/decisions/024).
const modules = {
  auth: () => import('./auth'),
  common: () => import('./common'),
  'demo-requests': () => import('./demo-requests'),
  'lead-import': () => import('./lead-import'),
  leads: () => import('./leads'),
  meta: () => import('./meta'),
  outbox: () => import('./outbox'),
  patients: () => import('./patients'),
  secrets: () => import('./secrets'),
  phone: () => import('../phone'),
  permissions: () => import('../permissions'),
}

describe('shared modules', () => {
  it.each(Object.entries(modules))('%s loads', async (_name, load) => {
    const module: Record<string, unknown> = await load()
    expect(Object.keys(module).length).toBeGreaterThan(0)
  })
})
