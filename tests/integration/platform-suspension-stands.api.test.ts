import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PlatformUserList } from '../../src/shared/schemas/platform'
import { PLATFORM_SUSPENDED_MESSAGE } from '../../src/shared/schemas/team'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { adminCall } from '../support/platform'
import { invitationToken, teamApi } from '../support/team'
import { loginSuperAdmin } from '../support/two-factor'
import { createTestApp, demoEmail, queryRows, type TestApp, userIdOf } from '../support/test-app'

/*
 * Issue 39, item 3: a member the platform suspended cannot come back through the hospital:
 * not by Activate, not by Remove then re-invite (even as admin), not by accepting an
 * invitation sent before the suspension. Whatever reason the platform gave.
 */
let t: TestApp
let sa: string
let admin: string

beforeAll(async () => {
  t = await createTestApp()
  sa = await loginSuperAdmin(t.app)
  admin = await login(t.app, demoEmail('admin'))
})
afterAll(async () => {
  await t?.close()
})

const banned = async (id: string) =>
  (await queryRows<{ banned: boolean }>(t.db, sql`select banned from users where id = ${id}`))[0]
    ?.banned

async function platformStatus(email: string) {
  const list = (
    await adminCall(t.app, sa, 'GET', '/api/admin/users?limit=100')
  ).json<PlatformUserList>()
  return list.items.find((u) => u.email === email)?.status
}

describe('a platform suspension stands', () => {
  it('remove, then re-invite as admin: refused with 409 naming the platform suspension', async () => {
    const email = demoEmail('nurse')
    const nurse = await userIdOf(t.db, email)
    const team = teamApi(t.app)
    const suspend = await adminCall(t.app, sa, 'PATCH', `/api/admin/users/${nurse}`, {
      status: 'suspended',
    })
    expect(suspend.statusCode, suspend.body).toBe(200)

    expect((await team.remove(admin, nurse)).statusCode).toBe(204)
    const again = expectError(
      await team.invite(admin, { email, name: 'Back Door', role: 'admin' }),
      409,
      'CONFLICT',
    )
    expect(again.message).toBe(PLATFORM_SUSPENDED_MESSAGE)
    expect(again.issues?.[0]?.path).toBe('email')
    expect(await banned(nurse)).toBe(true)
    expect(await platformStatus(email)).toBe('suspended')
  })

  it('an invitation sent before the suspension cannot be accepted after it', async () => {
    const team = teamApi(t.app)
    const email = 'late.joiner@example.in'
    const sent = await team.invite(admin, { email, name: 'Late Joiner', role: 'receptionist' })
    expect(sent.statusCode, sent.body).toBe(201)
    const token = await invitationToken(t.db, email)
    // The address already had a removed account that the platform then suspended.
    await t.db.execute(sql`
      insert into users (id, name, email, email_verified, role, is_active, banned, ban_reason,
        first_name, last_name, created_at, updated_at)
      values (${crypto.randomUUID()}, 'Late Joiner', ${email}, true, 'receptionist', false, true,
        'Fraud report', 'Late', 'Joiner', now(), now())`)

    const accept = expectError(await team.accept(token, 'a-Strong-passw0rd!'), 409, 'CONFLICT')
    expect(accept.message).toBe(PLATFORM_SUSPENDED_MESSAGE)
    const [row] = await queryRows<{ banned: boolean; hospital_id: string | null }>(
      t.db,
      sql`select banned, hospital_id from users where email = ${email}`,
    )
    expect(row).toEqual({ banned: true, hospital_id: null })
  })

  it('a ban with any reason (better-auth ban-user) is the platform’s: the hospital cannot activate it', async () => {
    const email = demoEmail('viewer')
    const viewer = await userIdOf(t.db, email)
    const ban = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/ban-user',
      headers: browserHeaders(sa),
      payload: { userId: viewer, banReason: 'Left the clinic' },
    })
    expect(ban.statusCode, ban.body).toBe(200)
    const undo = expectError(
      await teamApi(t.app).update(admin, viewer, { status: 'active' }),
      409,
      'CONFLICT',
    )
    expect(undo.message).toMatch(/only the platform can reactivate/)
    expect(await banned(viewer)).toBe(true)
  })

  it('the hospital’s own suspension stays the hospital’s to lift', async () => {
    const id = await userIdOf(t.db, demoEmail('doctor'))
    const team = teamApi(t.app)
    expect((await team.update(admin, id, { status: 'suspended' })).statusCode).toBe(200)
    const back = await team.update(admin, id, { status: 'active' })
    expect(back.statusCode, back.body).toBe(200)
    expect(await banned(id)).toBe(false)
  })
})
