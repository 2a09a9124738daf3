import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { communication, lead, leadsPage, stats, staffList } from '../../src/shared/schemas/leads'
import { expectError, issuePaths } from '../support/http'
import {
  auditActions,
  call,
  leadPayload,
  newLead,
  patchLead,
  postLead,
  snapshot,
  storedLead,
  uniqueMobile,
} from '../support/leads'
import { login } from '../support/login'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  type DemoRole,
  hospitalIdOf,
  type TestApp,
  userIdOf,
} from '../support/test-app'

let t: TestApp
const cookies: Record<string, string> = {}
let sanjeevaniId: string
/** A Sanjeevani lead the role and cross-tenant cases aim at. */
let target: { id: string; name: string }

const staff: DemoRole[] = ['admin', 'doctor', 'nurse', 'receptionist', 'viewer']

beforeAll(async () => {
  t = await createTestApp()
  for (const role of staff) cookies[role] = await login(t.app, demoEmail(role))
  cookies.smileAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
  cookies.superAdmin = await loginSuperAdmin(t.app)
  sanjeevaniId = await hospitalIdOf(t.db, 'sanjeevani')
  const created = await newLead(t.app, cookies.admin!, { name: 'Target Lead' })
  target = { id: created.id, name: created.name }
})
afterAll(async () => {
  await t?.close()
})

type Caller = DemoRole | 'superAdmin' | 'signedOut'
const routes = [
  'list',
  'get',
  'create',
  'patch',
  'communications',
  'communicate',
  'read',
  'stats',
  'staff',
  'convert',
] as const
type Route = (typeof routes)[number]

/** One request per route, with a body each caller may send. */
function request(route: Route, cookie: string | undefined, caller: string, id = target.id) {
  switch (route) {
    case 'list':
      return call(t.app, cookie, 'GET', '/api/leads')
    case 'get':
      return call(t.app, cookie, 'GET', `/api/leads/${id}`)
    case 'create':
      return postLead(t.app, cookie, leadPayload({ name: `Created by ${caller}` }))
    case 'patch':
      return patchLead(t.app, cookie, id, { notes: `Reviewed by ${caller}` })
    case 'communications':
      return call(t.app, cookie, 'GET', `/api/leads/${id}/communications`)
    case 'communicate':
      return call(t.app, cookie, 'POST', '/api/communications', {
        leadId: id,
        type: 'call',
        direction: 'outbound',
        content: `Called by ${caller}`,
      })
    case 'read':
      return call(t.app, cookie, 'POST', `/api/leads/${id}/read`)
    case 'stats':
      return call(t.app, cookie, 'GET', '/api/stats')
    case 'staff':
      return call(t.app, cookie, 'GET', '/api/staff')
    case 'convert':
      return call(t.app, cookie, 'POST', `/api/leads/${id}/convert`)
  }
}

const writes: Route[] = ['create', 'patch', 'communicate', 'read', 'convert']
const ok: Record<Route, number> = {
  list: 200,
  get: 200,
  create: 201,
  patch: 200,
  communications: 200,
  communicate: 201,
  read: 204,
  stats: 200,
  staff: 200,
  convert: 201,
}

describe('who may call which leads route', () => {
  const callers: Caller[] = [...staff, 'superAdmin', 'signedOut']
  const expected = (caller: Caller, route: Route): number => {
    if (caller === 'signedOut') return 401
    if (caller === 'superAdmin') return 403
    if (caller === 'viewer' && writes.includes(route)) return 403
    return ok[route]
  }
  const cases = callers.flatMap((caller) => routes.map((route) => [caller, route] as const))

  it.each(cases)('%s: %s', async (caller, route) => {
    const cookie = caller === 'signedOut' ? undefined : cookies[caller]
    const status = expected(caller, route)
    // Each caller converts a lead of its own, so conversions do not collide.
    const id =
      route === 'convert' && status === 201
        ? (await newLead(t.app, cookies.admin!, { name: `To convert ${caller}` })).id
        : target.id
    const before = await snapshot(t.db)
    const res = await request(route, cookie, caller, id)
    expect(res.statusCode, res.body).toBe(status)
    if (status >= 400) {
      expectError(res, status, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN')
      expect(await snapshot(t.db)).toBe(before)
      return
    }
    if (route === 'list') {
      const page = leadsPage.strict().parse(res.json())
      expect(page.leads.every((l) => l.hospitalId === sanjeevaniId)).toBe(true)
    }
    if (route === 'get' || route === 'patch') lead.strict().parse(res.json())
    if (route === 'communications') communication.strict().array().parse(res.json())
    if (route === 'communicate') communication.strict().parse(res.json())
    if (route === 'stats') stats.strict().parse(res.json())
    if (route === 'staff') staffList.strict().parse(res.json())
  })
})

describe("another hospital's lead", () => {
  const idRoutes: Route[] = ['get', 'patch', 'communications', 'communicate', 'read', 'convert']

  it.each(idRoutes)('%s answers 404 and changes nothing', async (route) => {
    const before = await snapshot(t.db)
    const stored = await storedLead(t.db, target.id)
    const res = await request(route, cookies.smileAdmin, 'smile admin')
    expectError(res, 404, 'NOT_FOUND')
    expect(await snapshot(t.db)).toBe(before)
    expect(await storedLead(t.db, target.id)).toEqual(stored)
  })

  it('a missing id is the same 404', async () => {
    expectError(await request('get', cookies.admin, 'admin', crypto.randomUUID()), 404)
    expectError(await request('convert', cookies.admin, 'admin', crypto.randomUUID()), 404)
  })

  it('is not in the other hospital’s list, search or stats', async () => {
    const res = await call(t.app, cookies.smileAdmin, 'GET', '/api/leads?search=target%20lead')
    expect(leadsPage.parse(res.json()).leads).toEqual([])
    const page = await call(t.app, cookies.smileAdmin, 'GET', '/api/leads?limit=100')
    expect(leadsPage.parse(page.json()).leads.map((l) => l.id)).not.toContain(target.id)
  })

  it('cannot be assigned to a user of another hospital', async () => {
    const smileDoctor = await userIdOf(t.db, demoEmail('doctor', 'smiledental'))
    const res = await patchLead(t.app, cookies.admin, target.id, { assignedToUserId: smileDoctor })
    expect(issuePaths(res)).toEqual(['assignedToUserId'])
  })
})

describe('POST /api/leads', () => {
  it('stores a walk-in normalised, answers 201 and writes an audit row', async () => {
    const phone = uniqueMobile()
    const res = await postLead(
      t.app,
      cookies.receptionist,
      leadPayload({ phone: `+91 ${phone.slice(0, 5)} ${phone.slice(5)}` }),
    )
    expect(res.statusCode, res.body).toBe(201)
    const body = res.json<{ lead: unknown; duplicate: boolean }>()
    expect(body.duplicate).toBe(false)
    const created = lead.strict().parse(body.lead)
    expect(created).toMatchObject({
      hospitalId: sanjeevaniId,
      name: 'Anjali Menon',
      email: 'anjali.menon@example.com',
      phone: `+91${phone}`,
      status: 'new',
      source: 'walk-in',
      priority: 'high',
      serviceInterest: 'Dental implants',
      campaign: null,
      notes: 'Prefers a morning slot',
      assignedToUserId: null,
      assignedToName: null,
      patientId: null,
      lastContactAt: null,
      metaLeadId: null,
    })
    const again = await call(t.app, cookies.viewer, 'GET', `/api/leads/${created.id}`)
    expect(again.json()).toEqual(created)
    expect(await auditActions(t.db, created.id)).toEqual(['lead.created'])
  })

  it('defaults priority to medium and source to manual, and accepts a landline', async () => {
    const res = await postLead(t.app, cookies.doctor, {
      name: 'Landline Caller',
      phone: '020 2550 1234',
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json<{ lead: unknown }>().lead).toMatchObject({
      priority: 'medium',
      source: 'manual',
      phone: '+912025501234',
      email: null,
    })
  })

  it('assigns to a staff member and answers with the name', async () => {
    const doctorId = await userIdOf(t.db, demoEmail('doctor'))
    const created = await newLead(t.app, cookies.admin!, { assignedToUserId: doctorId })
    expect(created.assignedToUserId).toBe(doctorId)
    expect(created.assignedToName).toMatch(/Rajesh/)
  })

  it.each([
    [{ name: '' }, ['name']],
    [{ name: 'x'.repeat(201) }, ['name']],
    [{ phone: 'call me' }, ['phone']],
    [{ phone: '12' }, ['phone']],
    [{ phone: 9876543210 }, ['phone']],
    [{ email: 'nope' }, ['email']],
    [{ priority: 'urgent' }, ['priority']],
    [{ source: 'meta-facebook' }, ['source']],
    [{ source: 'csv-import' }, ['source']],
    [{ status: 'converted' }, ['']],
    [{ hospitalId: crypto.randomUUID() }, ['']],
    [{ assignedToUserId: 'no-such-user' }, ['assignedToUserId']],
    [{ notes: ['a'] }, ['notes']],
  ])('answers %j with 400 on %j and stores nothing', async (override, paths) => {
    const before = await snapshot(t.db)
    const res = await postLead(t.app, cookies.admin, leadPayload(override))
    expect(issuePaths(res)).toEqual(paths)
    expect(await snapshot(t.db)).toBe(before)
  })

  it('refuses a body that is not an object', async () => {
    for (const body of [null, [], 'lead', 42]) {
      const res = await postLead(t.app, cookies.admin, body)
      expect(res.statusCode, res.body).toBe(400)
      expectError(res, 400)
    }
  })

  it('refuses a super admin as the assignee', async () => {
    const superAdmin = await userIdOf(t.db, 'superadmin@arogya.demo')
    const res = await postLead(t.app, cookies.admin, leadPayload({ assignedToUserId: superAdmin }))
    expect(issuePaths(res)).toEqual(['assignedToUserId'])
  })
})

describe('PATCH /api/leads/:id', () => {
  it('changes only what it is sent, and audits the status change', async () => {
    const created = await newLead(t.app, cookies.admin!)
    const res = await patchLead(t.app, cookies.nurse, created.id, {
      status: 'follow-up',
      priority: 'low',
    })
    expect(res.statusCode, res.body).toBe(200)
    const updated = lead.strict().parse(res.json())
    expect(updated).toMatchObject({
      status: 'follow-up',
      priority: 'low',
      email: created.email,
      notes: created.notes,
      serviceInterest: created.serviceInterest,
      name: created.name,
    })
    expect(new Date(updated.updatedAt).getTime()).toBeGreaterThan(
      new Date(created.updatedAt).getTime(),
    )
    expect(await auditActions(t.db, created.id)).toEqual(['lead.created', 'lead.updated'])
  })

  it('clears optional text with null or an empty string, and unassigns', async () => {
    const doctorId = await userIdOf(t.db, demoEmail('doctor'))
    const created = await newLead(t.app, cookies.admin!, { assignedToUserId: doctorId })
    const res = await patchLead(t.app, cookies.admin, created.id, {
      notes: '',
      email: null,
      assignedToUserId: null,
    })
    expect(res.json()).toMatchObject({
      notes: null,
      email: null,
      assignedToUserId: null,
      assignedToName: null,
    })
  })

  it('answers 409 when the new phone belongs to another lead, and changes nothing', async () => {
    const first = await newLead(t.app, cookies.admin!, { name: 'Phone Owner' })
    const second = await newLead(t.app, cookies.admin!)
    const stored = await storedLead(t.db, second.id)
    const res = await patchLead(t.app, cookies.admin, second.id, { phone: first.phone })
    const body = expectError(res, 409, 'CONFLICT')
    expect(body.message).toMatch(/Another lead already has this phone number \(Phone Owner\)/)
    expect(await storedLead(t.db, second.id)).toEqual(stored)
    // Its own phone again is no conflict.
    expect(
      (await patchLead(t.app, cookies.admin, second.id, { phone: second.phone })).statusCode,
    ).toBe(200)
  })

  it.each([
    [{}, ['']],
    [{ status: 'converted' }, ['status']],
    [{ status: 'won' }, ['status']],
    [{ name: '   ' }, ['name']],
    [{ phone: '' }, ['phone']],
    [{ priority: null }, ['priority']],
    [{ patientId: crypto.randomUUID() }, ['']],
    [{ lastContactAt: '2026-01-01T00:00:00Z' }, ['']],
  ])('answers %j with 400 on %j', async (body, paths) => {
    const before = await storedLead(t.db, target.id)
    expect(issuePaths(await patchLead(t.app, cookies.admin, target.id, body))).toEqual(paths)
    expect(await storedLead(t.db, target.id)).toEqual(before)
  })

  it('answers a malformed id with 400', async () => {
    expect(issuePaths(await patchLead(t.app, cookies.admin, 'not-a-uuid', { notes: 'x' }))).toEqual(
      ['id'],
    )
    expect(
      issuePaths(await call(t.app, cookies.admin, 'GET', '/api/leads/1%27%20or%201=1')),
    ).toEqual(['id'])
  })
})

describe('GET /api/staff', () => {
  it('lists the active staff of the caller’s hospital, without super admins', async () => {
    const res = await call(t.app, cookies.viewer, 'GET', '/api/staff')
    const { staff: people } = staffList.strict().parse(res.json())
    const ids = people.map((p) => p.id)
    expect(ids).toContain(await userIdOf(t.db, demoEmail('receptionist')))
    expect(ids).not.toContain(await userIdOf(t.db, demoEmail('admin', 'smiledental')))
    expect(ids).not.toContain(await userIdOf(t.db, 'superadmin@arogya.demo'))
    expect(people.every((p) => p.role !== 'super_admin')).toBe(true)
  })
})
