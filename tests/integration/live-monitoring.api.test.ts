import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dailyTargets } from '../../src/shared/live-monitoring'
import { withTenant } from '../../src/server/db/tenant'
import { applyCallChange } from '../../src/server/modules/calls/call-progress'
import {
  activitiesResponse,
  dailySummaryResponse,
  onlineUsersResponse,
  overviewResponse,
} from '../../src/shared/schemas/live-monitoring'
import { setCallingHours, startCall } from '../support/calls'
import { expectError, issuePaths } from '../support/http'
import { call, newLead } from '../support/leads'
import { login } from '../support/login'
import { createPatient, manualPatientPayload } from '../support/patients'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 29, Live Monitoring (docs/decisions/040): the board, the feed, daily summaries, the
// cards, presence and calls; who sees what; bad input changes nothing.

let t: TestApp
let admin: string
let doctor: string
let viewer: string
let receptionist: string
let adminB: string
let a: string
let doctorId: string
let receptionistId: string
let doctorBId: string

const get = (cookie: string | undefined, url: string) => call(t.app, cookie, 'GET', url)
const post = (cookie: string | undefined, url: string, body?: unknown) =>
  call(t.app, cookie, 'POST', url, body)

async function activityCount(where = sql`true`): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from activities where ${where}`,
  )
  return row?.n ?? 0
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  doctor = await login(t.app, demoEmail('doctor'))
  viewer = await login(t.app, demoEmail('viewer'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  a = await hospitalIdOf(t.db, 'sanjeevani')
  doctorId = await userIdOf(t.db, demoEmail('doctor'))
  receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
  doctorBId = await userIdOf(t.db, demoEmail('doctor', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
})

describe('reads', () => {
  it('answers 401 signed out, and every hospital role reads the board, feed and cards', async () => {
    for (const url of [
      '/api/live-monitoring/online-users',
      '/api/live-monitoring/activities',
      '/api/live-monitoring/daily-summary',
      '/api/live-monitoring/overview',
    ]) {
      expectError(await get(undefined, url), 401, 'UNAUTHENTICATED')
      for (const cookie of [admin, doctor, viewer]) {
        expect((await get(cookie, url)).statusCode, url).toBe(200)
      }
    }
  })

  it('lists every active member of the hospital, online first, with the signed-in ones online', async () => {
    const res = await get(viewer, '/api/live-monitoring/online-users')
    const { users } = onlineUsersResponse.strict().parse(res.json())
    const ids = users.map((u) => u.userId)
    expect(ids).toContain(doctorId)
    expect(ids).not.toContain(doctorBId)
    const me = users.find((u) => u.userId === doctorId)
    // Signed in above: a login activity and presence online.
    expect(me?.isOnline).toBe(true)
    expect(me?.loginTime).not.toBeNull()
    expect(me?.user).toMatchObject({ role: 'doctor' })
    const firstOffline = users.findIndex((u) => !u.isOnline)
    if (firstOffline !== -1) expect(users.slice(firstOffline).every((u) => !u.isOnline)).toBe(true)
  })

  it('records sign-in as a login activity, newest first in the feed', async () => {
    const res = await get(doctor, '/api/live-monitoring/activities?limit=100')
    const { activities } = activitiesResponse.strict().parse(res.json())
    expect(activities.length).toBeLessThanOrEqual(100)
    const logins = activities.filter((x) => x.activityType === 'login' && x.userId === doctorId)
    expect(logins.length).toBeGreaterThan(0)
    expect(logins[0]?.userName).toMatch(/\S/)
    const times = activities.map((x) => x.timestamp)
    expect([...times].sort().reverse()).toEqual(times)
    expect(
      (await get(doctor, '/api/live-monitoring/activities')).json<{ activities: unknown[] }>()
        .activities.length,
    ).toBeLessThanOrEqual(20)
  })

  it('refuses bad feed limits and summary dates (400) and unknown fields', async () => {
    for (const q of ['limit=0', 'limit=1000', 'limit=abc', 'limit=2.5', 'other=1']) {
      expectError(await get(admin, `/api/live-monitoring/activities?${q}`), 400, 'VALIDATION')
    }
    for (const q of ['date=2026-02-30', 'date=yesterday', 'userId=not-a-uuid', 'x=1']) {
      expectError(await get(admin, `/api/live-monitoring/daily-summary?${q}`), 400, 'VALIDATION')
    }
    expect(issuePaths(await get(admin, '/api/live-monitoring/activities?limit=0'))).toEqual([
      'limit',
    ])
  })

  it('shows an admin every summary and other staff only their own', async () => {
    const all = dailySummaryResponse
      .strict()
      .parse((await get(admin, '/api/live-monitoring/daily-summary')).json())
    expect(all.timeZone).toBe('Asia/Kolkata')
    expect(all.targets).toEqual(dailyTargets)
    expect(all.summaries.map((s) => s.userId)).toEqual(
      expect.arrayContaining([doctorId, receptionistId]),
    )
    const own = dailySummaryResponse.parse(
      (await get(doctor, '/api/live-monitoring/daily-summary')).json(),
    )
    expect(own.summaries.map((s) => s.userId)).toEqual([doctorId])
    const viewerOwn = dailySummaryResponse.parse(
      (await get(viewer, '/api/live-monitoring/daily-summary')).json(),
    )
    expect(viewerOwn.summaries).toHaveLength(1)
    expect(viewerOwn.summaries[0]?.userId).not.toBe(doctorId)
  })

  it('404s a user of another hospital; only admins name a colleague', async () => {
    expectError(
      await get(admin, `/api/live-monitoring/daily-summary?userId=${doctorBId}`),
      404,
      'NOT_FOUND',
    )
    expectError(
      await get(adminB, `/api/live-monitoring/daily-summary?userId=${doctorId}`),
      404,
      'NOT_FOUND',
    )
    const one = dailySummaryResponse.parse(
      (await get(admin, `/api/live-monitoring/daily-summary?userId=${doctorId}`)).json(),
    )
    expect(one.summaries.map((s) => s.userId)).toEqual([doctorId])
    expectError(
      await get(doctor, `/api/live-monitoring/daily-summary?userId=${receptionistId}`),
      403,
    )
    expect(
      (await get(doctor, `/api/live-monitoring/daily-summary?userId=${doctorId}`)).statusCode,
    ).toBe(200)
  })

  it('keeps each hospital to its own activities', async () => {
    const { activities } = activitiesResponse.parse(
      (await get(adminB, '/api/live-monitoring/activities?limit=100')).json(),
    )
    expect(activities.some((x) => x.userId === doctorId)).toBe(false)
  })
})

describe('calls', () => {
  // Issue 41: the cards and the board read the calls themselves (their provider's events move
  // them), not button presses. No worker runs here: the test applies the changes.
  it('counts a call as ongoing while it rings, then in Calls Today, talk time and the summary', async () => {
    await setCallingHours(t, a, '00:00', '00:00')
    const lead = await newLead(t.app, receptionist, { name: 'Kavita Deshpande' })
    const cards = async () =>
      overviewResponse.strict().parse((await get(admin, '/api/live-monitoring/overview')).json())
    const board = async () =>
      onlineUsersResponse
        .parse((await get(admin, '/api/live-monitoring/online-users')).json())
        .users.find((u) => u.userId === receptionistId)
    const summary = async () =>
      dailySummaryResponse
        .parse(
          (await get(admin, `/api/live-monitoring/daily-summary?userId=${receptionistId}`)).json(),
        )
        .summaries.find((x) => x.userId === receptionistId)
    const before = await cards()
    const boardBefore = await board()
    const summaryBefore = await summary()
    const started = await startCall(t, receptionist, { leadId: lead.id })
    const during = await cards()
    expect(during.ongoingCalls).toBe(before.ongoingCalls + 1)
    expect(during.callsToday).toBe(before.callsToday + 1)
    expect((await board())?.onCall).toBe(true)

    const apply = (change: Parameters<typeof applyCallChange>[2]) =>
      withTenant(t.db, { hospitalId: a, userId: receptionistId }, (tx) =>
        applyCallChange(tx, started.id, change),
      )
    await apply({ status: 'in-progress', at: new Date() })
    await apply({ status: 'completed', at: new Date(), durationSeconds: 95 })
    const after = await cards()
    expect(after.ongoingCalls).toBe(before.ongoingCalls)
    expect(after.callsToday).toBe(before.callsToday + 1)
    const member = await board()
    expect(member).toMatchObject({
      onCall: false,
      callsToday: (boardBefore?.callsToday ?? 0) + 1,
      talkSecondsToday: (boardBefore?.talkSecondsToday ?? 0) + 95,
    })
    expect(await summary()).toMatchObject({
      callsMade: (summaryBefore?.callsMade ?? 0) + 1,
      callsAnswered: (summaryBefore?.callsAnswered ?? 0) + 1,
      callsMissed: summaryBefore?.callsMissed ?? 0,
      talkSeconds: (summaryBefore?.talkSeconds ?? 0) + 95,
    })

    const feed = activitiesResponse.parse(
      (await get(viewer, '/api/live-monitoring/activities?limit=5')).json(),
    )
    const end = feed.activities.find((x) => x.activityType === 'call_end')
    expect(end?.activityData).toMatchObject({
      leadId: lead.id,
      leadName: 'Kavita Deshpande',
      callId: started.id,
      durationSeconds: 95,
    })
    // A call that rings out is missed, with no talk time.
    const other = await newLead(t.app, receptionist, { name: 'Suresh Iyer' })
    const missed = await startCall(t, receptionist, { leadId: other.id })
    await withTenant(t.db, { hospitalId: a, userId: receptionistId }, (tx) =>
      applyCallChange(tx, missed.id, { status: 'no-answer', at: new Date() }),
    )
    expect(await summary()).toMatchObject({
      callsMade: (summaryBefore?.callsMade ?? 0) + 2,
      callsMissed: (summaryBefore?.callsMissed ?? 0) + 1,
      talkSeconds: (summaryBefore?.talkSeconds ?? 0) + 95,
    })
    // Another hospital's board counts none of it.
    expect((await get(adminB, '/api/live-monitoring/overview')).json()).toMatchObject({
      ongoingCalls: 0,
    })
  })
})

describe('presence', () => {
  it('heartbeat (204) keeps a member online; the pagehide beacon (no body) takes them offline', async () => {
    expect((await post(doctor, '/api/live-monitoring/heartbeat')).statusCode).toBe(204)
    const online = onlineUsersResponse.parse(
      (await get(admin, '/api/live-monitoring/online-users')).json(),
    )
    expect(online.users.find((u) => u.userId === doctorId)?.isOnline).toBe(true)
    // sendBeacon without data: a POST with no body and no content type.
    const beacon = await t.app.inject({
      method: 'POST',
      url: '/api/live-monitoring/offline',
      headers: { host: 'localhost', origin: 'http://localhost', cookie: doctor },
    })
    expect(beacon.statusCode, beacon.body).toBe(204)
    const [row] = await queryRows<{ is_online: boolean }>(
      t.db,
      sql`select is_online from user_presence where user_id = ${doctorId}`,
    )
    expect(row?.is_online).toBe(false)
    // A reload: the beacon, then the new page's first read, which marks them online at once
    // (the beacon does not hold the request throttle).
    expect((await get(doctor, '/api/live-monitoring/overview')).statusCode).toBe(200)
    const [reloaded] = await queryRows<{ is_online: boolean }>(
      t.db,
      sql`select is_online from user_presence where user_id = ${doctorId}`,
    )
    expect(reloaded?.is_online).toBe(true)
    await t.app.inject({
      method: 'POST',
      url: '/api/live-monitoring/offline',
      headers: { host: 'localhost', origin: 'http://localhost', cookie: doctor },
    })
    // The next heartbeat (the tab came back) is online again.
    expect((await post(doctor, '/api/live-monitoring/heartbeat')).statusCode).toBe(204)
    const back = onlineUsersResponse.parse(
      (await get(admin, '/api/live-monitoring/online-users')).json(),
    )
    expect(back.users.find((u) => u.userId === doctorId)?.isOnline).toBe(true)
  })

  it('refuses bodies on the heartbeat and beacon (400/415), and cross-site beacons (403)', async () => {
    expectError(await post(doctor, '/api/live-monitoring/heartbeat', { at: 1 }), 400)
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/live-monitoring/offline',
      headers: {
        host: 'localhost',
        origin: 'http://localhost',
        cookie: doctor,
        'content-type': 'text/plain',
      },
      payload: '{"userId":"x"}',
    })
    expect([400, 415]).toContain(text.statusCode)
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/live-monitoring/offline',
      headers: { host: 'localhost', origin: 'https://evil.example', cookie: doctor },
    })
    expect(cross.statusCode).toBe(403)
  })

  it('reads a member offline when their last activity is older than 10 minutes', async () => {
    await queryRows(
      t.db,
      sql`update user_presence set last_activity = now() - interval '11 minutes', is_online = true
          where user_id = ${receptionistId}`,
    )
    const res = await get(admin, '/api/live-monitoring/online-users')
    const u = onlineUsersResponse.parse(res.json()).users.find((x) => x.userId === receptionistId)
    expect(u?.isOnline).toBe(false)
  })

  it('signing out records logout and takes the member offline', async () => {
    const nurse = await login(t.app, demoEmail('nurse'))
    const nurseId = await userIdOf(t.db, demoEmail('nurse'))
    const logouts = await activityCount(sql`user_id = ${nurseId} and activity_type = 'logout'`)
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: {
        host: 'localhost',
        origin: 'http://localhost',
        cookie: nurse,
        'content-type': 'application/json',
      },
      payload: '{}',
    })
    expect(out.statusCode).toBe(303)
    expect(await activityCount(sql`user_id = ${nurseId} and activity_type = 'logout'`)).toBe(
      logouts + 1,
    )
    const users = onlineUsersResponse.parse(
      (await get(admin, '/api/live-monitoring/online-users')).json(),
    ).users
    expect(users.find((u) => u.userId === nurseId)?.isOnline).toBe(false)
  })
})

describe('event sources', () => {
  it('adding a patient records patient_added with the name, in the same transaction', async () => {
    const res = await createPatient(
      t.app,
      receptionist,
      manualPatientPayload({ name: 'Lakshmi Narayanan', phone: '98450 11223' }),
    )
    expect(res.statusCode, res.body).toBe(201)
    const id = res.json<{ id: string }>().id
    const [row] = await queryRows<{ user_id: string; data: { patientName: string } }>(
      t.db,
      sql`select user_id, data from activities where activity_type = 'patient_added' and data->>'patientId' = ${id}`,
    )
    expect(row?.user_id).toBe(receptionistId)
    expect(row?.data.patientName).toBe('Lakshmi Narayanan')
    expect(a).toBeTruthy()
    // Erasing the patient (DPDP) keeps the activity with the name replaced.
    const erased = await post(admin, `/api/patients/${id}/erase`, {
      confirmName: 'Lakshmi Narayanan',
    })
    expect(erased.statusCode, erased.body).toBe(200)
    const [after] = await queryRows<{ data: { patientName: string } }>(
      t.db,
      sql`select data from activities where activity_type = 'patient_added' and data->>'patientId' = ${id}`,
    )
    expect(after?.data.patientName).not.toBe('Lakshmi Narayanan')
    expect(JSON.stringify(after?.data)).not.toContain('Lakshmi')
  })
})

describe('demo seed', () => {
  it("gives Sanjeevani's staff a week of activities of every type and of calls", async () => {
    const rows = await queryRows<{ activity_type: string; days: number }>(
      t.db,
      sql`select activity_type, count(distinct (occurred_at at time zone 'Asia/Kolkata')::date)::int as days
          from activities where hospital_id = ${a} group by activity_type`,
    )
    const types = Object.fromEntries(rows.map((r) => [r.activity_type, r.days]))
    for (const type of [
      'login',
      'logout',
      'call_start',
      'call_end',
      'email_sent',
      'sms_sent',
      'patient_added',
      'appointment_scheduled',
    ]) {
      // Patients appear on the days the seed registered them in working hours (issue 40).
      expect(types[type], type).toBeGreaterThanOrEqual(type === 'patient_added' ? 4 : 5)
    }
    // The demo's calls are real call rows (issue 41): each ended, each with its Communication,
    // answered, rung out and busy, with dispositions and call-backs.
    const calls = await queryRows<{ outcome: string; n: number; comms: number; backs: number }>(
      t.db,
      sql`select c.outcome, count(*)::int as n,
            count(m.id)::int as comms, count(c.call_back_at)::int as backs
          from calls c left join communications m
            on m.type = 'call' and m.metadata ->> 'callId' = c.id::text
          where c.hospital_id = ${a} and c.provider_call_id like 'sandbox-%'
            and c.created_at < now() - interval '10 minutes'
          group by c.outcome`,
    )
    const byOutcome = Object.fromEntries(calls.map((r) => [r.outcome, r]))
    expect(Object.keys(byOutcome).sort()).toEqual(['answered', 'busy', 'no-answer'])
    for (const r of calls) expect(r.comms, r.outcome).toBe(r.n)
    expect(byOutcome.answered?.backs).toBeGreaterThan(0)
    const cards = overviewResponse.parse(
      (await get(adminB, '/api/live-monitoring/overview')).json(),
    )
    expect(cards).toEqual({
      teamOnline: expect.any(Number),
      ongoingCalls: 0,
      callsToday: 0,
      messagesSent: 0,
    })
  })
})
