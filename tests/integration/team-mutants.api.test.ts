import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamMember } from '../../src/shared/schemas/team'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { teamApi } from '../support/team'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// The services-team mutation part (stryker/groups.mjs, docs/decisions/024): who counts as a
// member, what a change that changes nothing does, and what the audit trail says.

let t: TestApp
let api: ReturnType<typeof teamApi>
let admin: string
let hospitalA: string
let adminId: string

beforeAll(async () => {
  t = await createTestApp()
  api = teamApi(t.app)
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  adminId = await userIdOf(t.db, demoEmail('admin'))
}, 180_000)
afterAll(async () => {
  await t?.close()
})

async function audits(id: string) {
  return queryRows<{ action: string; summary: string }>(
    t.db,
    sql`select action, summary from audit_events
        where hospital_id = ${hospitalA} and entity_id = ${id} order by created_at, id`,
  )
}

async function userRow(id: string) {
  const [row] = await queryRows<{
    role: string
    banned: boolean
    ban_reason: string | null
    is_active: boolean
    updated_at: string
  }>(
    t.db,
    sql`select role, banned, ban_reason, is_active, updated_at::text from users where id = ${id}`,
  )
  return row
}

describe('PATCH /api/team/members/:id', () => {
  it('answers "User not found" for a platform role in the hospital, however it is flagged', async () => {
    const id = await userIdOf(t.db, demoEmail('receptionist'))
    await t.db.execute(sql`update users set role = 'super_admin' where id = ${id}`)
    try {
      const res = await api.update(admin, id, { role: 'doctor' })
      expect(expectError(res, 404, 'NOT_FOUND').message).toBe('User not found')
    } finally {
      await t.db.execute(sql`update users set role = 'receptionist' where id = ${id}`)
    }
  })

  it('lets the only admin keep their role and status: nothing changes, nothing is audited', async () => {
    const before = await userRow(adminId)
    const count = (await audits(adminId)).length
    for (const body of [
      { role: 'admin' },
      { status: 'active' },
      { role: 'admin', status: 'active' },
    ]) {
      const res = await api.update(admin, adminId, body)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json<TeamMember>()).toMatchObject({
        id: adminId,
        role: 'admin',
        status: 'active',
        isYou: true,
      })
    }
    expect(await userRow(adminId)).toEqual(before)
    expect((await audits(adminId)).length).toBe(count)
  })

  it('changes a role, suspends and activates, each audited once in its own words', async () => {
    const id = await userIdOf(t.db, demoEmail('nurse'))
    const [{ name } = { name: '' }] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from users where id = ${id}`,
    )
    const start = (await audits(id)).length

    const role = await api.update(admin, id, { role: 'receptionist' })
    expect(role.statusCode, role.body).toBe(200)
    expect(role.json<TeamMember>()).toMatchObject({
      role: 'receptionist',
      status: 'active',
      isYou: false,
    })

    // The same role again changes nothing and writes nothing.
    const before = await userRow(id)
    expect((await api.update(admin, id, { role: 'receptionist' })).statusCode).toBe(200)
    expect(await userRow(id)).toEqual(before)

    expect((await api.update(admin, id, { status: 'suspended' })).statusCode).toBe(200)
    expect(await userRow(id)).toMatchObject({
      banned: true,
      ban_reason: 'Suspended by the hospital admin',
    })
    // A role change keeps a suspended member suspended.
    const whileSuspended = await api.update(admin, id, { role: 'nurse' })
    expect(whileSuspended.statusCode, whileSuspended.body).toBe(200)
    expect(whileSuspended.json<TeamMember>().status).toBe('suspended')
    expect(await userRow(id)).toMatchObject({ banned: true, role: 'nurse' })

    expect((await api.update(admin, id, { status: 'active' })).statusCode).toBe(200)
    expect(await userRow(id)).toMatchObject({ banned: false, ban_reason: null, is_active: true })

    expect((await audits(id)).slice(start)).toEqual([
      {
        action: 'team.member_role_changed',
        summary: `Changed the role of ${name} from nurse to receptionist`,
      },
      { action: 'team.member_suspended', summary: `Suspended ${name} and ended their sessions` },
      {
        action: 'team.member_role_changed',
        summary: `Changed the role of ${name} from receptionist to nurse`,
      },
      { action: 'team.member_activated', summary: `Activated ${name}` },
    ])
  })
})

describe('DELETE /api/team/members/:id', () => {
  it('audits the removal with the member’s name and email', async () => {
    const email = demoEmail('doctor')
    const id = await userIdOf(t.db, email)
    const [{ name } = { name: '' }] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from users where id = ${id}`,
    )
    const res = await api.remove(admin, id)
    expect(res.statusCode, res.body).toBe(204)
    expect((await audits(id)).at(-1)).toEqual({
      action: 'team.member_removed',
      summary: `Removed ${name} <${email}> from the team`,
    })
  })
})
