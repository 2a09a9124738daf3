import { sql } from 'drizzle-orm'
import { demoStaff } from '../../src/server/db/seed/demo-staff'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  LAST_ADMIN_MESSAGE,
  type TeamMember,
  userLimitMessage,
} from '../../src/shared/schemas/team'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, login, signIn } from '../support/login'
import { auditActions, invitationToken, teamApi, teamOf } from '../support/team'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 27, Admin for a hospital admin: the team list, role changes, suspend/activate, remove,
// the last-admin rule, the plan's user limit (under concurrency too), cross-tenant 404s.

let t: TestApp
let api: ReturnType<typeof teamApi>
let admin: string
let adminB: string
let hospitalA: string
let hospitalB: string

beforeAll(async () => {
  t = await createTestApp()
  api = teamApi(t.app)
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
}, 180_000) // seeding a fresh database is slow on a busy machine
afterAll(async () => {
  await t?.close()
})

const me = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/user', headers: browserHeaders(cookie) })
const memberOf = async (cookie: string, email: string): Promise<TeamMember> => {
  const found = teamOf(await api.list(cookie)).members.find((m) => m.email === email)
  if (!found) throw new Error(`${email} not listed`)
  return found
}

describe('GET /api/team', () => {
  it('lists the hospital’s own members, its seeded invitations and the seats in use', async () => {
    const team = teamOf(await api.list(admin))
    // One account per role and the specialists (issue 40: a doctor per specialty).
    const staff = (demoStaff.sanjeevani ?? []).map((m) => `${m.local}@sanjeevani.demo`)
    expect(team.members.map((m) => m.email).sort()).toEqual(staff.sort())
    const self = team.members.find((m) => m.isYou)
    expect(self).toMatchObject({ email: demoEmail('admin'), role: 'admin', status: 'active' })
    expect(self?.lastSignInAt).not.toBeNull()
    expect(team.invitations.map((i) => i.name).sort()).toEqual([
      'Dr. Kavita Deshmukh',
      'Rohan Jadhav',
    ])
    expect(team.usage).toEqual({
      maxUsers: 50,
      activeMembers: staff.length,
      pendingInvitations: 2,
    })
  })

  it('is for admins only: other roles 403, a platform account 403, signed out 401', async () => {
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const cookie = await login(t.app, demoEmail(role))
      expectError(await api.list(cookie), 403, 'FORBIDDEN')
      const target = await userIdOf(t.db, demoEmail('viewer'))
      expectError(await api.update(cookie, target, { role: 'doctor' }), 403)
      expectError(await api.remove(cookie, target), 403)
    }
    expectError(await api.list(await loginSuperAdmin(t.app)), 403)
    expectError(await api.list(undefined), 401, 'UNAUTHENTICATED')
  })
})

describe('PATCH /api/team/members/:id', () => {
  it('changes a role, audited, and the member acts with it at once', async () => {
    const email = demoEmail('receptionist')
    const cookie = await login(t.app, email)
    const id = await userIdOf(t.db, email)
    const res = await api.update(admin, id, { role: 'doctor' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<TeamMember>()).toMatchObject({ id, role: 'doctor', status: 'active' })
    expect((await me(cookie)).json()).toMatchObject({ role: 'doctor' })
    expect((await auditActions(t.db, hospitalA)).at(-1)).toBe('team.member_role_changed')
    expect((await api.update(admin, id, { role: 'receptionist' })).statusCode).toBe(200)
  })

  it('refuses bad input with field issues: a role outside the list, unknown keys, nothing', async () => {
    const id = await userIdOf(t.db, demoEmail('viewer'))
    expect(issuePaths(await api.update(admin, id, { role: 'super_admin' }))).toEqual(['role'])
    expect(issuePaths(await api.update(admin, id, { role: 'owner' }))).toEqual(['role'])
    expect(issuePaths(await api.update(admin, id, { status: 'banned' }))).toEqual(['status'])
    expect(issuePaths(await api.update(admin, id, {}))).toEqual([''])
    expect(issuePaths(await api.update(admin, id, { role: 'doctor', isSuperAdmin: true }))).toEqual(
      [''],
    )
    expect(issuePaths(await api.update(admin, 'bad id!', { role: 'doctor' }))).toEqual(['id'])
    expect((await memberOf(admin, demoEmail('viewer'))).role).toBe('viewer')
  })

  it('answers 404 for another hospital’s user, an unknown id and a platform account', async () => {
    const other = await userIdOf(t.db, demoEmail('nurse', 'smiledental'))
    expectError(await api.update(admin, other, { status: 'suspended' }), 404, 'NOT_FOUND')
    expectError(await api.remove(admin, other), 404, 'NOT_FOUND')
    expectError(await api.update(admin, crypto.randomUUID(), { role: 'doctor' }), 404)
    const platform = await userIdOf(t.db, 'superadmin@arogya.demo')
    expectError(await api.update(admin, platform, { status: 'suspended' }), 404)
    expect((await memberOf(adminB, demoEmail('nurse', 'smiledental'))).status).toBe('active')
    expect((await signIn(t.app, demoEmail('nurse', 'smiledental'))).statusCode).toBe(200)
  })
})

describe('suspension', () => {
  it('ends every session of the member at once and refuses sign-in until activated', async () => {
    const email = demoEmail('nurse')
    const id = await userIdOf(t.db, email)
    const first = await login(t.app, email)
    const second = await login(t.app, email)
    expect((await me(first)).statusCode).toBe(200) // cached now
    const res = await api.update(admin, id, { status: 'suspended' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<TeamMember>().status).toBe('suspended')
    for (const cookie of [first, second]) expect((await me(cookie)).statusCode).toBe(401)
    const [sessions] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from sessions where user_id = ${id}`,
    )
    expect(sessions?.n).toBe(0)
    const refused = await signIn(t.app, email)
    expect(refused.statusCode).toBe(403)
    expect(refused.json<{ message: string }>().message).toMatch(/suspended/i)
    expect(teamOf(await api.list(admin)).usage.activeMembers).toBe(
      (demoStaff.sanjeevani ?? []).length - 1,
    )

    expect((await api.update(admin, id, { status: 'active' })).statusCode).toBe(200)
    expect((await signIn(t.app, email)).statusCode).toBe(200)
    expect((await auditActions(t.db, hospitalA)).slice(-2)).toEqual([
      'team.member_suspended',
      'team.member_activated',
    ])
    const events = await queryRows<{ event: string }>(
      t.db,
      sql`select event from security_events where user_id = ${id} and event like 'user.%'
          order by created_at, id`,
    )
    expect(events.map((e) => e.event)).toEqual(['user.suspended', 'user.unsuspended'])
  })
})

describe('the last active admin', () => {
  it('cannot suspend, demote or remove themself (409), and nothing changes', async () => {
    const id = await userIdOf(t.db, demoEmail('admin'))
    const audits = (await auditActions(t.db, hospitalA)).length
    for (const res of [
      await api.update(admin, id, { status: 'suspended' }),
      await api.update(admin, id, { role: 'doctor' }),
      await api.remove(admin, id),
    ])
      expect(expectError(res, 409, 'CONFLICT').message).toBe(LAST_ADMIN_MESSAGE)
    expect((await me(admin)).json()).toMatchObject({ role: 'admin' })
    expect((await auditActions(t.db, hospitalA)).length).toBe(audits)
  })

  it('may step down once another admin is active', async () => {
    const doctor = await userIdOf(t.db, demoEmail('doctor', 'smiledental'))
    const self = await userIdOf(t.db, demoEmail('admin', 'smiledental'))
    expect((await api.update(adminB, doctor, { role: 'admin' })).statusCode).toBe(200)
    expect((await api.update(adminB, self, { role: 'doctor' })).statusCode).toBe(200)
    // Now a doctor: the team screen is closed to them.
    expectError(await api.list(adminB), 403)
    const newAdmin = await login(t.app, demoEmail('doctor', 'smiledental'))
    expect((await api.update(newAdmin, self, { role: 'admin' })).statusCode).toBe(200)
    expect((await api.update(newAdmin, doctor, { role: 'doctor' })).statusCode).toBe(200)
  })
})

describe('DELETE /api/team/members/:id', () => {
  it('deactivates and detaches the member, ends their sessions, keeps the audit trail', async () => {
    const email = demoEmail('viewer')
    const id = await userIdOf(t.db, email)
    const cookie = await login(t.app, email)
    const res = await api.remove(admin, id)
    expect(res.statusCode, res.body).toBe(204)
    expect((await me(cookie)).statusCode).toBe(401)
    const [row] = await queryRows<{ is_active: boolean; hospital_id: string | null }>(
      t.db,
      sql`select is_active, hospital_id from users where id = ${id}`,
    )
    expect(row).toEqual({ is_active: false, hospital_id: null })
    expect(teamOf(await api.list(admin)).members.map((m) => m.email)).not.toContain(email)
    const [audit] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events
          where hospital_id = ${hospitalA} and action = 'team.member_removed' and entity_id = ${id}`,
    )
    expect(audit?.n).toBe(1)
    expect((await signIn(t.app, email)).statusCode).toBe(403)
    expectError(await api.remove(admin, id), 404)
  })

  it('lets a removed member be invited again: the same account returns with a new password', async () => {
    const email = demoEmail('viewer')
    const id = await userIdOf(t.db, email)
    const res = await api.invite(admin, { email, name: 'Vikas Rao', role: 'nurse' })
    expect(res.statusCode, res.body).toBe(201)
    const accepted = await api.accept(await invitationToken(t.db, email), 'Phir-Se-Swagat-2026')
    expect(accepted.statusCode, accepted.body).toBe(201)
    expect(await userIdOf(t.db, email)).toBe(id)
    expect((await signIn(t.app, email)).statusCode).toBe(401)
    const cookie = await login(t.app, email, 'Phir-Se-Swagat-2026')
    expect((await me(cookie)).json()).toMatchObject({ role: 'nurse', hospitalId: hospitalA })
    expect((await memberOf(admin, email)).status).toBe('active')
  })
})

describe('the plan’s user limit (max_users)', () => {
  const setMax = (n: number) =>
    t.db.execute(sql`update hospitals set max_users = ${n} where id = ${hospitalB}`)
  const seats = async () => teamOf(await api.list(adminB)).usage

  it('is enforced on invite and on activate with a message naming the limit', async () => {
    const used = await seats()
    const max = used.activeMembers + used.pendingInvitations + 1
    await setMax(max)
    const ok = await api.invite(adminB, {
      email: 'kiran.rao@example.in',
      name: 'Kiran Rao',
      role: 'nurse',
    })
    expect(ok.statusCode, ok.body).toBe(201)
    const over = await api.invite(adminB, {
      email: 'asha.menon@example.in',
      name: 'Asha Menon',
      role: 'viewer',
    })
    expect(expectError(over, 409, 'CONFLICT').message).toBe(userLimitMessage(max))
    expect(userLimitMessage(max)).toContain(`up to ${max} users`)

    // Suspending frees a seat; another invite takes it; activating is then over the limit.
    const viewer = await userIdOf(t.db, demoEmail('viewer', 'smiledental'))
    expect((await api.update(adminB, viewer, { status: 'suspended' })).statusCode).toBe(200)
    expect(
      (
        await api.invite(adminB, {
          email: 'asha.menon@example.in',
          name: 'Asha Menon',
          role: 'viewer',
        })
      ).statusCode,
    ).toBe(201)
    const activate = await api.update(adminB, viewer, { status: 'active' })
    expect(expectError(activate, 409).message).toBe(userLimitMessage(max))
    expect((await memberOf(adminB, demoEmail('viewer', 'smiledental'))).status).toBe('suspended')
    // Revoking an invitation frees the seat again.
    const asha = teamOf(await api.list(adminB)).invitations.find(
      (i) => i.email === 'asha.menon@example.in',
    )!
    expect((await api.revoke(adminB, asha.id)).statusCode).toBe(204)
    expect((await api.update(adminB, viewer, { status: 'active' })).statusCode).toBe(200)
  })

  it('holds under concurrency: 10 invites at one free seat give exactly one success', async () => {
    const used = await seats()
    await setMax(used.activeMembers + used.pendingInvitations + 1)
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.invite(adminB, { email: `rush.${i}@example.in`, name: `Rush ${i}`, role: 'viewer' }),
      ),
    )
    const codes = results.map((r) => r.statusCode).sort()
    expect(codes).toEqual([201, ...Array<number>(9).fill(409)])
    const after = await seats()
    expect(after.activeMembers + after.pendingInvitations).toBe(after.maxUsers)
  })
})
