import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loginSuperAdmin } from '../support/two-factor'
import { browserHeaders, login, signIn } from '../support/login'
import { createTestApp, demoEmail, queryRows, type TestApp, userIdOf } from '../support/test-app'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

describe('suspension by the platform super admin', () => {
  it('ends every session of the user and refuses sign-in with a clear message', async () => {
    const email = demoEmail('nurse', 'smiledental')
    const userId = await userIdOf(t.db, email)
    const first = await login(t.app, email)
    const second = await login(t.app, email)
    const admin = await loginSuperAdmin(t.app)

    const ban = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/ban-user',
      headers: browserHeaders(admin),
      payload: { userId, banReason: 'Left the clinic' },
    })
    expect(ban.statusCode).toBe(200)

    for (const cookie of [first, second]) {
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/auth/user',
        headers: browserHeaders(cookie),
      })
      expect(me.statusCode).toBe(401)
    }
    const [sessions] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from sessions where user_id = ${userId}`,
    )
    expect(sessions?.n).toBe(0)
    const again = await signIn(t.app, email)
    expect(again.statusCode).toBe(403)
    expect(again.json<{ message: string }>().message).toMatch(/suspended/i)
  })

  it('is the super admin’s power only: a hospital admin cannot suspend anyone', async () => {
    const admin = await login(t.app, demoEmail('admin', 'smiledental'))
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/ban-user',
      headers: browserHeaders(admin),
      payload: { userId: await userIdOf(t.db, demoEmail('viewer', 'smiledental')) },
    })
    expect(res.statusCode).toBe(403)
    expect((await signIn(t.app, demoEmail('viewer', 'smiledental'))).statusCode).toBe(200)
  })
})
