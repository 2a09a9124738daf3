import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { patient } from '../../src/shared/schemas/patients'
import { loginSuperAdmin } from '../support/two-factor'
import { expectError, expectNoInternals, issuePaths } from '../support/http'
import { login } from '../support/login'
import {
  auditRowsFor,
  countRows,
  createPatient,
  getPatient,
  listPatients,
  manualPatientPayload,
  patchPatient,
  patientsOf,
  storedPatient,
} from '../support/patients'
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
let smileId: string
/** A seeded Sanjeevani patient that tests read and change. */
let target: { id: string; name: string }

const staff: DemoRole[] = ['admin', 'doctor', 'nurse', 'receptionist', 'viewer']

beforeAll(async () => {
  t = await createTestApp()
  for (const role of staff) cookies[role] = await login(t.app, demoEmail(role))
  cookies.smileAdmin = await login(t.app, demoEmail('admin', 'smiledental'))
  cookies.superAdmin = await loginSuperAdmin(t.app)
  sanjeevaniId = await hospitalIdOf(t.db, 'sanjeevani')
  smileId = await hospitalIdOf(t.db, 'smiledental')
  const [first] = patientsOf(await listPatients(t.app, cookies.admin!, '?limit=1'))
  if (!first) throw new Error('no seeded patient')
  target = { id: first.id, name: first.name }
})
afterAll(async () => {
  await t?.close()
})

describe('who may call which patients route', () => {
  type Caller = DemoRole | 'superAdmin' | 'signedOut'
  const routes = ['list', 'get', 'create', 'patch'] as const
  const expected: Record<Caller, Record<(typeof routes)[number], number>> = {
    admin: { list: 200, get: 200, create: 201, patch: 200 },
    doctor: { list: 200, get: 200, create: 201, patch: 200 },
    nurse: { list: 200, get: 200, create: 201, patch: 200 },
    receptionist: { list: 200, get: 200, create: 201, patch: 200 },
    viewer: { list: 200, get: 200, create: 403, patch: 403 },
    superAdmin: { list: 403, get: 403, create: 403, patch: 403 },
    signedOut: { list: 401, get: 401, create: 401, patch: 401 },
  }
  const cases = (Object.keys(expected) as Caller[]).flatMap((caller) =>
    routes.map((route) => [caller, route] as const),
  )

  it.each(cases)('%s: %s', async (caller, route) => {
    const cookie = caller === 'signedOut' ? undefined : cookies[caller]
    const status = expected[caller][route]
    const patientsBefore = await countRows(t.db, 'patients')
    const auditBefore = await countRows(t.db, 'audit_events')
    const res =
      route === 'list'
        ? await t.app.inject({
            method: 'GET',
            url: '/api/patients',
            headers: cookie ? { cookie } : {},
          })
        : route === 'get'
          ? await getPatient(t.app, cookie, target.id)
          : route === 'create'
            ? await createPatient(
                t.app,
                cookie,
                manualPatientPayload({ name: `Created by ${caller}` }),
              )
            : await patchPatient(t.app, cookie, target.id, {
                medicalHistory: `Reviewed by ${caller}`,
              })
    expect(res.statusCode, res.body).toBe(status)
    if (status >= 400) {
      expectError(res, status, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN')
      expect(await countRows(t.db, 'patients')).toBe(patientsBefore)
      expect(await countRows(t.db, 'audit_events')).toBe(auditBefore)
      return
    }
    if (route === 'list')
      expect(patientsOf(res).every((p) => p.hospitalId === sanjeevaniId)).toBe(true)
    else patient.strict().parse(res.json())
    const writes = route === 'create' || route === 'patch' ? 1 : 0
    expect(await countRows(t.db, 'patients')).toBe(patientsBefore + (route === 'create' ? 1 : 0))
    expect(await countRows(t.db, 'audit_events')).toBe(auditBefore + writes)
  })
})

describe('POST /api/patients/manual', () => {
  it('stores the spec payload normalised, in the caller’s hospital, with an audit row', async () => {
    const res = await createPatient(t.app, cookies.receptionist, manualPatientPayload())
    expect(res.statusCode, res.body).toBe(201)
    const created = patient.strict().parse(res.json())
    expect(created).toMatchObject({
      hospitalId: sanjeevaniId,
      name: 'Meera Joshi',
      firstName: 'Meera',
      lastName: 'Joshi',
      email: 'meera.joshi@example.com',
      phone: '+919876543210',
      gender: 'female',
      dateOfBirth: '1988-04-12',
      allergies: 'Penicillin',
      abhaNumber: null,
    })
    expect((await getPatient(t.app, cookies.viewer, created.id)).json()).toEqual(created)
    expect(await auditRowsFor(t.db, created.id)).toEqual([
      {
        hospital_id: sanjeevaniId,
        actor_user_id: await userIdOf(t.db, demoEmail('receptionist')),
        action: 'patient.created',
        entity_type: 'patient',
        entity_id: created.id,
        summary: 'Added patient Meera Joshi',
      },
    ])
  })

  it.each([
    ['9876543210', '+919876543210'],
    ['09876543210', '+919876543210'],
    ['+91 98765 43210', '+919876543210'],
    ['98765-43210', '+919876543210'],
    ['+1 212 555 0123', '+12125550123'],
  ])('normalises the phone %j to %s', async (typed, stored) => {
    const res = await createPatient(t.app, cookies.nurse, { name: 'Phone Check', phone: typed })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ phone: stored, email: null, gender: null, address: null })
  })

  it("requires 'name' and 'phone', with the form's messages", async () => {
    const res = await createPatient(t.app, cookies.doctor, {})
    expect(issuePaths(res)).toEqual(['name', 'phone'])
    const body = res.json<{ issues: { path: string; message: string }[] }>()
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Full name is required' },
        { path: 'phone', message: 'Phone is required' },
      ]),
    )
    expect(
      issuePaths(await createPatient(t.app, cookies.doctor, { name: '  ', phone: '   ' })),
    ).toEqual(['name', 'phone'])
  })

  it('rejects unknown fields, including an attempt to choose the hospital', async () => {
    const res = await createPatient(
      t.app,
      cookies.admin,
      manualPatientPayload({ hospitalId: smileId, id: crypto.randomUUID() }),
    )
    const body = expectError(res, 400, 'VALIDATION')
    expect(body.message).toMatch(/Unknown field/)
    expect(body.message).toMatch(/hospitalId/)
  })

  it.each([
    [{ phone: 'call me' }, 'phone'],
    [{ phone: 9876543210 }, 'phone'],
    [{ email: 'not-an-email' }, 'email'],
    [{ gender: 'unknown' }, 'gender'],
    [{ dateOfBirth: '1988-02-30' }, 'dateOfBirth'],
    [{ dateOfBirth: '2999-01-01' }, 'dateOfBirth'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ allergies: ['Penicillin'] }, 'allergies'],
    [{ abhaNumber: '1234' }, 'abhaNumber'],
  ])('answers %j with a 400 issue on %s and stores nothing', async (override, path) => {
    const before = await countRows(t.db, 'patients')
    expect(
      issuePaths(await createPatient(t.app, cookies.admin, manualPatientPayload(override))),
    ).toEqual([path])
    expect(await countRows(t.db, 'patients')).toBe(before)
  })

  const textFields = [
    'name',
    'address',
    'emergencyContact',
    'medicalHistory',
    'allergies',
    'insuranceProvider',
    'insuranceNumber',
  ]
  it.each(
    textFields.flatMap((field) =>
      ['a\u0000b', 'a\uD800b', '\uDC00'].map((bad) => [field, bad] as const),
    ),
  )(
    'refuses %s containing %j with a 400 (PostgreSQL text cannot hold it faithfully)',
    async (field, bad) => {
      const create = await createPatient(
        t.app,
        cookies.admin,
        manualPatientPayload({ [field]: `x${bad}` }),
      )
      expect(issuePaths(create)).toEqual([field])
      const patch = await patchPatient(t.app, cookies.admin, target.id, { [field]: `x${bad}` })
      expect(issuePaths(patch)).toEqual([field])
    },
  )

  it('rolls the patient back when its audit row cannot be written, with a generic 500', async () => {
    const before = await countRows(t.db, 'patients')
    await t.db.execute(sql`alter table audit_events rename to audit_events_away`)
    try {
      const res = await createPatient(
        t.app,
        cookies.admin,
        manualPatientPayload({ name: 'Never Stored' }),
      )
      expectError(res, 500, 'INTERNAL')
      expectNoInternals(res)
      expect(res.body).not.toMatch(/audit_events|relation/)
    } finally {
      await t.db.execute(sql`alter table audit_events_away rename to audit_events`)
    }
    expect(await countRows(t.db, 'patients')).toBe(before)
  })
})

describe('GET and PATCH /api/patients/:id', () => {
  it('changes only the fields sent, and writes an audit row naming them', async () => {
    const before = patient.parse((await getPatient(t.app, cookies.doctor, target.id)).json())
    const res = await patchPatient(t.app, cookies.doctor, target.id, {
      allergies: 'Latex',
      phone: '98220 12345',
    })
    expect(res.statusCode, res.body).toBe(200)
    const after = patient.strict().parse(res.json())
    expect(after).toEqual({
      ...before,
      allergies: 'Latex',
      phone: '+919822012345',
      updatedAt: after.updatedAt,
    })
    expect(after.updatedAt > before.updatedAt).toBe(true)
    const audit = (await auditRowsFor(t.db, target.id)).at(-1)
    expect(audit).toMatchObject({
      hospital_id: sanjeevaniId,
      actor_user_id: await userIdOf(t.db, demoEmail('doctor')),
      action: 'patient.updated',
    })
    expect(audit?.summary).toMatch(/allergies/)
    expect(audit?.summary).toMatch(/phone/)
  })

  it('clears an optional field sent as null or empty, but never name or phone', async () => {
    const cleared = await patchPatient(t.app, cookies.nurse, target.id, {
      insuranceNumber: null,
      address: '',
    })
    expect(cleared.json()).toMatchObject({ insuranceNumber: null, address: null })
    expect(issuePaths(await patchPatient(t.app, cookies.nurse, target.id, { name: null }))).toEqual(
      ['name'],
    )
    expect(issuePaths(await patchPatient(t.app, cookies.nurse, target.id, { phone: '' }))).toEqual([
      'phone',
    ])
    expectError(await patchPatient(t.app, cookies.nurse, target.id, {}), 400, 'VALIDATION')
    expectError(
      await patchPatient(t.app, cookies.nurse, target.id, { hospitalId: smileId }),
      400,
      'VALIDATION',
    )
    expect((await storedPatient(t.db, target.id))?.hospital_id).toBe(sanjeevaniId)
  })

  it('answers a malformed id with 400 and an unknown one with 404, writing nothing', async () => {
    const auditBefore = await countRows(t.db, 'audit_events')
    expect(issuePaths(await getPatient(t.app, cookies.admin, 'not-a-uuid'))).toEqual(['id'])
    expect(
      issuePaths(await patchPatient(t.app, cookies.admin, "1' or '1'='1", { allergies: 'x' })),
    ).toEqual(['id'])
    const missing = crypto.randomUUID()
    expectError(await getPatient(t.app, cookies.admin, missing), 404, 'NOT_FOUND')
    expectError(
      await patchPatient(t.app, cookies.admin, missing, { allergies: 'x' }),
      404,
      'NOT_FOUND',
    )
    expect(await countRows(t.db, 'audit_events')).toBe(auditBefore)
  })
})

describe('another hospital’s patients', () => {
  it('are 404 to read and to change for a Smile Dental user, and stay unchanged', async () => {
    const rowBefore = await storedPatient(t.db, target.id)
    const auditBefore = await auditRowsFor(t.db, target.id)
    expectError(await getPatient(t.app, cookies.smileAdmin, target.id), 404, 'NOT_FOUND')
    const patch = await patchPatient(t.app, cookies.smileAdmin, target.id, {
      name: 'Hijacked',
      allergies: 'None',
    })
    expectError(patch, 404, 'NOT_FOUND')
    expect(await storedPatient(t.db, target.id)).toEqual(rowBefore)
    expect(await auditRowsFor(t.db, target.id)).toEqual(auditBefore)
  })

  it('never appear in another hospital’s list or search', async () => {
    const own = patientsOf(await listPatients(t.app, cookies.smileAdmin!, '?limit=100'))
    expect(own.length).toBeGreaterThan(0)
    expect(own.every((p) => p.hospitalId === smileId)).toBe(true)
    expect(own.some((p) => p.id === target.id)).toBe(false)
    const search = patientsOf(
      await listPatients(t.app, cookies.smileAdmin!, `?search=${encodeURIComponent(target.name)}`),
    )
    expect(search.some((p) => p.id === target.id)).toBe(false)
  })
})
