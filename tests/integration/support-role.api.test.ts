import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { streamTiming } from '../../src/server/modules/messaging-events/events.routes'
import type { CurrentUser } from '../../src/shared/schemas/auth'
import type { SupportGrant } from '../../src/shared/schemas/support-access'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 39 items 1 and 2: a super admin inside a hospital under a support grant acts as the
// `support` role (reads, ordinary corrections; never the team, security, credentials, exports,
// deletes, backups), unless the hospital granted full admin explicitly; and a revoked or
// expired grant ends the event streams it opened, on every instance.

let t: TestApp
let admin: string
let sa: string
let a: string
let base: string
let doctorId: string
let patientId: string
let leadId: string
const NO_SUCH = '00000000-0000-4000-8000-000000000000'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
function call(cookie: string, method: Method, url: string, body?: unknown) {
  if (method === 'GET') return t.app.inject({ method, url, headers: { host: 'localhost', cookie } })
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

async function grant(scope?: 'support' | 'full_admin'): Promise<SupportGrant> {
  const res = await call(admin, 'POST', '/api/support-access', {
    hours: 2,
    reason: 'Help with the WhatsApp set-up',
    ...(scope ? { scope } : {}),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<SupportGrant>()
}
const revoke = (id: string) => call(admin, 'POST', `/api/support-access/${id}/revoke`)
async function enter() {
  const res = await call(sa, 'POST', `/api/admin/hospitals/${a}/support-session`)
  expect(res.statusCode, res.body).toBe(200)
}

/** Every route a support visit is refused, with a body the full admin's visit gets past. */
const adminOnly = (): { name: string; method: Method; url: string; body?: unknown }[] => [
  {
    name: 'invite a member',
    method: 'POST',
    url: '/api/team/invitations',
    body: { email: 'support-backdoor@example.com', name: 'Backdoor', role: 'admin' },
  },
  {
    name: 'change a role',
    method: 'PATCH',
    url: `/api/team/members/${doctorId}`,
    body: { role: 'admin' },
  },
  {
    name: 'suspend a member',
    method: 'PATCH',
    url: `/api/team/members/${doctorId}`,
    body: { status: 'suspended' },
  },
  { name: 'remove a member', method: 'DELETE', url: `/api/team/members/${doctorId}` },
  { name: 'revoke an invitation', method: 'DELETE', url: `/api/team/invitations/${NO_SUCH}` },
  { name: 'save messaging credentials', method: 'PUT', url: '/api/settings/messaging', body: {} },
  {
    name: 'test a messaging provider',
    method: 'POST',
    url: '/api/settings/messaging/test',
    body: {},
  },
  { name: 'save the Meta integration', method: 'PUT', url: '/api/integrations/meta', body: {} },
  { name: 'resync templates', method: 'POST', url: '/api/message-templates/resync' },
  { name: 'start an export', method: 'POST', url: '/api/data/exports', body: { kind: 'nope' } },
  { name: 'read an export', method: 'GET', url: `/api/data/exports/${NO_SUCH}` },
  { name: 'export a patient', method: 'GET', url: `/api/patients/${patientId}/export.json` },
  { name: 'delete all data', method: 'POST', url: '/api/data/delete-all', body: {} },
  { name: 'erase a patient', method: 'POST', url: `/api/patients/${NO_SUCH}/erase` },
  {
    name: 'create a backup configuration',
    method: 'POST',
    url: '/api/backup/configurations',
    body: {},
  },
  {
    name: 'patch a backup configuration',
    method: 'PATCH',
    url: `/api/backup/configurations/${NO_SUCH}`,
    body: { isActive: false },
  },
  { name: 'run a backup', method: 'POST', url: '/api/backup/run-now', body: { dataTypes: 'x' } },
  { name: 'download a backup', method: 'GET', url: `/api/backup/logs/${NO_SUCH}/download` },
  { name: 'restore a backup', method: 'POST', url: '/api/backup/restore', body: {} },
  { name: 'grant support access', method: 'POST', url: '/api/support-access', body: {} },
  { name: 'request lead generation', method: 'POST', url: '/api/marketing-campaigns', body: {} },
]

/** Reads that stay open to support. */
const reads = [
  '/api/team',
  '/api/settings',
  '/api/settings/messaging',
  '/api/integrations/meta',
  '/api/backup/configurations',
  '/api/backup/logs',
  '/api/marketing-campaigns',
  '/api/settings/notifications',
]

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  sa = await loginSuperAdmin(t.app)
  a = await hospitalIdOf(t.db, 'sanjeevani')
  doctorId = await userIdOf(t.db, demoEmail('doctor'))
  const [p] = await queryRows<{ id: string }>(
    t.db,
    sql`select id from patients where hospital_id = ${a} and erased_at is null limit 1`,
  )
  const [l] = await queryRows<{ id: string }>(
    t.db,
    sql`select id from leads where hospital_id = ${a} and status <> 'converted' limit 1`,
  )
  patientId = p?.id ?? ''
  leadId = l?.id ?? ''
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await t?.close()
})

describe('a support visit (scope support, the default)', () => {
  let g: SupportGrant
  beforeAll(async () => {
    g = await grant()
    expect(g.scope).toBe('support')
    await enter()
  })
  afterAll(async () => {
    await revoke(g.id)
  })

  it('acts as the support role, and /api/auth/user says so', async () => {
    const me = (await call(sa, 'GET', '/api/auth/user')).json<CurrentUser>()
    expect(me).toMatchObject({ role: 'support', hospitalId: a })
    expect(me.supportVisit).toMatchObject({ hospitalId: a, scope: 'support' })
  })

  it('cannot invite a backdoor admin (the reproduced attack): 403, nothing stored', async () => {
    const res = await call(sa, 'POST', '/api/team/invitations', {
      email: 'support-backdoor@example.com',
      name: 'Support Backdoor',
      role: 'admin',
    })
    expectError(res, 403, 'SUPPORT_NOT_ALLOWED')
    expect(res.json<{ message: string }>().message).toBe(
      'Support visits may not change the team (invitations, roles, suspensions): only the hospital’s own admin can.',
    )
    const rows = await queryRows(
      t.db,
      sql`select id from invitations where email = 'support-backdoor@example.com'`,
    )
    expect(rows).toEqual([])
  })

  it('is refused on every admin-only route with a message that names the rule', async () => {
    for (const r of adminOnly()) {
      const res = await call(sa, r.method, r.url, r.body)
      expect(res.statusCode, `${r.name}: ${res.body}`).toBe(403)
      const body = res.json<{ code: string; message: string }>()
      expect(body.code, r.name).toBe('SUPPORT_NOT_ALLOWED')
      expect(body.message, r.name).toMatch(
        /^Support visits may not .+: only the hospital’s own admin can\.$/,
      )
    }
    // Nothing changed: the doctor is still an active doctor.
    const [doc] = await queryRows<{ role: string; banned: boolean | null }>(
      t.db,
      sql`select role, banned from users where id = ${doctorId}`,
    )
    expect(doc).toMatchObject({ role: 'doctor' })
    expect(doc?.banned ?? false).toBe(false)
  })

  it('cannot turn off required two-factor or change session hours; other settings it may save', async () => {
    await t.db.execute(
      sql`insert into hospital_settings (hospital_id, require_two_factor) values (${a}, true)
          on conflict (hospital_id) do update set require_two_factor = true`,
    )
    try {
      const off = await call(sa, 'PUT', '/api/settings', { security: { requireTwoFactor: false } })
      expectError(off, 403, 'SUPPORT_NOT_ALLOWED')
      expect(off.json<{ message: string }>().message).toContain('security settings')
      const hours = await call(sa, 'PUT', '/api/settings', { security: { sessionHours: 6 } })
      expectError(hours, 403, 'SUPPORT_NOT_ALLOWED')
      const [row] = await queryRows<{ r: boolean; h: number }>(
        t.db,
        sql`select require_two_factor as r, session_hours as h from hospital_settings
            where hospital_id = ${a}`,
      )
      expect(row).toEqual({ r: true, h: 8 })
      // The whole form, security unchanged, saves (only a change is refused).
      const same = await call(sa, 'PUT', '/api/settings', {
        security: { requireTwoFactor: true, sessionHours: 8 },
        data: { backupRetentionDays: 45 },
      })
      expect(same.statusCode, same.body).toBe(200)
    } finally {
      await t.db.execute(
        sql`update hospital_settings set require_two_factor = false where hospital_id = ${a}`,
      )
    }
  })

  it('reads what the hospital admin reads', async () => {
    for (const url of reads) {
      const res = await call(sa, 'GET', url)
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200)
    }
  })

  it('corrects a patient and a lead (audited with the impersonator)', async () => {
    const p = await call(sa, 'PATCH', `/api/patients/${patientId}`, {
      name: 'Corrected By Support',
    })
    expect(p.statusCode, p.body).toBe(200)
    const l = await call(sa, 'PATCH', `/api/leads/${leadId}`, { notes: 'Checked by support' })
    expect(l.statusCode, l.body).toBe(200)
    const saId = await userIdOf(t.db, 'superadmin@arogya.demo')
    const audit = await queryRows<{ impersonator_user_id: string }>(
      t.db,
      sql`select impersonator_user_id from audit_events
          where hospital_id = ${a} and entity_id in (${patientId}, ${leadId})
          order by created_at desc limit 2`,
    )
    expect(audit).toEqual([{ impersonator_user_id: saId }, { impersonator_user_id: saId }])
  })
})

describe('a full admin grant (given explicitly)', () => {
  let g: SupportGrant
  beforeAll(async () => {
    g = await grant('full_admin')
    expect(g.scope).toBe('full_admin')
    await enter()
  })
  afterAll(async () => {
    await revoke(g.id)
  })

  it('is shown to the hospital admin and in /api/auth/user, and audited as full admin', async () => {
    const overview = (await call(admin, 'GET', '/api/support-access')).json<{
      grants: SupportGrant[]
    }>()
    expect(overview.grants.find((x) => x.id === g.id)?.scope).toBe('full_admin')
    const me = (await call(sa, 'GET', '/api/auth/user')).json<CurrentUser>()
    expect(me).toMatchObject({ role: 'admin', supportVisit: { scope: 'full_admin' } })
    const [row] = await queryRows<{ summary: string }>(
      t.db,
      sql`select summary from audit_events where entity_id = ${g.id} and action = 'support.granted'`,
    )
    expect(row?.summary).toMatch(/^Granted full admin support access for 2 hours/)
  })

  it('acts as the admin: every admin-only route gets past the permission', async () => {
    for (const r of adminOnly()) {
      if (r.name === 'grant support access') continue // never by support, whatever the scope
      const res = await call(sa, r.method, r.url, r.body)
      expect(res.statusCode, `${r.name}: ${res.body}`).not.toBe(403)
      if (r.name === 'remove a member') expect(res.statusCode, res.body).toBe(204)
    }
    const settings = await call(sa, 'PUT', '/api/settings', { security: { sessionHours: 6 } })
    expect(settings.statusCode, settings.body).toBe(200)
    const invited = await queryRows(
      t.db,
      sql`select id from invitations where email = 'support-backdoor@example.com'`,
    )
    expect(invited.length).toBe(1)
  })
})

interface Stream {
  opened: Promise<number>
  ended: () => boolean
  close: () => void
}

function openStream(cookie: string): Stream {
  let ended = false
  let request: http.ClientRequest | undefined
  const opened = new Promise<number>((resolve, reject) => {
    request = http.get(
      `${base}/api/events/messages`,
      { headers: { host: 'localhost', cookie } },
      (res) => {
        res.on('data', () => undefined)
        res.on('end', () => (ended = true))
        res.on('close', () => (ended = true))
        resolve(res.statusCode ?? 0)
      },
    )
    request.on('error', reject)
  })
  return { opened, ended: () => ended, close: () => request?.destroy() }
}

async function waitEnded(s: Stream, ms: number): Promise<number> {
  const start = Date.now()
  while (!s.ended() && Date.now() - start < ms) await new Promise((r) => setTimeout(r, 25))
  return Date.now() - start
}

describe('grants end everything', () => {
  it('revoking ends an open event stream at once (NOTIFY), and the next request is refused', async () => {
    const g = await grant()
    await enter()
    const s = openStream(sa)
    try {
      expect(await s.opened).toBe(200)
      await new Promise((r) => setTimeout(r, 300))
      expect(s.ended()).toBe(false)
      // The default heartbeat is 25 s: only the revocation's notice can end it this soon.
      expect((await revoke(g.id)).statusCode).toBe(200)
      await waitEnded(s, 3_000)
      expect(s.ended()).toBe(true)
      expectError(await call(sa, 'GET', '/api/patients'), 403, 'SUPPORT_ACCESS_ENDED')
    } finally {
      s.close()
    }
  })

  it('an expired grant ends the stream within one heartbeat (the heartbeat re-checks the grant)', async () => {
    const g = await grant()
    await enter()
    streamTiming.heartbeatMs = 200
    const s = openStream(sa)
    try {
      expect(await s.opened).toBe(200)
      await new Promise((r) => setTimeout(r, 500))
      expect(s.ended()).toBe(false)
      // Expired in the database, as time would: no notice is sent.
      await t.db.execute(
        sql`update support_access_grants set expires_at = now() - interval '1 second'
            where id = ${g.id}`,
      )
      await waitEnded(s, 2_000)
      expect(s.ended()).toBe(true)
      expectError(await call(sa, 'GET', '/api/patients'), 403, 'SUPPORT_ACCESS_ENDED')
    } finally {
      streamTiming.heartbeatMs = 25_000
      s.close()
    }
  })

  it('a hospital member’s stream is not ended by a support grant ending', async () => {
    const g = await grant()
    await enter()
    const nurse = await login(t.app, demoEmail('nurse'))
    const s = openStream(nurse)
    try {
      expect(await s.opened).toBe(200)
      expect((await revoke(g.id)).statusCode).toBe(200)
      await new Promise((r) => setTimeout(r, 500))
      expect(s.ended()).toBe(false)
    } finally {
      s.close()
    }
  })
})
