import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  NO_STAFF_PHONE,
  OPTED_OUT_OF_CALLS,
  STAFF_PHONE_UNVERIFIED,
} from '../../src/server/modules/calls/call-contact'
import { ALREADY_ON_A_CALL } from '../../src/server/modules/calls/calls.service'
import { STILL_LIVE } from '../../src/server/modules/calls/disposition.service'
import {
  FAST_VOICE,
  getCall,
  leadWithPhone,
  mobileEnding,
  patientWithPhone,
  send,
  setCallingHours,
  startCall,
  verifyMyPhone,
} from '../support/calls'
import { expectError } from '../support/http'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 41: every refusal of POST /api/calls and its neighbours is a clear 4xx that writes
// nothing (or, for a call already saved, a visible state). No job worker runs in this file, so
// a started sandbox call stays live: the one-live-call rule and a live call's disposition.

let t: TestApp
let admin: string
let doctor: string
let nurse: string
let viewer: string
let adminB: string
let hospitalA: string

/** Calls made since this file began (the demo seed's calls are older). */
let since = new Date()
const callCount = async () =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from calls where created_at >= ${since.toISOString()}`,
    )
  )[0]?.n ?? 0

beforeAll(async () => {
  t = await createTestApp({ voice: FAST_VOICE })
  admin = await login(t.app, demoEmail('admin'))
  doctor = await login(t.app, demoEmail('doctor'))
  nurse = await login(t.app, demoEmail('nurse'))
  viewer = await login(t.app, demoEmail('viewer'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  await setCallingHours(t, hospitalA, '00:00', '00:00')
  // The demo seed gives its staff verified phones: the nurse and the doctor start without one.
  const without = [
    await userIdOf(t.db, demoEmail('nurse')),
    await userIdOf(t.db, demoEmail('doctor')),
  ]
  for (const id of without) await t.db.execute(sql`delete from staff_phones where user_id = ${id}`)
  since = new Date()
})
afterAll(async () => {
  await t?.close()
})

describe('who may call', () => {
  it('answers 401 signed out and 403 to a viewer, and saves nothing', async () => {
    const lead = await leadWithPhone(t, admin, 1)
    expectError(await send(t.app, undefined, 'POST', '/api/calls', { leadId: lead.id }), 401)
    expectError(await send(t.app, viewer, 'POST', '/api/calls', { leadId: lead.id }), 403)
    expectError(
      await send(t.app, viewer, 'PUT', '/api/calls/my-phone', { phone: '98765 43210' }),
      403,
    )
    expect(await callCount()).toBe(0)
  })
})

describe('bad input', () => {
  it('refuses a body without exactly one of leadId and patientId, or with unknown fields', async () => {
    await verifyMyPhone(t, admin)
    const lead = await leadWithPhone(t, admin, 1)
    for (const body of [
      {},
      { leadId: 'not-a-uuid' },
      { leadId: lead.id, patientId: lead.id },
      { leadId: lead.id, extra: true },
    ]) {
      const res = await send(t.app, admin, 'POST', '/api/calls', body)
      expect(expectError(res, 400, 'VALIDATION').issues?.length).toBeGreaterThan(0)
    }
    expect(await callCount()).toBe(0)
  })

  it('a staff member without a verified phone is told to add and verify one', async () => {
    const lead = await leadWithPhone(t, nurse, 1)
    const none = expectError(
      await send(t.app, nurse, 'POST', '/api/calls', { leadId: lead.id }),
      400,
    )
    expect(none.message).toBe(NO_STAFF_PHONE)
    const nurseId = await userIdOf(t.db, demoEmail('nurse'))
    await t.db.execute(sql`insert into staff_phones (hospital_id, user_id, phone)
      values (${hospitalA}, ${nurseId}, '+919811122233')`)
    const unverified = expectError(
      await send(t.app, nurse, 'POST', '/api/calls', { leadId: lead.id }),
      400,
    )
    expect(unverified.message).toBe(STAFF_PHONE_UNVERIFIED)
    expect(await callCount()).toBe(0)
  })

  it('my phone: an invalid number is a 400 on the field; a valid one is verified by a test call', async () => {
    for (const phone of ['call me', '12345', '1234567890', '']) {
      const body = expectError(
        await send(t.app, doctor, 'PUT', '/api/calls/my-phone', { phone }),
        400,
        'VALIDATION',
      )
      expect(body.issues?.[0]?.path).toBe('phone')
    }
    const before = await send(t.app, doctor, 'GET', '/api/calls/my-phone')
    expect(before.json()).toEqual({ phone: null, verified: false, verifiedAt: null })
    const res = await send(t.app, doctor, 'PUT', '/api/calls/my-phone', { phone: '98200 11223' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ phone: '+919820011223', verified: true })
    const after = await send(t.app, doctor, 'GET', '/api/calls/my-phone')
    expect(after.json()).toMatchObject({ phone: '+919820011223', verified: true })
  })

  it('a contact without a phone, or with a number that is not a mobile, cannot be called', async () => {
    const lead = await leadWithPhone(t, admin, 1)
    await t.db.execute(sql`update leads set phone = '' where id = ${lead.id}`)
    const empty = expectError(
      await send(t.app, admin, 'POST', '/api/calls', { leadId: lead.id }),
      400,
    )
    expect(empty.message).toMatch(/no phone number/)
    const patientId = await patientWithPhone(t, admin, 1)
    await t.db.execute(sql`update patients set phone = '+911234567890' where id = ${patientId}`)
    const invalid = expectError(await send(t.app, admin, 'POST', '/api/calls', { patientId }), 400)
    expect(invalid.message).toMatch(/not a valid mobile number/)
    expect(await callCount()).toBe(0)
  })

  it('an unknown lead or patient is a 404', async () => {
    const id = '00000000-0000-4000-8000-000000000000'
    expectError(await send(t.app, admin, 'POST', '/api/calls', { leadId: id }), 404, 'NOT_FOUND')
    expectError(await send(t.app, admin, 'POST', '/api/calls', { patientId: id }), 404, 'NOT_FOUND')
    expectError(await send(t.app, admin, 'GET', `/api/calls/${id}`), 404, 'NOT_FOUND')
    expectError(await send(t.app, admin, 'GET', '/api/calls/nope'), 400, 'VALIDATION')
    for (const query of ['?leadId=x', '?from=yesterday', '?to=2026-02-30', '?status=live']) {
      expectError(await send(t.app, admin, 'GET', `/api/calls${query}`), 400, 'VALIDATION')
    }
  })
})

describe('consent and calling hours (leads only)', () => {
  it('a lead who opted out of calls is refused with the reason', async () => {
    const lead = await leadWithPhone(t, admin, 2)
    await t.db.execute(sql`insert into consent_records
      (hospital_id, channel, contact_address, purpose, action, method)
      values (${hospitalA}, 'sms', ${lead.phone}, 'calls', 'opt_out', 'staff')`)
    const body = expectError(
      await send(t.app, admin, 'POST', '/api/calls', { leadId: lead.id }),
      409,
      'OPTED_OUT',
    )
    expect(body.message).toBe(OPTED_OUT_OF_CALLS)
    expect(await callCount()).toBe(0)
  })

  it('outside the hospital’s calling hours a lead is refused, naming the hours', async () => {
    // A one-minute window twelve hours from now in Kolkata: now is always outside it.
    const kolkata = new Date(Date.now() + (5.5 + 12) * 3_600_000)
    const hh = String(kolkata.getUTCHours()).padStart(2, '0')
    await setCallingHours(t, hospitalA, `${hh}:00`, `${hh}:01`)
    try {
      const lead = await leadWithPhone(t, admin, 2)
      const body = expectError(
        await send(t.app, admin, 'POST', '/api/calls', { leadId: lead.id }),
        409,
        'CONFLICT',
      )
      expect(body.message).toContain(`between ${hh}:00 and ${hh}:01`)
      expect(await callCount()).toBe(0)
    } finally {
      await setCallingHours(t, hospitalA, '00:00', '00:00')
    }
  })
})

describe('one live call per staff member', () => {
  it('a second call while one is live is a 409; a live call takes no disposition yet', async () => {
    const first = await leadWithPhone(t, admin, 4)
    const second = await leadWithPhone(t, admin, 5)
    const live = await startCall(t, admin, { leadId: first.id })
    const again = expectError(
      await send(t.app, admin, 'POST', '/api/calls', { leadId: second.id }),
      409,
      'CONFLICT',
    )
    expect(again.message).toBe(ALREADY_ON_A_CALL)
    const disposed = expectError(
      await send(t.app, admin, 'POST', `/api/calls/${live.id}/disposition`, {
        disposition: 'interested',
      }),
      409,
    )
    expect(disposed.message).toBe(STILL_LIVE)
    // Another staff member may call at the same time.
    await startCall(t, doctor, { leadId: second.id })
    expect(await callCount()).toBe(2)
  })
})

describe('another hospital', () => {
  it('sees none of this hospital’s calls, leads or patients (404), and changes nothing', async () => {
    const [row] = await queryRows<{ id: string; lead_id: string }>(
      t.db,
      sql`select id, lead_id from calls where hospital_id = ${hospitalA} limit 1`,
    )
    const id = row?.id ?? ''
    await verifyMyPhone(t, adminB, mobileEnding(1, 44))
    expectError(await send(t.app, adminB, 'GET', `/api/calls/${id}`), 404, 'NOT_FOUND')
    const list = await send(t.app, adminB, 'GET', `/api/calls?leadId=${row?.lead_id ?? ''}`)
    expect(list.json()).toEqual({ calls: [] })
    expectError(
      await send(t.app, adminB, 'POST', `/api/calls/${id}/disposition`, {
        disposition: 'wrong_number',
      }),
      404,
      'NOT_FOUND',
    )
    const before = await callCount()
    expectError(
      await send(t.app, adminB, 'POST', '/api/calls', { leadId: row?.lead_id }),
      404,
      'NOT_FOUND',
    )
    expect(await callCount()).toBe(before)
    expect((await getCall(t, admin, id)).disposition).toBeNull()
  })
})
