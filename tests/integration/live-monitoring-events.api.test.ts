import { calls } from '../../src/server/db/schema/calls'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../../src/server/app'
import { openDatabase } from '../../src/server/db/client'
import { withTenant } from '../../src/server/db/tenant'
import type { Worker } from '../../src/server/jobs/worker'
import { recordActivity } from '../../src/server/modules/live-monitoring/activity'
import { dailySummary } from '../../src/server/modules/live-monitoring/live-monitoring.service'
import { registerMessagingJobs } from '../../src/server/modules/messaging/send-job'
import { advanceStatus } from '../../src/server/modules/messaging/status'
import { insertPatient } from '../../src/server/modules/patients/patients.service'
import { dailySummaryResponse } from '../../src/shared/schemas/live-monitoring'
import { communication } from '../../src/shared/schemas/leads'
import { addDoctor, booking, dayFromToday } from '../support/appointments'
import { waitFor } from '../support/jobs'
import { call, newLead, uniqueMobile } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import {
  configureTwilioSms,
  jobOptions,
  messagingWorker,
  storedMessage,
} from '../support/messaging-send'
import { manualPatientPayload } from '../support/patients'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  TEST_AUTH_SECRET,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 29 (docs/decisions/040): every event source writes its activity in the transaction of
// the action (rolled back with it); a day's summary in the hospital's zone; activities and
// presence pushed on the messaging SSE stream within 2 s, also from another instance.

let t: TestApp
let admin: string
let receptionist: string
let receptionistB: string
let h: string
let receptionistId: string
let base: string
let worker: Worker | undefined
let unregister: () => void = () => undefined

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  receptionistB = await login(t.app, demoEmail('receptionist', 'smiledental'))
  h = await hospitalIdOf(t.db, 'sanjeevani')
  receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterEach(async () => {
  await worker?.stop()
  worker = undefined
})
afterAll(async () => {
  unregister()
  streams.forEach((s) => s.destroy())
  await t?.close()
})

async function count(where: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from activities where ${where}`,
  )
  return row?.n ?? 0
}

class Rollback extends Error {}
async function rolledBack(fn: Parameters<typeof withTenant>[2]) {
  await expect(
    withTenant(t.db, { hospitalId: h, userId: receptionistId }, async (tx) => {
      await fn(tx)
      throw new Rollback('undo')
    }),
  ).rejects.toBeInstanceOf(Rollback)
}

describe('each source writes its activity in the same transaction', () => {
  it('a patient added (and rolled back: no patient, no activity)', async () => {
    const before = await count(sql`activity_type = 'patient_added'`)
    await rolledBack((tx) =>
      insertPatient(tx, {
        hospitalId: h,
        userId: receptionistId,
        limit: null,
        values: { ...manualPatientPayload(), name: 'Rolled Back', phone: '+919845000001' } as never,
      }),
    )
    expect(await count(sql`activity_type = 'patient_added'`)).toBe(before)
    const [p] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where name = 'Rolled Back'`,
    )
    expect(p?.n).toBe(0)
  })

  it('an activity itself rolls back with its transaction', async () => {
    const before = await count(sql`true`)
    await rolledBack((tx) =>
      recordActivity(tx, { hospitalId: h, userId: receptionistId, type: 'login' }),
    )
    expect(await count(sql`true`)).toBe(before)
  })

  it('an appointment booked records appointment_scheduled; a clash (409) records nothing', async () => {
    const doctorId = await addDoctor(t.db, h, 'Dr. Vikram Sethi')
    const patient = await call(
      t.app,
      receptionist,
      'POST',
      '/api/patients/manual',
      manualPatientPayload({ name: 'Ritu Agarwal', phone: '98450 22334' }),
    )
    const patientId = patient.json<{ id: string }>().id
    const date = dayFromToday(4)
    const first = await call(
      t.app,
      receptionist,
      'POST',
      '/api/appointments',
      booking(doctorId, patientId, date, '11:00'),
    )
    expect(first.statusCode, first.body).toBe(201)
    const id = first.json<{ id: string }>().id
    expect(
      await count(
        sql`activity_type = 'appointment_scheduled' and data->>'appointmentId' = ${id}
            and user_id = ${receptionistId} and data->>'patientName' = 'Ritu Agarwal'`,
      ),
    ).toBe(1)
    const before = await count(sql`activity_type = 'appointment_scheduled'`)
    const clash = await call(
      t.app,
      receptionist,
      'POST',
      '/api/appointments',
      booking(doctorId, patientId, date, '11:00'),
    )
    expect(clash.statusCode).toBe(409)
    expect(await count(sql`activity_type = 'appointment_scheduled'`)).toBe(before)
  })

  it('a message status moved in a rolled-back transaction records nothing', async () => {
    const lead = await newLead(t.app, receptionist, { phone: uniqueMobile(29_000) })
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into communications (hospital_id, lead_id, type, direction, content, status, created_by_user_id, contact_address)
          values (${h}, ${lead.id}, 'email', 'outbound', 'Your report', 'sending', ${receptionistId}, 'x@example.com')
          returning id`,
    )
    const id = row?.id ?? ''
    await rolledBack((tx) => advanceStatus(tx, { id }, { status: 'sent' }))
    expect(await count(sql`data->>'communicationId' = ${id}`)).toBe(0)
    // Committed: one email_sent, and later callbacks (delivered, read) add nothing.
    for (const status of ['sent', 'delivered', 'read'] as const) {
      await withTenant(t.db, { hospitalId: h, userId: null }, (tx) =>
        advanceStatus(tx, { id }, { status }),
      )
    }
    expect(
      await count(
        sql`data->>'communicationId' = ${id} and activity_type = 'email_sent' and user_id = ${receptionistId}`,
      ),
    ).toBe(1)
  })

  it('an SMS really sent (the send job, sandbox) records sms_sent for its sender, once', async () => {
    await configureTwilioSms(t.db, h, false)
    unregister = registerMessagingJobs(jobOptions())
    const lead = await newLead(t.app, receptionist, {
      name: 'Deepa Pillai',
      phone: uniqueMobile(29_100),
    })
    const res = await call(t.app, receptionist, 'POST', '/api/communications', {
      leadId: lead.id,
      type: 'sms',
      direction: 'outbound',
      status: 'sent',
      content: 'Your appointment is confirmed',
    })
    expect(res.statusCode, res.body).toBe(201)
    const id = communication.parse(res.json()).id
    expect(await count(sql`data->>'communicationId' = ${id}`)).toBe(0)
    worker = messagingWorker(t.database)
    await worker.start()
    await waitFor(
      async () => {
        const row = await storedMessage(t.db, id)
        return row?.status === 'delivered'
      },
      `delivered (${JSON.stringify(await storedMessage(t.db, id))})`,
      20_000,
    )
    const rows = await queryRows<{
      activity_type: string
      user_id: string
      data: Record<string, unknown>
    }>(
      t.db,
      sql`select activity_type, user_id, data from activities where data->>'communicationId' = ${id}`,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      activity_type: 'sms_sent',
      user_id: receptionistId,
      data: { channel: 'sms', leadId: lead.id, leadName: 'Deepa Pillai' },
    })
    // Never the text or the address.
    expect(JSON.stringify(rows[0]?.data)).not.toMatch(/confirmed|\+91/)
  })
})

describe('daily summary in the hospital zone (IST) with a fixed clock', () => {
  it('counts the IST day only, drops idle gaps, and scores against the targets', async () => {
    const userId = await addDoctor(t.db, h, 'Dr. Nandini Bose', { role: 'nurse' })
    const ist = (date: string, time: string) => new Date(`${date}T${time}:00+05:30`)
    const lead1 = '11111111-1111-4111-8111-111111111111'
    const lead2 = '22222222-2222-4222-8222-222222222222'
    const entries: [string, string, Parameters<typeof recordActivity>[1]['type'], string | null][] =
      [
        // The evening before in IST (still 9 March in UTC too): not counted.
        ['2025-03-09', '23:50', 'call_start', lead1],
        // 00:10 IST on 10 March is 18:40 UTC on 9 March: counted.
        ['2025-03-10', '00:10', 'login', null],
        ['2025-03-10', '00:20', 'call_start', lead1],
        ['2025-03-10', '00:25', 'call_end', lead1],
        // 09:00 is far from 00:25: an idle gap, not working time.
        ['2025-03-10', '09:00', 'sms_sent', lead2],
        ['2025-03-10', '09:10', 'email_sent', lead1],
        ['2025-03-10', '09:20', 'appointment_scheduled', null],
        // 10 March 23:59 IST counts; 11 March 00:00 IST does not.
        ['2025-03-10', '23:59', 'patient_added', null],
        ['2025-03-11', '00:00', 'call_start', lead2],
      ]
    await withTenant(t.db, { hospitalId: h, userId }, async (tx) => {
      for (const [date, time, type, leadId] of entries) {
        await recordActivity(tx, {
          hospitalId: h,
          userId,
          type,
          at: ist(date, time),
          data: { leadId },
        })
        // The calls themselves (issue 41): the summary's call figures count these.
        if (type === 'call_start') {
          await tx.insert(calls).values({
            hospitalId: h,
            userId,
            provider: 'sandbox',
            customerPhone: '+919800012345',
            status: 'completed',
            outcome: 'answered',
            durationSeconds: 300,
            startedAt: ist(date, time),
            createdAt: ist(date, time),
            endedAt: ist(date, time),
          })
        }
      }
    })
    const summary = await dailySummary({
      db: t.db,
      hospitalId: h,
      userId,
      seesAll: false,
      date: '2025-03-10',
      now: ist('2025-03-11', '12:00'),
    })
    expect(summary.timeZone).toBe('Asia/Kolkata')
    const mine = summary.summaries[0]
    // Working: 00:10 -> 00:25 (15) and 09:00 -> 09:20 (20): 35 minutes.
    expect(mine).toMatchObject({
      userId,
      callsMade: 1,
      callsAnswered: 1,
      callsMissed: 0,
      talkSeconds: 300,
      emailsSent: 1,
      smsSent: 1,
      leadsContacted: 2,
      appointmentsScheduled: 1,
      workingHours: 35,
    })
    const expected = (1 / 100 + 1 / 50 + 1 / 30 + 2 / 40 + 1 / 15 + 35 / 480) / 6
    expect(mine?.performanceScore).toBe(Math.round(expected * 100))
    // Without a date: "today" in IST at the fixed clock.
    const today = await dailySummary({
      db: t.db,
      hospitalId: h,
      userId,
      seesAll: false,
      now: new Date('2025-03-10T18:35:00Z'),
    })
    expect(today.date).toBe('2025-03-11')
    // Over HTTP, an admin sees the same row for that date.
    const res = await call(
      t.app,
      admin,
      'GET',
      `/api/live-monitoring/daily-summary?date=2025-03-10&userId=${userId}`,
    )
    const body = dailySummaryResponse.parse(res.json())
    expect(body.summaries[0]).toEqual(mine)
  })
})

interface SseEvent {
  event: string
  data: Record<string, unknown>
}
const streams: http.ClientRequest[] = []

function openStream(url: string, cookie: string) {
  const events: SseEvent[] = []
  let buffer = ''
  const opened = new Promise<void>((resolve, reject) => {
    const req = http.get(
      `${url}/api/events/messages`,
      { headers: { host: 'localhost', cookie } },
      (res) => {
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          buffer += chunk
          let cut
          while ((cut = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, cut)
            buffer = buffer.slice(cut + 2)
            const event = /^event: (.*)$/m.exec(block)?.[1]
            const data = /^data: (.*)$/m.exec(block)?.[1]
            if (event && data !== undefined)
              events.push({ event, data: JSON.parse(data) as Record<string, unknown> })
          }
        })
        resolve()
      },
    )
    req.on('error', reject)
    streams.push(req)
  })
  return {
    opened,
    events,
    async next(match: (e: SseEvent) => boolean, ms: number): Promise<SseEvent> {
      const deadline = Date.now() + ms
      for (;;) {
        const found = events.find(match)
        if (found) return found
        if (Date.now() > deadline)
          throw new Error(`no event in ${ms} ms: ${JSON.stringify(events)}`)
        await new Promise((r) => setTimeout(r, 10))
      }
    },
  }
}

const addPatient = (
  app: App['app'] | TestApp['app'],
  cookie: string,
  name: string,
  phone: string,
) =>
  app.inject({
    method: 'POST',
    url: '/api/patients/manual',
    headers: browserHeaders(cookie),
    payload: JSON.stringify(manualPatientPayload({ name, phone })),
  })

describe('pushed on GET /api/events/messages', () => {
  it('an `activity` within 2 s of a patient added, named; only to that hospital', async () => {
    const stream = openStream(base, admin)
    const other = openStream(base, receptionistB)
    await Promise.all([stream.opened, other.opened])
    await stream.next((e) => e.event === 'unread', 2_000)
    const started = Date.now()
    const res = await addPatient(t.app, receptionist, 'Gayatri Kulkarni', '98450 33445')
    expect(res.statusCode, res.body).toBe(201)
    const e = await stream.next(
      (x) =>
        x.event === 'activity' &&
        (x.data.activityData as { patientName?: string }).patientName === 'Gayatri Kulkarni',
      2_000,
    )
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(e.data).toMatchObject({ userId: receptionistId, activityType: 'patient_added' })
    expect(e.data.userName).toMatch(/\S/)
    const presence = await call(t.app, receptionist, 'POST', '/api/live-monitoring/heartbeat')
    expect(presence.statusCode).toBe(204)
    await stream.next((x) => x.event === 'presence' && x.data.userId === receptionistId, 2_000)
    expect(other.events.some((x) => x.event === 'activity')).toBe(false)
  })

  it.runIf(process.env.TEST_DATABASE_URL)(
    'an activity on another instance arrives within 2 s (NOTIFY)',
    async () => {
      const [{ db: name } = { db: '' }] = await queryRows<{ db: string }>(
        t.db,
        sql`select current_database() as db`,
      )
      const url = new URL(process.env.TEST_DATABASE_URL ?? '')
      url.pathname = `/${name}`
      const database = await openDatabase({ databaseUrl: url.toString() })
      const second = await buildApp({
        database,
        databaseDirectUrl: url.toString(),
        authSecret: TEST_AUTH_SECRET,
        logLevel: 'silent',
        authRateLimit: false,
        signInThrottle: { ipCeiling: 10_000 },
      })
      try {
        await second.app.ready()
        const stream = openStream(base, admin)
        await stream.opened
        await stream.next((e) => e.event === 'unread', 2_000)
        const cookie = await login(second.app, demoEmail('receptionist'))
        const started = Date.now()
        const res = await addPatient(second.app, cookie, 'Harish Menon', '98450 44556')
        expect(res.statusCode, res.body).toBe(201)
        await stream.next(
          (x) =>
            x.event === 'activity' &&
            (x.data.activityData as { patientName?: string }).patientName === 'Harish Menon',
          2_000,
        )
        expect(Date.now() - started).toBeLessThan(2_000)
      } finally {
        await second.app.close()
        await database.close()
      }
    },
  )
})
