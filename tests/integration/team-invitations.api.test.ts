import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ALREADY_INVITED_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  INVITATION_EXPIRED_MESSAGE,
  INVITATION_NOT_FOUND_MESSAGE,
  INVITATION_REVOKED_MESSAGE,
  INVITATION_USED_MESSAGE,
  type InvitationDetails,
  type InvitationSent,
} from '../../src/shared/schemas/team'
import { expectError, issuePaths } from '../support/http'
import { login, signIn } from '../support/login'
import { auditActions, invitationToken, teamApi, teamOf } from '../support/team'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 27: a hospital admin invites a member; the invitee opens the emailed link, sets a
// password and signs in. A link works once, for 7 days, unless revoked or replaced.

let t: TestApp
let api: ReturnType<typeof teamApi>
let admin: string
let hospitalA: string
const PASSWORD = 'Ganpati-Bappa-2026'

beforeAll(async () => {
  t = await createTestApp()
  api = teamApi(t.app)
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
}, 180_000) // seeding a fresh database is slow on a busy machine
afterAll(async () => {
  await t?.close()
})

const userCount = async (email: string) =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from users where email = ${email}`,
    )
  )[0]?.n

async function invite(email: string, name: string, role = 'receptionist') {
  const res = await api.invite(admin, { email, name, role })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<InvitationSent>()
}

describe('inviting and accepting', () => {
  it('invites, emails a link, and the invitee sets a password and signs in with the role', async () => {
    const before = await auditActions(t.db, hospitalA)
    const sent = await invite(' Neha.Gokhale@Example.IN ', 'Neha Gokhale')
    expect(sent.emailStatus).toBe('sandbox')
    expect(sent.invitation).toMatchObject({
      email: 'neha.gokhale@example.in',
      name: 'Neha Gokhale',
      role: 'receptionist',
      status: 'pending',
    })
    const days = (Date.parse(sent.invitation.expiresAt) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6.9)
    expect(days).toBeLessThanOrEqual(7)
    const listed = teamOf(await api.list(admin)).invitations
    expect(listed.map((i) => i.email)).toContain('neha.gokhale@example.in')
    expect(listed.find((i) => i.email === 'neha.gokhale@example.in')?.invitedBy).toBe(
      'Anita Kulkarni',
    )

    const token = await invitationToken(t.db, 'neha.gokhale@example.in')
    const [stored] = await queryRows<{ token_hash: string }>(
      t.db,
      sql`select token_hash from invitations where email = 'neha.gokhale@example.in'`,
    )
    expect(stored?.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(stored?.token_hash).not.toContain(token.split('.')[1])

    const lookup = await api.lookup(token)
    expect(lookup.statusCode, lookup.body).toBe(200)
    expect(lookup.json<InvitationDetails>()).toMatchObject({
      hospitalName: 'Sanjeevani Multispeciality Hospital, Pune',
      email: 'neha.gokhale@example.in',
      name: 'Neha Gokhale',
      role: 'receptionist',
    })
    const accepted = await api.accept(token, PASSWORD)
    expect(accepted.statusCode, accepted.body).toBe(201)
    expect(accepted.json()).toEqual({ email: 'neha.gokhale@example.in' })

    const cookie = await login(t.app, 'neha.gokhale@example.in', PASSWORD)
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })
    expect(me.json()).toMatchObject({
      role: 'receptionist',
      hospitalId: hospitalA,
      firstName: 'Neha',
    })
    const team = teamOf(await api.list(admin))
    expect(team.members.find((m) => m.email === 'neha.gokhale@example.in')).toMatchObject({
      role: 'receptionist',
      status: 'active',
    })
    expect(team.invitations.map((i) => i.email)).not.toContain('neha.gokhale@example.in')
    expect((await auditActions(t.db, hospitalA)).slice(before.length)).toEqual([
      'team.invitation_sent',
      'team.invitation_accepted',
    ])

    // The link worked once: reused, it is a clear 409 and changes nothing.
    const again = await api.accept(token, 'another-password-1')
    expect(expectError(again, 409, 'CONFLICT').message).toBe(INVITATION_USED_MESSAGE)
    expect(expectError(await api.lookup(token), 409).message).toBe(INVITATION_USED_MESSAGE)
    expect((await signIn(t.app, 'neha.gokhale@example.in', PASSWORD)).statusCode).toBe(200)
  })

  it('refuses an expired link with a clear 409 and creates no account', async () => {
    await invite('farhan.shaikh@example.in', 'Farhan Shaikh', 'nurse')
    const token = await invitationToken(t.db, 'farhan.shaikh@example.in')
    await t.db.execute(
      sql`update invitations set expires_at = now() - interval '1 minute' where email = 'farhan.shaikh@example.in'`,
    )
    expect(expectError(await api.lookup(token), 409).message).toBe(INVITATION_EXPIRED_MESSAGE)
    expect(expectError(await api.accept(token, PASSWORD), 409).message).toBe(
      INVITATION_EXPIRED_MESSAGE,
    )
    expect(await userCount('farhan.shaikh@example.in')).toBe(0)
    expect(
      teamOf(await api.list(admin)).invitations.find((i) => i.email === 'farhan.shaikh@example.in')
        ?.status,
    ).toBe('expired')
    // Resending an expired invitation gives a new link for 7 more days.
    const id = teamOf(await api.list(admin)).invitations.find(
      (i) => i.email === 'farhan.shaikh@example.in',
    )!.id
    const resent = await api.resend(admin, id)
    expect(resent.statusCode, resent.body).toBe(200)
    expect(resent.json<InvitationSent>().invitation.status).toBe('pending')
    const fresh = await invitationToken(t.db, 'farhan.shaikh@example.in')
    expect(fresh).not.toBe(token)
    expect(expectError(await api.lookup(token), 404).message).toBe(INVITATION_NOT_FOUND_MESSAGE)
    expect((await api.accept(fresh, PASSWORD)).statusCode).toBe(201)
  })

  it('revokes: the link then says so, and the address can be invited again', async () => {
    const sent = await invite('meenal.patil@example.in', 'Meenal Patil', 'viewer')
    const token = await invitationToken(t.db, 'meenal.patil@example.in')
    const revoked = await api.revoke(admin, sent.invitation.id)
    expect(revoked.statusCode, revoked.body).toBe(204)
    expect(expectError(await api.accept(token, PASSWORD), 409).message).toBe(
      INVITATION_REVOKED_MESSAGE,
    )
    expect(await userCount('meenal.patil@example.in')).toBe(0)
    expectError(await api.revoke(admin, sent.invitation.id), 404, 'NOT_FOUND')
    expectError(await api.resend(admin, sent.invitation.id), 404, 'NOT_FOUND')
    expect((await auditActions(t.db, hospitalA)).at(-1)).toBe('team.invitation_revoked')
    await invite('meenal.patil@example.in', 'Meenal Patil', 'viewer')
  })

  it('refuses an address that has an account or an open invitation (409 on the email field)', async () => {
    const taken = await api.invite(admin, {
      email: demoEmail('nurse', 'smiledental'),
      name: 'Sunita',
      role: 'nurse',
    })
    expect(expectError(taken, 409, 'CONFLICT').message).toBe(EMAIL_TAKEN_MESSAGE)
    await invite('ishaan.verma@example.in', 'Ishaan Verma')
    const twice = await api.invite(admin, {
      email: 'ishaan.verma@example.in',
      name: 'Ishaan',
      role: 'doctor',
    })
    expect(expectError(twice, 409).message).toBe(ALREADY_INVITED_MESSAGE)
  })

  it('answers 400 with field issues for bad input, and stores nothing', async () => {
    const count = async () =>
      (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from invitations`))[0]?.n
    const before = await count()
    const good = { email: 'x.y@example.in', name: 'X Y', role: 'doctor' }
    const cases: [unknown, string][] = [
      [{ ...good, email: 'not-an-email' }, 'email'],
      [{ ...good, email: undefined }, 'email'],
      [{ ...good, name: '  ' }, 'name'],
      [{ ...good, name: 'n'.repeat(121) }, 'name'],
      [{ ...good, role: 'super_admin' }, 'role'],
      [{ ...good, role: 'owner' }, 'role'],
      [{ ...good, hospitalId: hospitalA }, ''],
    ]
    for (const [body, path] of cases) {
      expect(issuePaths(await api.invite(admin, body)), JSON.stringify(body)).toContain(path)
    }
    expectError(await api.invite(admin, 'text'), 400)
    expect(await count()).toBe(before)
    // The public routes: a malformed token, an unknown one, a weak password.
    expect(issuePaths(await api.lookup('abc'))).toEqual(['token'])
    const unknown = `${hospitalA.replaceAll('-', '')}.${'A'.repeat(43)}`
    expect(expectError(await api.lookup(unknown), 404).message).toBe(INVITATION_NOT_FOUND_MESSAGE)
    expect(
      expectError(await api.accept(`${'0'.repeat(32)}.${'A'.repeat(43)}`, PASSWORD), 404).message,
    ).toBe(INVITATION_NOT_FOUND_MESSAGE)
    await invite('short.pass@example.in', 'Short Pass')
    const token = await invitationToken(t.db, 'short.pass@example.in')
    expect(issuePaths(await api.accept(token, 'short'))).toEqual(['password'])
    expect(await userCount('short.pass@example.in')).toBe(0)
  })

  it('keeps other roles, other hospitals and the signed-out away from invitations', async () => {
    const sent = await invite('tanvi.joshi@example.in', 'Tanvi Joshi')
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const cookie = await login(t.app, demoEmail(role))
      expectError(
        await api.invite(cookie, { email: 'z@example.in', name: 'Z', role: 'viewer' }),
        403,
      )
      expectError(await api.revoke(cookie, sent.invitation.id), 403)
      expectError(await api.resend(cookie, sent.invitation.id), 403)
    }
    expectError(
      await api.invite(undefined, { email: 'z@example.in', name: 'Z', role: 'viewer' }),
      401,
    )
    const adminB = await login(t.app, demoEmail('admin', 'smiledental'))
    expectError(await api.revoke(adminB, sent.invitation.id), 404, 'NOT_FOUND')
    expectError(await api.resend(adminB, sent.invitation.id), 404, 'NOT_FOUND')
    expect(teamOf(await api.list(admin)).invitations.map((i) => i.id)).toContain(sent.invitation.id)
    expect(teamOf(await api.list(adminB)).invitations.map((i) => i.id)).not.toContain(
      sent.invitation.id,
    )
  })
})
