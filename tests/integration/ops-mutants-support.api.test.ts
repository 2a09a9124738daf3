import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SupportAccessOverview, SupportGrant } from '../../src/shared/schemas/support-access'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-ops mutation part (stryker/groups.mjs, docs/decisions/024), support access: who
// granted and revoked, which grant a revoke or an entry touches, and the exact refusals and
// audit rows of revoking, entering and leaving a hospital. The rest: ops-mutants.api.test.ts.

let t: TestApp
let admin: string
let adminB: string
let a: string

type Method = 'GET' | 'POST' | 'DELETE'
function req(cookie: string, method: Method, url: string, body?: unknown) {
  if (method === 'GET') return t.app.inject({ method, url, headers: { cookie } })
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}
const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(t.db, query))[0]
const nameOf = async (id: string) =>
  (
    await one<{ n: string }>(
      sql`select name || ' <' || email || '>' as n from users where id = ${id}`,
    )
  )?.n
const hospitalName = async (id: string) =>
  (await one<{ name: string }>(sql`select name from hospitals where id = ${id}`))?.name ?? ''

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
}, 180_000)
afterAll(async () => {
  await t?.close()
})

describe('support access', () => {
  const grant = async (cookie: string, hours: number, reason: string) => {
    const res = await req(cookie, 'POST', '/api/support-access', { hours, reason })
    expect(res.statusCode, res.body).toBe(201)
    return res.json<SupportGrant>()
  }
  const revoke = (cookie: string, id: string) =>
    req(cookie, 'POST', `/api/support-access/${id}/revoke`)
  const revokedAt = async (id: string) =>
    (
      await one<{ at: string | null }>(
        sql`select revoked_at::text as at from support_access_grants where id = ${id}`,
      )
    )?.at

  it('revokes only the grant named, names who granted and revoked, audits it, then answers 409', async () => {
    const adminId = await userIdOf(t.db, demoEmail('admin'))
    const me = await nameOf(adminId)
    const first = await grant(admin, 2, 'Set up reminders')
    const second = await grant(admin, 3, 'Check templates')
    const other = await grant(adminB, 2, 'Smile Dental help')
    const overview = (await req(admin, 'GET', '/api/support-access')).json<SupportAccessOverview>()
    expect(overview.grants.find((g) => g.id === first.id)).toMatchObject({
      grantedBy: me,
      revokedBy: null,
      status: 'active',
    })
    const res = await revoke(admin, first.id)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<SupportGrant>()).toMatchObject({
      id: first.id,
      grantedBy: me,
      revokedBy: me,
      status: 'revoked',
    })
    expect(await revokedAt(second.id)).toBeNull()
    expect(await revokedAt(other.id)).toBeNull()
    const audit = await queryRows(
      t.db,
      sql`select action, actor_user_id, entity_type, summary from audit_events
          where hospital_id = ${a} and entity_id = ${first.id} order by created_at, id`,
    )
    expect(audit.at(-1)).toEqual({
      action: 'support.revoked',
      actor_user_id: adminId,
      entity_type: 'support_access_grant',
      summary: 'Revoked support access granted for: Set up reminders',
    })
    const ended = 'This support access has already ended'
    expect(expectError(await revoke(admin, first.id), 409, 'CONFLICT').message).toBe(ended)
    await t.db.execute(
      sql`update support_access_grants set expires_at = now() - interval '1 second' where id = ${second.id}`,
    )
    expect(expectError(await revoke(admin, second.id), 409, 'CONFLICT').message).toBe(ended)
    expect(await revokedAt(second.id)).toBeNull()
    const foreign = await revoke(admin, other.id)
    expect(expectError(foreign, 404, 'NOT_FOUND').message).toBe('Support access grant not found')
    await revoke(adminB, other.id)
  })

  it('enters under the longest live grant, never a revoked one, audited; exit leaves one session only', async () => {
    const sa = await loginSuperAdmin(t.app)
    const saId = await userIdOf(t.db, SUPER_ADMIN_EMAIL)
    const name = await hospitalName(a)
    const enter = (cookie: string, id = a) =>
      req(cookie, 'POST', `/api/admin/hospitals/${id}/support-session`)
    const missing = await enter(sa, '00000000-0000-4000-8000-000000000000')
    expect(expectError(missing, 404, 'NOT_FOUND').message).toBe('Hospital not found')
    const revoked = await grant(admin, 9, 'Revoked at once')
    await revoke(admin, revoked.id)
    expect(expectError(await enter(sa), 403, 'FORBIDDEN').message).toBe(
      `${name} has not granted support access. Ask its admin to grant it in Admin → Support access.`,
    )
    await grant(admin, 1, 'Short look')
    const long = await grant(admin, 5, 'Longer look')
    await grant(admin, 2, 'Middle look')
    const res = await enter(sa)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      hospitalId: a,
      hospitalName: name,
      expiresAt: long.expiresAt,
      scope: 'support',
    })
    const platform = await queryRows(
      t.db,
      sql`select action, actor_user_id, entity_type, entity_id, summary from platform_audit_events
          where hospital_id = ${a} and action like 'support.%' order by created_at, id`,
    )
    expect(platform.at(-1)).toEqual({
      action: 'support.entered',
      actor_user_id: saId,
      entity_type: 'hospital',
      entity_id: a,
      summary: `Entered ${name} under support access until ${long.expiresAt}`,
    })
    // The hospital's admin sees who entered; an entry of no one known is Arogya support's.
    await t.db.execute(sql`insert into audit_events (hospital_id, action, entity_type, summary)
      values (${a}, 'platform.support.checked', 'hospital', 'Checked by the platform')`)
    const { actions } = (
      await req(admin, 'GET', '/api/support-access')
    ).json<SupportAccessOverview>()
    expect(actions[0]).toMatchObject({ action: 'platform.support.checked', by: 'Arogya support' })
    expect(actions.find((x) => x.action === 'platform.support.entered')?.by).toBe(
      await nameOf(saId),
    )

    const second = await loginSuperAdmin(t.app)
    expect((await enter(second)).statusCode).toBe(200)
    expect((await req(second, 'DELETE', '/api/admin/support-session')).statusCode).toBe(204)
    expect((await req(sa, 'GET', '/api/patients')).statusCode).toBe(200)
    expectError(await req(second, 'GET', '/api/patients'), 403, 'FORBIDDEN')
    const exits = sql`select summary from platform_audit_events where action = 'support.exited'`
    expect(await queryRows(t.db, exits)).toEqual([{ summary: `Left ${name}` }])
    // Leaving when not inside changes nothing and audits nothing.
    expect((await req(second, 'DELETE', '/api/admin/support-session')).statusCode).toBe(204)
    expect(await queryRows(t.db, exits)).toHaveLength(1)
    await req(sa, 'DELETE', '/api/admin/support-session')
  })
})
