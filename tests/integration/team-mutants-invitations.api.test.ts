import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLATFORM_SUSPENSION_REASON } from '../../src/server/modules/platform/users.service'
import {
  EMAIL_TAKEN_MESSAGE,
  type InvitationSent,
  userLimitMessage,
} from '../../src/shared/schemas/team'
import { expectError } from '../support/http'
import { login, signIn } from '../support/login'
import { invitationToken, teamApi } from '../support/team'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// The services-team mutation part (stryker/groups.mjs, docs/decisions/024): a member the
// platform suspended cannot be reactivated by the hospital; the invitations' 404s and audit
// rows; accepting keeps the invitation's full name, refuses an address taken meanwhile or a
// plan shrunk meanwhile, and gives a returning member without a password one.

let t: TestApp
let api: ReturnType<typeof teamApi>
let admin: string
let hospitalA: string
const PASSWORD = 'Shubh-Labh-2026!'

beforeAll(async () => {
  t = await createTestApp()
  api = teamApi(t.app)
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
}, 180_000)
afterAll(async () => {
  await t?.close()
})

async function invite(email: string, name: string, role = 'nurse') {
  const res = await api.invite(admin, { email, name, role })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<InvitationSent>()
}

async function member(
  name: string,
  values: { banned: boolean; reason: string | null; active: boolean },
) {
  const id = randomUUID()
  await t.db.execute(sql`
    insert into users (id, name, email, email_verified, role, hospital_id, is_active, banned, ban_reason)
    values (${id}, ${name}, ${`${id}@team.test`}, true, 'nurse', ${hospitalA}, ${values.active},
      ${values.banned}, ${values.reason})`)
  return id
}

const auditOf = (id: string) =>
  queryRows<{ action: string; summary: string; entity_type: string }>(
    t.db,
    sql`select action, summary, entity_type from audit_events where entity_id = ${id}
        order by created_at, id`,
  )

describe('reactivating a member', () => {
  it('refuses a member the platform suspended or deactivated, and reactivates one the hospital suspended', async () => {
    const byPlatform = await member('Kiran Patil', {
      banned: true,
      reason: PLATFORM_SUSPENSION_REASON,
      active: true,
    })
    const res = await api.update(admin, byPlatform, { status: 'active' })
    expect(expectError(res, 409, 'CONFLICT').message).toBe(
      'Kiran Patil was suspended by Arogya support; only the platform can reactivate them',
    )
    const inactive = await member('Lata Shinde', { banned: false, reason: null, active: false })
    expectError(await api.update(admin, inactive, { status: 'active' }), 409, 'CONFLICT')
    const byHospital = await member('Mohan Das', {
      banned: true,
      reason: 'Suspended by the hospital admin',
      active: true,
    })
    const ok = await api.update(admin, byHospital, { status: 'active' })
    expect(ok.statusCode, ok.body).toBe(200)
    const [row] = await queryRows<{ banned: boolean; is_active: boolean }>(
      t.db,
      sql`select banned, is_active from users where id = ${byHospital}`,
    )
    expect(row).toEqual({ banned: false, is_active: true })
  })
})

describe('invitations', () => {
  it('names an unknown invitation in the 404 of a resend and a revoke', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    expect(expectError(await api.resend(admin, unknown), 404, 'NOT_FOUND').message).toBe(
      'Invitation not found',
    )
    expect(expectError(await api.revoke(admin, unknown), 404, 'NOT_FOUND').message).toBe(
      'Invitation not found',
    )
  })

  it('audits a resend and a revoke by name and address', async () => {
    const sent = await invite('pooja.rane@example.in', 'Pooja Rane')
    const resent = await api.resend(admin, sent.invitation.id)
    expect(resent.statusCode, resent.body).toBe(200)
    const revoked = await api.revoke(admin, sent.invitation.id)
    expect(revoked.statusCode, revoked.body).toBeLessThan(300)
    expect((await auditOf(sent.invitation.id)).slice(1)).toEqual([
      {
        action: 'team.invitation_resent',
        summary: 'Resent the invitation of Pooja Rane <pooja.rane@example.in>',
        entity_type: 'invitation',
      },
      {
        action: 'team.invitation_revoked',
        summary: 'Revoked the invitation of Pooja Rane <pooja.rane@example.in>',
        entity_type: 'invitation',
      },
    ])
  })
})

describe('accepting', () => {
  it("keeps the invitation's full name, honorific included", async () => {
    await invite('meera.nair@example.in', 'Dr. Meera Nair', 'doctor')
    const token = await invitationToken(t.db, 'meera.nair@example.in')
    const res = await api.accept(token, PASSWORD)
    expect(res.statusCode, res.body).toBe(201)
    const [row] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from users where email = 'meera.nair@example.in'`,
    )
    expect(row?.name).toBe('Dr. Meera Nair')
  })

  it('refuses an address that got an account after the invitation, and a plan that shrank', async () => {
    await invite('rahul.joshi@example.in', 'Rahul Joshi')
    const token = await invitationToken(t.db, 'rahul.joshi@example.in')
    const [other] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from hospitals where id <> ${hospitalA} limit 1`,
    )
    await t.db.execute(sql`
      insert into users (id, name, email, email_verified, role, hospital_id, is_active)
      values (${randomUUID()}, 'Rahul Joshi', 'rahul.joshi@example.in', true, 'doctor', ${other!.id}, true)`)
    const taken = await api.accept(token, PASSWORD)
    expect(expectError(taken, 409, 'CONFLICT').message).toBe(EMAIL_TAKEN_MESSAGE)

    await invite('sneha.kale@example.in', 'Sneha Kale')
    const token2 = await invitationToken(t.db, 'sneha.kale@example.in')
    const [h] = await queryRows<{ max_users: number }>(
      t.db,
      sql`select max_users from hospitals where id = ${hospitalA}`,
    )
    await t.db.execute(sql`update hospitals set max_users = 2 where id = ${hospitalA}`)
    try {
      const full = await api.accept(token2, PASSWORD)
      expect(expectError(full, 409, 'CONFLICT').message).toBe(userLimitMessage(2))
    } finally {
      await t.db.execute(
        sql`update hospitals set max_users = ${h!.max_users} where id = ${hospitalA}`,
      )
    }
    const [n] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from users where email = 'sneha.kale@example.in'`,
    )
    expect(n?.n).toBe(0)
  })

  it('gives a returning member who had no password one, and they sign in with it', async () => {
    const id = randomUUID()
    await t.db.execute(sql`
      insert into users (id, name, email, email_verified, role, hospital_id, is_active)
      values (${id}, 'Tara Bhosale', 'tara.bhosale@example.in', true, 'nurse', null, false)`)
    await invite('tara.bhosale@example.in', 'Tara Bhosale')
    const token = await invitationToken(t.db, 'tara.bhosale@example.in')
    const res = await api.accept(token, PASSWORD)
    expect(res.statusCode, res.body).toBe(201)
    const accounts = await queryRows<{ provider_id: string; account_id: string }>(
      t.db,
      sql`select provider_id, account_id from accounts where user_id = ${id}`,
    )
    expect(accounts).toEqual([{ provider_id: 'credential', account_id: id }])
    expect((await signIn(t.app, 'tara.bhosale@example.in', PASSWORD)).statusCode).toBe(200)
  })
})
