import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  defaultPreferences,
  type Preferences,
  preferences,
} from '../../src/shared/schemas/preferences'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  hospitalIdOf,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 27, Settings → Appearance: GET/PUT /api/me/preferences. Every signed-in user (each
// staff role, and a platform account) reads and sets only their own; validated, audited.

let t: TestApp
let hospitalA: string
let hospitalB: string
const cookies = new Map<DemoRole, string>()

const URL = '/api/me/preferences'
const dark: Preferences = { theme: 'dark', primaryColor: 'purple', compact: true }

beforeAll(async () => {
  t = await createTestApp()
  for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer'] as const)
    cookies.set(role, await login(t.app, demoEmail(role)))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
})
afterAll(async () => {
  await t?.close()
})

const get = (cookie: string | undefined) =>
  t.app.inject({ method: 'GET', url: URL, headers: cookie ? { cookie } : {} })
const put = (cookie: string | undefined, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: URL,
    headers: browserHeaders(cookie),
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })

function prefsOf(res: LightMyRequestResponse): Preferences {
  expect(res.statusCode, res.body).toBe(200)
  return preferences.parse(res.json())
}

async function storedFor(email: string): Promise<unknown> {
  const id = await userIdOf(t.db, email)
  const [row] = await queryRows<{ preferences: unknown }>(
    t.db,
    sql`select preferences from users where id = ${id}`,
  )
  return row?.preferences
}

async function audits(hospitalId: string) {
  return queryRows<{ summary: string; actor_user_id: string; entity_id: string }>(
    t.db,
    sql`select summary, actor_user_id, entity_id from audit_events
        where hospital_id = ${hospitalId} and action = 'user.preferences_saved'
        order by created_at, id`,
  )
}

describe('GET /api/me/preferences', () => {
  it('gives a user who never chose the defaults (light, teal, not compact)', async () => {
    for (const [role, cookie] of cookies)
      expect(prefsOf(await get(cookie)), role).toEqual(defaultPreferences)
  })

  it('answers 401 signed out', async () => {
    expectError(await get(undefined), 401, 'UNAUTHENTICATED')
    expectError(await put(undefined, dark), 401, 'UNAUTHENTICATED')
  })
})

describe('PUT /api/me/preferences', () => {
  it('lets every staff role set its own, remembered and audited in its hospital', async () => {
    for (const [role, cookie] of cookies) {
      const before = (await audits(hospitalA)).length
      const mine: Preferences = {
        theme: role === 'viewer' ? 'system' : 'dark',
        primaryColor: role === 'nurse' ? 'orange' : 'blue',
        compact: role !== 'doctor',
      }
      expect(prefsOf(await put(cookie, mine)), role).toEqual(mine)
      expect(prefsOf(await get(cookie)), role).toEqual(mine)
      expect(await storedFor(demoEmail(role)), role).toEqual(mine)
      const rows = await audits(hospitalA)
      expect(rows, role).toHaveLength(before + 1)
      expect(rows.at(-1)?.actor_user_id).toBe(await userIdOf(t.db, demoEmail(role)))
      expect(rows.at(-1)?.entity_id).toBe(rows.at(-1)?.actor_user_id)
      expect(rows.at(-1)?.summary).toMatch(/^Appearance saved \(theme: /)
    }
    // One user's choice is theirs alone.
    expect(prefsOf(await get(cookies.get('doctor')))).toMatchObject({ compact: false })
    expect(prefsOf(await get(cookies.get('viewer')))).toMatchObject({ theme: 'system' })
  })

  it('records a save that changes nothing as such', async () => {
    const admin = cookies.get('admin')!
    const current = prefsOf(await get(admin))
    prefsOf(await put(admin, current))
    expect((await audits(hospitalA)).at(-1)?.summary).toBe('Appearance saved (no changes)')
  })

  it('lets a platform account (no hospital) set its own, without a tenant audit row', async () => {
    const cookie = await loginSuperAdmin(t.app)
    expect(prefsOf(await get(cookie))).toEqual(defaultPreferences)
    expect(prefsOf(await put(cookie, dark))).toEqual(dark)
    expect(prefsOf(await get(cookie))).toEqual(dark)
    expect(await storedFor(SUPER_ADMIN_EMAIL)).toEqual(dark)
  })

  it('keeps hospitals apart: another hospital’s user changes only their own', async () => {
    const adminA = cookies.get('admin')!
    const before = prefsOf(await get(adminA))
    const auditsA = (await audits(hospitalA)).length
    const adminB = await login(t.app, demoEmail('admin', 'smiledental'))
    const theirs: Preferences = { theme: 'light', primaryColor: 'red', compact: false }
    expect(prefsOf(await put(adminB, theirs))).toEqual(theirs)
    expect(prefsOf(await get(adminA))).toEqual(before)
    expect(await audits(hospitalA)).toHaveLength(auditsA)
    expect((await audits(hospitalB)).at(-1)?.actor_user_id).toBe(
      await userIdOf(t.db, demoEmail('admin', 'smiledental')),
    )
  })

  it.each([
    ['an unknown theme', { ...dark, theme: 'midnight' }, ['theme']],
    ['an unknown colour', { ...dark, primaryColor: 'pink' }, ['primaryColor']],
    ['a colour in another case', { ...dark, primaryColor: 'Blue' }, ['primaryColor']],
    ['compact as text', { ...dark, compact: 'yes' }, ['compact']],
    ['a missing key', { theme: 'dark', primaryColor: 'blue' }, ['compact']],
    ['an unknown key', { ...dark, fontSize: 18 }, ['']],
    ['another user’s id', { ...dark, userId: 'someone-else' }, ['']],
    [
      'null values',
      { theme: null, primaryColor: null, compact: null },
      ['compact', 'primaryColor', 'theme'],
    ],
  ])('refuses %s with 400 and changes nothing', async (_name, body, paths) => {
    const cookie = cookies.get('receptionist')!
    const before = prefsOf(await get(cookie))
    const auditsBefore = (await audits(hospitalA)).length
    expect(issuePaths(await put(cookie, body))).toEqual(paths)
    expect(prefsOf(await get(cookie))).toEqual(before)
    expect(await audits(hospitalA)).toHaveLength(auditsBefore)
  })

  it.each([
    ['an array', '[]'],
    ['a string', '"dark"'],
    ['null', 'null'],
    ['broken JSON', '{"theme":'],
  ])('refuses a body that is %s with 400', async (_name, raw) => {
    expectError(await put(cookies.get('nurse'), raw), 400)
  })
})

describe('stored preferences from an older build', () => {
  it('keeps the valid keys and gives defaults for the rest', async () => {
    const id = await userIdOf(t.db, demoEmail('viewer', 'smiledental'))
    await t.db.execute(
      sql`update users set preferences = ${JSON.stringify({ theme: 'dark', primaryColor: 'magenta', legacy: 1 })}::jsonb where id = ${id}`,
    )
    const cookie = await login(t.app, demoEmail('viewer', 'smiledental'))
    expect(prefsOf(await get(cookie))).toEqual({ ...defaultPreferences, theme: 'dark' })
  })
})
