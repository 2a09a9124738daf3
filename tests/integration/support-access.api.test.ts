import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CurrentUser } from '../../src/shared/schemas/auth'
import type { HospitalList } from '../../src/shared/schemas/platform'
import type {
  SupportAccessOverview,
  SupportGrant,
  SupportVisit,
} from '../../src/shared/schemas/support-access'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { manualPatientPayload } from '../support/patients'
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

// Issue 27, support access granted by the hospital (docs/decisions/032): only under a live grant
// may a super admin act inside a hospital; expiry and revocation take effect on the next request.

let t: TestApp
let admin: string
let adminB: string
let doctor: string
let sa: string
let saId: string
let a: string
let b: string

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'
function call(cookie: string | undefined, method: Method, url: string, body?: unknown) {
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

const grant = (cookie: string, hours = 2, reason = 'Help setting up WhatsApp templates') =>
  call(cookie, 'POST', '/api/support-access', { hours, reason })
const enter = (hospitalId: string, cookie = sa) =>
  call(cookie, 'POST', `/api/admin/hospitals/${hospitalId}/support-session`)
const newPatient = (name: string) => manualPatientPayload({ name, phone: '98765 00123' })

async function expireGrants(hospitalId: string) {
  await t.db.execute(
    sql`update support_access_grants set expires_at = now() - interval '1 second'
        where hospital_id = ${hospitalId}`,
  )
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  doctor = await login(t.app, demoEmail('doctor'))
  sa = await loginSuperAdmin(t.app)
  saId = await userIdOf(t.db, SUPER_ADMIN_EMAIL)
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
})
afterAll(async () => {
  await t?.close()
})

describe('granting support access', () => {
  it('refuses bad input with field messages and changes nothing', async () => {
    expect(issuePaths(await grant(admin, 0))).toEqual(['hours'])
    expect(issuePaths(await grant(admin, 73))).toEqual(['hours'])
    expect(issuePaths(await grant(admin, 1.5))).toEqual(['hours'])
    expect(issuePaths(await grant(admin, 2, '  '))).toEqual(['reason'])
    expect(
      issuePaths(
        await call(admin, 'POST', '/api/support-access', { hours: 2, reason: 'ok', x: 1 }),
      ),
    ).toContain('')
    const rows = await queryRows(t.db, sql`select id from support_access_grants`)
    expect(rows).toEqual([])
  })

  it('is for the hospital admin only: 401 signed out, 403 to staff', async () => {
    expectError(await grant(undefined as unknown as string), 401, 'UNAUTHENTICATED')
    expectError(await grant(doctor), 403, 'FORBIDDEN')
    expectError(await call(doctor, 'GET', '/api/support-access'), 403, 'FORBIDDEN')
  })

  it('grants for a set number of hours, audited, and lists it as active', async () => {
    const res = await grant(admin, 3)
    expect(res.statusCode, res.body).toBe(201)
    const g = res.json<SupportGrant>()
    expect(g).toMatchObject({ hours: 3, status: 'active', revokedAt: null })
    const hours = (Date.parse(g.expiresAt) - Date.parse(g.createdAt)) / 3_600_000
    expect(hours).toBeCloseTo(3, 2)
    const overview = (await call(admin, 'GET', '/api/support-access')).json<SupportAccessOverview>()
    expect(overview.grants.map((x) => x.id)).toContain(g.id)
    const audit = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where hospital_id = ${a} and entity_id = ${g.id}`,
    )
    expect(audit.map((r) => r.action)).toEqual(['support.granted'])
    // The other hospital's admin sees none of it.
    const other = (await call(adminB, 'GET', '/api/support-access')).json<SupportAccessOverview>()
    expect(other.grants).toEqual([])
  })
})

describe('a super admin inside a hospital', () => {
  it('without a grant: Enter is refused, and tenant routes stay closed', async () => {
    expectError(await enter(b), 403, 'FORBIDDEN')
    expectError(await call(sa, 'GET', '/api/patients'), 403, 'FORBIDDEN')
    expectError(await enter('00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND')
    expectError(await enter(a, admin), 403, 'FORBIDDEN')
  })

  it('with a live grant: enters, acts as the support role, audited with their own id, seen by the hospital admin', async () => {
    const list = (await call(sa, 'GET', '/api/admin/hospitals')).json<HospitalList>()
    expect(list.items.find((h) => h.id === a)?.supportAccessUntil).not.toBeNull()
    expect(list.items.find((h) => h.id === b)?.supportAccessUntil).toBeNull()

    const res = await enter(a)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<SupportVisit>()).toMatchObject({ hospitalId: a })

    const me = (await call(sa, 'GET', '/api/auth/user')).json<CurrentUser>()
    expect(me).toMatchObject({ hospitalId: a, role: 'support', isSuperAdmin: true })
    expect(me.supportVisit?.hospitalName).toBe(me.hospitalName)

    expect((await call(sa, 'GET', '/api/patients')).statusCode).toBe(200)
    const created = await call(
      sa,
      'POST',
      '/api/patients/manual',
      newPatient('Support Created Patient'),
    )
    expect(created.statusCode, created.body).toBe(201)
    const id = created.json<{ id: string }>().id
    const [row] = await queryRows<{ actor_user_id: string; impersonator_user_id: string }>(
      t.db,
      sql`select actor_user_id, impersonator_user_id from audit_events
          where hospital_id = ${a} and entity_id = ${id}`,
    )
    expect(row).toEqual({ actor_user_id: saId, impersonator_user_id: saId })

    const overview = (await call(admin, 'GET', '/api/support-access')).json<SupportAccessOverview>()
    const summaries = overview.actions.map((x) => x.action)
    expect(summaries).toContain('platform.support.entered')
    expect(overview.actions.some((x) => x.summary.includes('Support Created Patient'))).toBe(true)
    expect(overview.actions[0]?.by).toContain(SUPER_ADMIN_EMAIL)
  })

  it('does not open another hospital, nor let support manage its own access', async () => {
    const pid = await queryRows<{ id: string }>(
      t.db,
      sql`select id from patients where hospital_id = ${b} limit 1`,
    )
    expectError(await call(sa, 'GET', `/api/patients/${pid[0]?.id ?? ''}`), 404, 'NOT_FOUND')
    expectError(await grant(sa, 72), 403, 'SUPPORT_NOT_ALLOWED')
    expectError(await call(sa, 'GET', '/api/support-access'), 403, 'FORBIDDEN')
  })

  it('is refused at once when the grant expires, and the session is back on the platform', async () => {
    await expireGrants(a)
    expectError(await call(sa, 'GET', '/api/patients'), 403, 'SUPPORT_ACCESS_ENDED')
    const me = (await call(sa, 'GET', '/api/auth/user')).json<CurrentUser>()
    expect(me).toMatchObject({ hospitalId: null, supportVisit: null })
    expectError(await call(sa, 'GET', '/api/patients'), 403, 'FORBIDDEN')
    expectError(await enter(a), 403, 'FORBIDDEN')
  })

  it('is refused at once when the hospital revokes the grant', async () => {
    const g = (await grant(admin, 1)).json<SupportGrant>()
    expect((await enter(a)).statusCode).toBe(200)
    expect((await call(sa, 'GET', '/api/patients')).statusCode).toBe(200)
    const revoked = await call(admin, 'POST', `/api/support-access/${g.id}/revoke`)
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect(revoked.json<SupportGrant>().status).toBe('revoked')
    expectError(await call(sa, 'GET', '/api/patients'), 403, 'SUPPORT_ACCESS_ENDED')
    expectError(await call(sa, 'GET', '/api/patients'), 403, 'FORBIDDEN')
    expectError(await call(admin, 'POST', `/api/support-access/${g.id}/revoke`), 409, 'CONFLICT')
  })

  it('a second session of the same super admin is not inside: the mark is per session', async () => {
    const g = (await grant(admin, 1)).json<SupportGrant>()
    expect((await enter(a)).statusCode).toBe(200)
    const other = await loginSuperAdmin(t.app)
    expectError(await call(other, 'GET', '/api/patients'), 403, 'FORBIDDEN')
    expect((await call(sa, 'GET', '/api/patients')).statusCode).toBe(200)
    // Exit: back to the platform at once, audited.
    expect((await call(sa, 'DELETE', '/api/admin/support-session')).statusCode).toBe(204)
    expectError(await call(sa, 'GET', '/api/patients'), 403, 'FORBIDDEN')
    const exits = await queryRows(
      t.db,
      sql`select id from audit_events where hospital_id = ${a} and action = 'platform.support.exited'`,
    )
    expect(exits.length).toBe(1)
    await call(admin, 'POST', `/api/support-access/${g.id}/revoke`)
  })

  it('another hospital’s grant id is a 404 to revoke', async () => {
    const g = (await grant(adminB, 1)).json<SupportGrant>()
    expectError(await call(admin, 'POST', `/api/support-access/${g.id}/revoke`), 404, 'NOT_FOUND')
    expectError(await call(admin, 'POST', '/api/support-access/not-a-uuid/revoke'), 400)
  })
})
