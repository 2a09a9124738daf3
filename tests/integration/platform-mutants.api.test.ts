import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  HospitalDetail,
  PlatformUser,
  PlatformUserList,
} from '../../src/shared/schemas/platform'
import { adminCall, newHospital } from '../support/platform'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 30, mutation group services-platform: tests for the platform users
// (src/server/modules/platform/users.service.ts): the list with its filters, paging and total;
// PATCH /api/admin/users/:id with its exact response, database state, platform audit rows,
// security events, ended sessions and the seat check of the hospital's plan.
//
// Equivalent mutants (no caller can observe them):
// - 77:9 `if (match)` => true: or() of two conditions always returns a condition.
// - 91:46 `total?.n` => `total.n`, 214:13 `seats?.n` => `seats.n`: count() always returns a row.
// - 140:13, 141:13 `... !== undefined` => true: Drizzle's update drops keys whose value is
//   undefined, so `{ role: undefined }` sets nothing.
// - 177:7 `!row` => false and 177:28 'User' => "": the row was just updated in a committed
//   transaction; it can only be gone after a concurrent delete between two statements.
// - 198:7 `!current.hospitalId` => false: for a platform account the hospital lookup by a null
//   id finds nothing, so no seat limit applies either way.
// - 217:34 'This hospital' => "": a member's hospital always exists (foreign key), so its name
//   is never null.

let t: TestApp
let sa: string
let saId: string
let h: HospitalDetail

const ids = { a: 'pm-anita', b: 'pm-bhavna', c: 'pm-chetan', d: 'pm-deepa' }
const names = { a: 'Anita Rao', b: 'Bhavna Iyer', c: 'Chetan Kulkarni', d: 'Deepa Menon' }
const emailOf = (k: keyof typeof ids) => `${ids[k]}@pm.test`

beforeAll(async () => {
  t = await createTestApp()
  sa = await loginSuperAdmin(t.app)
  saId = await userIdOf(t.db, SUPER_ADMIN_EMAIL)
  h = (await adminCall(t.app, sa, 'POST', '/api/admin/hospitals', newHospital('pm'))).json()
  const add = (k: keyof typeof ids, role: string, active: boolean, banned: boolean) =>
    t.db.execute(
      sql`insert into users (id, name, email, role, hospital_id, is_active, banned, ban_reason)
          values (${ids[k]}, ${names[k]}, ${emailOf(k)}, ${role}, ${h.id}, ${active}, ${banned},
                  ${banned ? 'Suspended by the platform' : null})`,
    )
  await add('a', 'admin', true, false)
  await add('b', 'doctor', true, false)
  await add('c', 'nurse', false, false)
  await add('d', 'receptionist', true, true)
  // Over full: two active members, a plan limit of one.
  await t.db.execute(sql`update hospitals set max_users = 1 where id = ${h.id}`)
})
afterAll(async () => {
  await t?.close()
})

const patch = (id: string, body: unknown) =>
  adminCall(t.app, sa, 'PATCH', `/api/admin/users/${id}`, body)
const list = async (query: string) => {
  const res = await adminCall(t.app, sa, 'GET', `/api/admin/users?${query}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<PlatformUserList>()
}

async function createdAt(id: string): Promise<string> {
  const [row] = await queryRows<{ at: string }>(
    t.db,
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at from users where id = ${id}`,
  )
  return row?.at ?? ''
}

async function userOf(
  k: keyof typeof ids,
  over: Partial<PlatformUser> & Pick<PlatformUser, 'role' | 'isActive' | 'status'>,
): Promise<PlatformUser> {
  return {
    id: ids[k],
    name: names[k],
    email: emailOf(k),
    isSuperAdmin: false,
    hospitalId: h.id,
    hospitalName: h.name,
    plan: h.plan,
    createdAt: await createdAt(ids[k]),
    ...over,
  }
}

const dbUser = async (k: keyof typeof ids) =>
  (
    await queryRows(
      t.db,
      sql`select role, is_active, banned, ban_reason, ban_expires from users where id = ${ids[k]}`,
    )
  )[0]

const audits = (k: keyof typeof ids) =>
  queryRows(
    t.db,
    sql`select actor_user_id, hospital_id, action, entity_type, entity_id, summary
        from platform_audit_events where entity_id = ${ids[k]} order by created_at, id`,
  )
const audit = (k: keyof typeof ids, changes: string) => ({
  actor_user_id: saId,
  hospital_id: h.id,
  action: 'user.updated',
  entity_type: 'user',
  entity_id: ids[k],
  summary: `${names[k]} (${emailOf(k)}): ${changes}`,
})

const events = (k: keyof typeof ids) =>
  queryRows(
    t.db,
    sql`select event, email, hospital_id, details from security_events
        where user_id = ${ids[k]} order by created_at, id`,
  )
const event = (k: keyof typeof ids, name: string, details: Record<string, unknown> = {}) => ({
  event: name,
  email: emailOf(k),
  hospital_id: h.id,
  details: { by: saId, ...details },
})

async function addSession(k: keyof typeof ids): Promise<void> {
  await t.db.execute(
    sql`insert into sessions (id, token, user_id, expires_at)
        values (${`s-${ids[k]}`}, ${`tok-${ids[k]}`}, ${ids[k]}, now() + interval '1 day')`,
  )
}
const sessionCount = async (k: keyof typeof ids) =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from sessions where user_id = ${ids[k]}`,
    )
  )[0]?.n

const seatMessage = () =>
  `${h.name} already has 1 active users, its plan's limit. Raise Max users first.`

describe('platform users list', () => {
  it('filters by hospital and search, pages by name, and counts the whole match', async () => {
    const all = await list(`hospitalId=${h.id}`)
    expect(all).toEqual({
      items: [
        await userOf('a', { role: 'admin', isActive: true, status: 'active' }),
        await userOf('b', { role: 'doctor', isActive: true, status: 'active' }),
        await userOf('c', { role: 'nurse', isActive: false, status: 'active' }),
        await userOf('d', { role: 'receptionist', isActive: true, status: 'suspended' }),
      ],
      total: 4,
    })
    const page = await list(`hospitalId=${h.id}&limit=2&offset=1`)
    expect(page.items.map((u) => u.id)).toEqual([ids.b, ids.c])
    expect(page.total).toBe(4)
    const byName = await list(`hospitalId=${h.id}&q=bhavna`)
    expect(byName).toEqual({ items: [all.items[1]], total: 1 })
    const byEmail = await list('q=pm-deepa@PM.test')
    expect(byEmail).toEqual({ items: [all.items[3]], total: 1 })
    expect(await list(`q=nobody-at-all`)).toEqual({ items: [], total: 0 })
  })
})

describe('platform user edits in a hospital beyond its seat limit', () => {
  it('404s an unknown user with its message', async () => {
    const res = await patch('no-such-user', { isActive: false })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'User not found' })
  })

  it('changes the role of an active member without taking a seat; audits only the role', async () => {
    const res = await patch(ids.a, { role: 'doctor' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual(
      await userOf('a', { role: 'doctor', isActive: true, status: 'active' }),
    )
    expect(await dbUser('a')).toEqual({
      role: 'doctor',
      is_active: true,
      banned: false,
      ban_reason: null,
      ban_expires: null,
    })
    expect(await audits('a')).toEqual([audit('a', 'role Admin → Doctor')])
    expect(await events('a')).toEqual([event('a', 'user.role_changed', { role: 'doctor' })])
  })

  it('changes nothing, writes nothing, when role, active state and status are already so', async () => {
    const [before] = await queryRows(t.db, sql`select updated_at from users where id = ${ids.a}`)
    for (const body of [{ role: 'doctor' }, { isActive: true }, { status: 'active' }]) {
      const res = await patch(ids.a, body)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual(
        await userOf('a', { role: 'doctor', isActive: true, status: 'active' }),
      )
    }
    const [after] = await queryRows(t.db, sql`select updated_at from users where id = ${ids.a}`)
    expect(after).toEqual(before)
    expect(await audits('a')).toHaveLength(1)
    expect(await events('a')).toHaveLength(1)
  })

  it('changes the role of a suspended member and keeps the suspension', async () => {
    const res = await patch(ids.d, { role: 'viewer' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual(
      await userOf('d', { role: 'viewer', isActive: true, status: 'suspended' }),
    )
    expect(await dbUser('d')).toEqual({
      role: 'viewer',
      is_active: true,
      banned: true,
      ban_reason: 'Suspended by the platform',
      ban_expires: null,
    })
    expect(await audits('d')).toEqual([audit('d', 'role Receptionist → Viewer')])
    expect(await events('d')).toEqual([event('d', 'user.role_changed', { role: 'viewer' })])
  })

  it('changes the role of an inactive member without a seat, and refuses to activate one', async () => {
    const res = await patch(ids.c, { role: 'viewer' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual(
      await userOf('c', { role: 'viewer', isActive: false, status: 'active' }),
    )
    const refused = await patch(ids.c, { isActive: true })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ code: 'CONFLICT', message: seatMessage() })
    expect(await dbUser('c')).toMatchObject({ role: 'viewer', is_active: false })
    expect(await audits('c')).toEqual([audit('c', 'role Nurse → Viewer')])
  })

  it('refuses to lift a suspension beyond the limit', async () => {
    const refused = await patch(ids.d, { status: 'active' })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ code: 'CONFLICT', message: seatMessage() })
    expect(await dbUser('d')).toMatchObject({ banned: true })
    expect(await audits('d')).toHaveLength(1)
    expect(await events('d')).toHaveLength(1)
  })
})

describe('platform user edits with seats to spare', () => {
  beforeAll(async () => {
    await t.db.execute(sql`update hospitals set max_users = 10 where id = ${h.id}`)
  })

  it('deactivates a member: sessions ended, audited, a sessions-revoked event', async () => {
    await addSession('b')
    const res = await patch(ids.b, { isActive: false })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual(
      await userOf('b', { role: 'doctor', isActive: false, status: 'active' }),
    )
    expect(await sessionCount('b')).toBe(0)
    expect(await audits('b')).toEqual([audit('b', 'deactivated')])
    expect(await events('b')).toEqual([event('b', 'user.sessions_revoked')])
  })

  it('activates a member: audited, no security event', async () => {
    const res = await patch(ids.c, { isActive: true })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual(
      await userOf('c', { role: 'viewer', isActive: true, status: 'active' }),
    )
    expect(await audits('c')).toEqual([audit('c', 'role Nurse → Viewer'), audit('c', 'activated')])
    expect(await events('c')).toEqual([event('c', 'user.role_changed', { role: 'viewer' })])
  })

  it('suspends a member: banned by the platform, sessions ended, audited, an event', async () => {
    await addSession('a')
    const res = await patch(ids.a, { status: 'suspended' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual(
      await userOf('a', { role: 'doctor', isActive: true, status: 'suspended' }),
    )
    expect(await dbUser('a')).toEqual({
      role: 'doctor',
      is_active: true,
      banned: true,
      ban_reason: 'Suspended by the platform',
      ban_expires: null,
    })
    expect(await sessionCount('a')).toBe(0)
    expect((await audits('a'))[1]).toEqual(audit('a', 'suspended'))
    expect(await events('a')).toEqual([
      event('a', 'user.role_changed', { role: 'doctor' }),
      event('a', 'user.suspended'),
    ])
  })

  it('lifts a suspension: ban cleared with its reason and expiry, sessions kept, audited, an event', async () => {
    await t.db.execute(
      sql`update users set ban_expires = now() + interval '9 days' where id = ${ids.d}`,
    )
    await addSession('d')
    const res = await patch(ids.d, { status: 'active' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual(
      await userOf('d', { role: 'viewer', isActive: true, status: 'active' }),
    )
    expect(await dbUser('d')).toEqual({
      role: 'viewer',
      is_active: true,
      banned: false,
      ban_reason: null,
      ban_expires: null,
    })
    expect(await sessionCount('d')).toBe(1)
    expect(await audits('d')).toEqual([
      audit('d', 'role Receptionist → Viewer'),
      audit('d', 'unsuspended'),
    ])
    expect(await events('d')).toEqual([
      event('d', 'user.role_changed', { role: 'viewer' }),
      event('d', 'user.unsuspended'),
    ])
  })
})

describe('GET /api/admin/users: the order', () => {
  it('lists the platform accounts first, then the hospitals’ members', async () => {
    const { items: users } = await list('limit=100')
    const firstHospital = users.findIndex((u) => u.hospitalId !== null)
    expect(firstHospital).toBeGreaterThan(0)
    expect(users.slice(0, firstHospital).every((u) => u.hospitalName === null)).toBe(true)
    expect(users.slice(firstHospital).every((u) => u.hospitalName !== null)).toBe(true)
  })
})
