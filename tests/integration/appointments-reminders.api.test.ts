import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Worker } from '../../src/server/jobs/worker'
import { APPOINTMENT_REMINDER_JOB } from '../../src/server/modules/appointments/reminders'
import { remindersPage } from '../../src/shared/schemas/messaging-reminders'
import {
  addDoctor,
  addPatient,
  appointmentOf,
  booking,
  call,
  dayFromToday,
  istInstant,
  patch,
  reminderJobsOf,
  remindersOf,
  runReminder,
} from '../support/appointments'
import { waitFor } from '../support/jobs'
import { login } from '../support/login'
import { optOut } from '../support/messaging-send'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 26: each booking schedules reminders (rows per offset and channel, a job per row and due
// time); rescheduling moves them, cancelling cancels them; the job sends once through the outbox,
// respecting opt-outs and the Notifications toggles, never for a moved, closed or past one.

let t: TestApp
let receptionist: string
let admin: string
let hospitalA: string
let doctor: string

beforeAll(async () => {
  t = await createTestApp()
  receptionist = await login(t.app, demoEmail('receptionist'))
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  doctor = await addDoctor(t.db, hospitalA, 'Dr. Ananya Rao')
})
afterAll(async () => {
  await t?.close()
})

const book = async (body: unknown) =>
  appointmentOf(await call(t, receptionist, 'POST', '/api/appointments', body), 201)

/** Every pending reminder of Settings → Notifications, page by page. */
async function allPending() {
  const all: ReturnType<typeof remindersPage.parse>['data'] = []
  for (let offset = 0; ; offset += 100) {
    const res = await call(
      t,
      admin,
      'GET',
      `/api/reminders?status=pending&limit=100&offset=${offset}`,
    )
    const page = remindersPage.parse(res.json())
    all.push(...page.data)
    if (page.data.length < 100) return all
  }
}

const messagesOf = (reminderId: string) =>
  queryRows<{ id: string; type: string; content: string }>(
    t.db,
    sql`select id, type, content from communications where metadata->>'reminderId' = ${reminderId}`,
  )

let slot = 0
/** A fresh 30-minute slot `days` ahead (10:00, 10:30, ... so tests never clash). */
function nextSlot(days = 3): { date: string; time: string } {
  slot += 1
  const minutes = 9 * 60 + slot * 30
  const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
  return { date: dayFromToday(days), time }
}

describe('scheduling', () => {
  it('writes a pending row and a job per offset, by WhatsApp for a patient with a mobile', async () => {
    const p = await addPatient(t.db, hospitalA, { name: 'Aarti Deshmukh' })
    const { date, time } = nextSlot()
    const a = await book(booking(doctor, p.id, date, time))
    const rows = await remindersOf(t.db, a.id)
    expect(rows.map((r) => [r.offset_minutes, r.channel, r.status])).toEqual([
      [1440, 'whatsapp', 'pending'],
      [120, 'whatsapp', 'pending'],
    ])
    const start = istInstant(date, time).getTime()
    for (const r of rows) {
      expect(new Date(r.due_at).getTime()).toBe(start - r.offset_minutes * 60_000)
      expect(r.message).toContain('Aarti Deshmukh')
      expect(r.message).toContain('Dr. Ananya Rao')
    }
    const jobs = await reminderJobsOf(
      t.db,
      rows.map((r) => r.id),
    )
    expect(jobs).toHaveLength(2)
    for (const j of jobs) {
      const r = rows.find((x) => x.id === j.payload.reminderId)
      expect(new Date(j.run_at).getTime()).toBe(new Date(r?.due_at ?? 0).getTime())
      expect(j.dedupe_key).toContain(j.payload.reminderId)
    }
    // Pending Reminders (Settings → Notifications) lists them as appointment reminders.
    const mine = (await allPending()).filter((r) => rows.some((x) => x.id === r.id))
    expect(mine).toHaveLength(2)
    for (const r of mine) expect(r).toMatchObject({ type: 'appointment', name: 'Aarti Deshmukh' })
  })

  it('skips offsets whose time has passed', async () => {
    const p = await addPatient(t.db, hospitalA)
    const soon = new Date(Date.now() + 3 * 3_600_000)
    const z = new Date(soon.getTime() + 5.5 * 3_600_000)
    const date = z.toISOString().slice(0, 10)
    const time = `${String(z.getUTCHours()).padStart(2, '0')}:${String(Math.floor(z.getUTCMinutes() / 15) * 15).padStart(2, '0')}`
    const a = await book(booking(doctor, p.id, date, time, { durationMinutes: 15 }))
    const rows = await remindersOf(t.db, a.id)
    expect(rows.map((r) => r.offset_minutes)).toEqual([120])
  })

  it('uses SMS, then email, for patients who opted out, and none when nothing is left', async () => {
    const wa = await addPatient(t.db, hospitalA, { email: 'farah@example.in' })
    await optOut(t.db, hospitalA, 'whatsapp', wa.phone)
    const a = await book(booking(doctor, wa.id, nextSlot().date, nextSlot().time))
    expect((await remindersOf(t.db, a.id)).map((r) => r.channel)).toEqual(['sms', 'sms'])
    await optOut(t.db, hospitalA, 'sms', wa.phone)
    const s = nextSlot()
    const b = await book(booking(doctor, wa.id, s.date, s.time))
    expect((await remindersOf(t.db, b.id)).map((r) => r.channel)).toEqual(['email', 'email'])
    const none = await addPatient(t.db, hospitalA)
    await optOut(t.db, hospitalA, 'whatsapp', none.phone)
    await optOut(t.db, hospitalA, 'sms', none.phone)
    const n = nextSlot()
    const c = await book(booking(doctor, none.id, n.date, n.time))
    expect(await remindersOf(t.db, c.id)).toEqual([])
  })
})

describe('rescheduling and cancelling', () => {
  it('moves the pending reminders; the old jobs find them moved and send nothing', async () => {
    const p = await addPatient(t.db, hospitalA)
    const s = nextSlot()
    const a = await book(booking(doctor, p.id, s.date, s.time))
    const before = await remindersOf(t.db, a.id)
    const oldJobs = await reminderJobsOf(
      t.db,
      before.map((r) => r.id),
    )
    const date = dayFromToday(5)
    appointmentOf(
      await patch(t, receptionist, `/api/appointments/${a.id}`, { date, time: '18:00' }),
    )
    const after = await remindersOf(t.db, a.id)
    const start = istInstant(date, '18:00').getTime()
    expect(after.map((r) => [r.offset_minutes, r.status])).toEqual([
      [1440, 'pending'],
      [120, 'pending'],
    ])
    for (const r of after)
      expect(new Date(r.due_at).getTime()).toBe(start - r.offset_minutes * 60_000)
    const jobs = await reminderJobsOf(
      t.db,
      after.map((r) => r.id),
    )
    expect(jobs.map((j) => new Date(j.run_at).getTime()).sort()).toEqual(
      expect.arrayContaining(after.map((r) => new Date(r.due_at).getTime())),
    )
    for (const old of oldJobs) {
      expect(await runReminder(t.db, hospitalA, old.payload)).toEqual({
        sent: false,
        reason: 'moved',
      })
    }
    for (const r of after) expect(await messagesOf(r.id)).toEqual([])
  })

  it('cancels them with the appointment; their jobs do nothing', async () => {
    const p = await addPatient(t.db, hospitalA, { email: 'meera@example.in' })
    const s = nextSlot()
    const a = await book(booking(doctor, p.id, s.date, s.time))
    const rows = await remindersOf(t.db, a.id)
    const jobs = await reminderJobsOf(
      t.db,
      rows.map((r) => r.id),
    )
    appointmentOf(
      await patch(t, receptionist, `/api/appointments/${a.id}`, { status: 'cancelled' }),
    )
    expect((await remindersOf(t.db, a.id)).map((r) => r.status)).toEqual(['cancelled', 'cancelled'])
    for (const j of jobs) {
      expect(await runReminder(t.db, hospitalA, j.payload)).toEqual({
        sent: false,
        reason: 'cancelled',
      })
    }
    const ids = (await allPending()).map((r) => r.id)
    for (const r of rows) expect(ids).not.toContain(r.id)
  })
})

describe('the reminder job', () => {
  it('sends once when run twice (also concurrently), through the outbox', async () => {
    const p = await addPatient(t.db, hospitalA, {
      name: 'Gaurav Kulkarni',
      email: 'gaurav@example.in',
    })
    const s = nextSlot()
    const a = await book(booking(doctor, p.id, s.date, s.time))
    const [r] = await remindersOf(t.db, a.id)
    if (!r) throw new Error('no reminder')
    const payload = { reminderId: r.id, dueAt: new Date(r.due_at).toISOString() }
    // No WhatsApp provider is connected: the sandbox stands in for one whose templates are
    // approved, so the appointment-reminder template goes by WhatsApp although the window is closed.
    const runs = await Promise.all([
      runReminder(t.db, hospitalA, payload),
      runReminder(t.db, hospitalA, payload),
    ])
    expect(runs.filter((x) => x.sent)).toHaveLength(1)
    expect(runs.find((x) => x.sent)).toMatchObject({ channel: 'whatsapp' })
    expect(await runReminder(t.db, hospitalA, payload)).toEqual({ sent: false, reason: 'sent' })
    const messages = await messagesOf(r.id)
    expect(messages).toHaveLength(1)
    expect(messages[0]?.content).toContain('Gaurav Kulkarni')
    expect((await remindersOf(t.db, a.id))[0]?.status).toBe('sent')
  })

  it('respects the Notifications toggle and an appointment that has started', async () => {
    const p = await addPatient(t.db, hospitalA, { email: 'isha@example.in' })
    const s = nextSlot()
    const a = await book(booking(doctor, p.id, s.date, s.time))
    const [first, second] = await remindersOf(t.db, a.id)
    if (!first || !second) throw new Error('no reminders')
    await t.db.execute(sql`
      insert into notification_settings (hospital_id, appointment_reminders) values (${hospitalA}, false)
      on conflict (hospital_id) do update set appointment_reminders = false`)
    try {
      const off = await runReminder(t.db, hospitalA, {
        reminderId: first.id,
        dueAt: new Date(first.due_at).toISOString(),
      })
      expect(off).toEqual({ sent: false, reason: 'appointment reminders off' })
    } finally {
      await t.db.execute(
        sql`update notification_settings set appointment_reminders = true where hospital_id = ${hospitalA}`,
      )
    }
    const late = await runReminder(
      t.db,
      hospitalA,
      { reminderId: second.id, dueAt: new Date(second.due_at).toISOString() },
      new Date(istInstant(s.date, s.time).getTime() + 60_000),
    )
    expect(late).toEqual({ sent: false, reason: 'past' })
    expect(await messagesOf(first.id)).toEqual([])
    expect(await messagesOf(second.id)).toEqual([])
  })

  it('runs on a worker when due, by WhatsApp when its window is open', async () => {
    const p = await addPatient(t.db, hospitalA, { name: 'Nikhil Rane' })
    await t.db.execute(sql`
      insert into communications (hospital_id, patient_id, type, direction, content, status, contact_address)
      values (${hospitalA}, ${p.id}, 'whatsapp', 'inbound', 'Namaste', 'received', ${p.phone})`)
    const s = nextSlot()
    const a = await book(booking(doctor, p.id, s.date, s.time))
    const [r] = await remindersOf(t.db, a.id)
    if (!r) throw new Error('no reminder')
    // Due now: the job is brought forward with its reminder (as if the clock had moved on).
    await t.db.execute(
      sql`update reminders set due_at = now() - interval '1 second' where id = ${r.id}`,
    )
    const [due] = await queryRows<{ due_at: Date | string }>(
      t.db,
      sql`select due_at from reminders where id = ${r.id}`,
    )
    await t.db.execute(sql`
      update jobs set run_at = now() - interval '1 second',
        payload = jsonb_build_object('reminderId', ${r.id}::text, 'dueAt', ${new Date(due?.due_at ?? 0).toISOString()}::text)
      where name = ${APPOINTMENT_REMINDER_JOB} and payload->>'reminderId' = ${r.id}`)
    const worker = new Worker({
      database: t.database,
      names: [APPOINTMENT_REMINDER_JOB],
      pollMs: 20,
    })
    await worker.start()
    try {
      await waitFor(
        async () =>
          (await remindersOf(t.db, a.id)).find((x) => x.id === r.id && x.status === 'sent'),
        'sent',
      )
    } finally {
      await worker.stop()
    }
    const messages = await messagesOf(r.id)
    expect(messages.map((m) => m.type)).toEqual(['whatsapp'])
  })
})
