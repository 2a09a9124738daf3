import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  notificationSettingsView,
  remindersPage,
  reminderSent,
  sandboxOutbox,
} from '../../src/shared/schemas/messaging-reminders'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import { metaCall } from '../support/meta'
import { setProvider } from '../support/messaging-send'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 25: Settings → Notifications (saved, validated, obeyed), the Pending Reminders card
// (stored reminders plus computed lead follow-ups, paginated) with Send Now through the send
// pipeline, and the Sandbox Outbox.

let t: TestApp
let admin: string
let receptionist: string
let viewer: string
let adminB: string
let hospitalA: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  viewer = await login(t.app, demoEmail('viewer'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
})
afterAll(async () => {
  await t?.close()
})

const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) =>
  metaCall(t.app, cookie, method, url, body)

describe('notification settings', () => {
  it("start at the spec's defaults", async () => {
    await queryRows(t.db, sql`delete from notification_settings where hospital_id = ${hospitalA}`)
    const res = await call(viewer, 'GET', '/api/settings/notifications')
    expect(res.statusCode, res.body).toBe(200)
    expect(notificationSettingsView.strict().parse(res.json())).toEqual({
      emailEnabled: true,
      smsEnabled: false,
      pushEnabled: true,
      appointmentReminders: true,
      quietHoursStart: '10:00',
      quietHoursEnd: '21:00',
      followUpDays: 3,
    })
  })

  it('are saved by admins, follow-up days into the lead settings', async () => {
    expectError(
      await call(receptionist, 'PUT', '/api/settings/notifications', { pushEnabled: false }),
      403,
    )
    const res = await call(admin, 'PUT', '/api/settings/notifications', {
      pushEnabled: false,
      quietHoursStart: '09:30',
      followUpDays: 5,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(notificationSettingsView.parse(res.json())).toMatchObject({
      pushEnabled: false,
      quietHoursStart: '09:30',
      quietHoursEnd: '21:00',
      followUpDays: 5,
    })
    const [lead] = await queryRows<{ follow_up_days: number }>(
      t.db,
      sql`select follow_up_days from lead_settings where hospital_id = ${hospitalA}`,
    )
    expect(lead?.follow_up_days).toBe(5)
    const b = notificationSettingsView.parse(
      (await call(adminB, 'GET', '/api/settings/notifications')).json(),
    )
    expect(b.pushEnabled).toBe(true)
    await call(admin, 'PUT', '/api/settings/notifications', { pushEnabled: true, followUpDays: 3 })
  })

  it('are validated', async () => {
    const bad: [unknown, string][] = [
      [{ quietHoursStart: '25:00' }, 'quietHoursStart'],
      [{ quietHoursEnd: '9:00' }, 'quietHoursEnd'],
      [{ quietHoursStart: '22:00' }, 'quietHoursEnd'],
      [{ quietHoursStart: '12:00', quietHoursEnd: '12:00' }, 'quietHoursEnd'],
      [{ followUpDays: 0 }, 'followUpDays'],
      [{ smsEnabled: 'yes' }, 'smsEnabled'],
      [{ volume: 11 }, ''],
    ]
    for (const [body, path] of bad) {
      expect(
        issuePaths(await call(admin, 'PUT', '/api/settings/notifications', body)),
        JSON.stringify(body),
      ).toEqual([path])
    }
  })
})

describe('reminders', () => {
  let patientId = ''
  let emailReminder = ''
  let smsReminder = ''
  let leadId = ''

  beforeAll(async () => {
    const [p] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from patients where hospital_id = ${hospitalA} and email is not null order by id limit 1`,
    )
    patientId = p?.id ?? ''
    const inserted = await queryRows<{ id: string; channel: string }>(
      t.db,
      sql`insert into reminders (hospital_id, type, message, channel, patient_id, due_at)
          values (${hospitalA}, 'payment', 'Namaste, a gentle reminder that ₹1,500 is due for your last visit.', 'email', ${patientId}, now() - interval '100 days'),
                 (${hospitalA}, 'appointment', 'Your appointment is tomorrow at 11:00.', 'sms', ${patientId}, now() - interval '99 days')
          returning id, channel`,
    )
    emailReminder = inserted.find((r) => r.channel === 'email')?.id ?? ''
    smsReminder = inserted.find((r) => r.channel === 'sms')?.id ?? ''
    const [lead] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into leads (hospital_id, name, phone, email, source, status, created_at)
          values (${hospitalA}, 'Kavya Menon', '+919812300001', 'kavya.menon@example.in', 'manual', 'new', now() - interval '98 days')
          returning id`,
    )
    leadId = lead?.id ?? ''
  })

  it('lists stored reminders and due lead follow-ups, soonest first, paginated with the total', async () => {
    const res = await call(viewer, 'GET', '/api/reminders?status=pending&limit=3')
    expect(res.statusCode, res.body).toBe(200)
    const page = remindersPage.strict().parse(res.json())
    expect(page.data.map((r) => r.id)).toEqual([emailReminder, smsReminder, `follow-up:${leadId}`])
    expect(page.data[2]).toMatchObject({
      type: 'follow_up',
      status: 'pending',
      leadId,
      name: 'Kavya Menon',
    })
    expect(page.data[0]).toMatchObject({ type: 'payment', patientId, channel: 'email' })
    expect(page.total).toBeGreaterThanOrEqual(3)
    const first = remindersPage.parse((await call(viewer, 'GET', '/api/reminders')).json())
    expect(first.data.length).toBe(Math.min(5, page.total))
    expect(first.total).toBe(page.total)
    const next = remindersPage.parse(
      (await call(viewer, 'GET', '/api/reminders?limit=1&offset=1')).json(),
    )
    expect(next.data.map((r) => r.id)).toEqual([smsReminder])
    const b = remindersPage.parse((await call(adminB, 'GET', '/api/reminders?limit=100')).json())
    expect(b.data.map((r) => r.id)).not.toContain(emailReminder)
    expect(b.data.map((r) => r.id)).not.toContain(`follow-up:${leadId}`)
    expect(issuePaths(await call(viewer, 'GET', '/api/reminders?status=soon'))).toEqual(['status'])
    expect(issuePaths(await call(viewer, 'GET', '/api/reminders?limit=0'))).toEqual(['limit'])
  })

  it('Send Now queues a stored reminder through the pipeline and marks it sent, once', async () => {
    expectError(await call(viewer, 'POST', `/api/reminders/${emailReminder}/send`), 403)
    expectError(await call(adminB, 'POST', `/api/reminders/${emailReminder}/send`), 404)
    const res = await call(receptionist, 'POST', `/api/reminders/${emailReminder}/send`)
    expect(res.statusCode, res.body).toBe(202)
    const sent = reminderSent.strict().parse(res.json())
    const [row] = await queryRows<{ status: string; communication_id: string }>(
      t.db,
      sql`select status, communication_id from reminders where id = ${emailReminder}`,
    )
    expect(row).toEqual({ status: 'sent', communication_id: sent.communicationId })
    const [comm] = await queryRows<{
      type: string
      status: string
      patient_id: string
      sandbox: boolean
    }>(
      t.db,
      sql`select type, status, patient_id, sandbox from communications where id = ${sent.communicationId}`,
    )
    expect(comm).toMatchObject({ type: 'email', patient_id: patientId, sandbox: true })
    expect(['queued', 'sending', 'sent', 'delivered']).toContain(comm?.status)
    expectError(
      await call(receptionist, 'POST', `/api/reminders/${emailReminder}/send`),
      409,
      'CONFLICT',
    )
    const pending = remindersPage.parse(
      (await call(viewer, 'GET', '/api/reminders?limit=100')).json(),
    )
    expect(pending.data.map((r) => r.id)).not.toContain(emailReminder)
    const sentList = remindersPage.parse(
      (await call(viewer, 'GET', '/api/reminders?status=sent&limit=100')).json(),
    )
    expect(sentList.data.map((r) => r.id)).toContain(emailReminder)
  })

  it('obeys the notification settings: SMS off means no SMS reminder', async () => {
    const off = expectError(
      await call(receptionist, 'POST', `/api/reminders/${smsReminder}/send`),
      409,
    )
    expect(off.message).toMatch(/SMS reminders are off/)
    await call(admin, 'PUT', '/api/settings/notifications', { smsEnabled: true })
    // Appointment reminders off: an appointment's reminder waits; a payment reminder still goes.
    await call(admin, 'PUT', '/api/settings/notifications', { appointmentReminders: false })
    const held = expectError(
      await call(receptionist, 'POST', `/api/reminders/${smsReminder}/send`),
      409,
      'CONFLICT',
    )
    expect(held.message).toBe('Appointment reminders are off in Settings → Notifications.')
    const [payment] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into reminders (hospital_id, type, message, channel, patient_id, due_at)
          values (${hospitalA}, 'payment', 'Namaste, ₹800 is due for your physiotherapy session.', 'email', ${patientId}, now() - interval '1 day')
          returning id`,
    )
    const paid = await call(receptionist, 'POST', `/api/reminders/${payment?.id}/send`)
    expect(paid.statusCode, paid.body).toBe(202)
    await call(admin, 'PUT', '/api/settings/notifications', { appointmentReminders: true })
    const res = await call(receptionist, 'POST', `/api/reminders/${smsReminder}/send`)
    expect(res.statusCode, res.body).toBe(202)
    await call(admin, 'PUT', '/api/settings/notifications', { smsEnabled: false })
  })

  it("Send Now on a lead follow-up uses the follow-up template on the lead's best channel", async () => {
    expectError(await call(adminB, 'POST', `/api/reminders/follow-up:${leadId}/send`), 404)
    // With a connected WhatsApp provider (on the sandbox every template is approved, so
    // WhatsApp would go): no reply and no approved template; SMS is off: email.
    await setProvider(t.db, hospitalA, 'whatsapp', 'meta')
    const res = await call(receptionist, 'POST', `/api/reminders/follow-up:${leadId}/send`)
    await setProvider(t.db, hospitalA, 'whatsapp', 'sandbox')
    expect(res.statusCode, res.body).toBe(202)
    const sent = reminderSent.parse(res.json())
    expect(sent.channel).toBe('email')
    const [comm] = await queryRows<{ content: string; lead_id: string; template: string }>(
      t.db,
      sql`select content, lead_id, metadata->>'template' as template from communications where id = ${sent.communicationId}`,
    )
    expect(comm?.lead_id).toBe(leadId)
    expect(comm?.template).toBe('follow-up')
    expect(comm?.content).toContain('Kavya Menon')
    // The lead was just contacted: no longer due.
    expectError(await call(receptionist, 'POST', `/api/reminders/follow-up:${leadId}/send`), 409)
    expectError(await call(receptionist, 'POST', '/api/reminders/not-an-id/send'), 400)
  })

  it('the Sandbox Outbox shows the sandbox messages, newest first, per hospital', async () => {
    const res = await call(viewer, 'GET', '/api/sandbox-outbox')
    expect(res.statusCode, res.body).toBe(200)
    const out = sandboxOutbox.strict().parse(res.json())
    const follow = out.messages.find((m) => m.leadId === leadId)
    expect(follow).toMatchObject({ channel: 'email', to: 'kavya.menon@example.in' })
    expect(follow?.subject).toContain('Kavya Menon')
    const times = out.messages.map((m) => m.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
    const b = sandboxOutbox.parse((await call(adminB, 'GET', '/api/sandbox-outbox')).json())
    expect(b.messages.find((m) => m.leadId === leadId)).toBeUndefined()
  })
})
