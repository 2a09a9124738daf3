import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Mailer } from '../../src/server/integrations/email/mailer'
import { changeTicketStatus } from '../../src/server/modules/support-tickets/tickets-admin.service'
import type {
  SupportTicket,
  SupportTicketDetail,
  TicketComment,
} from '../../src/shared/schemas/support-tickets'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
  userIdOf,
} from '../support/test-app'
import { loginSuperAdmin } from '../support/two-factor'

// The services-growth mutation part (stryker/groups.mjs, docs/decisions/024), support tickets:
// the hospital's and the platform's paths through tickets.service and tickets-admin.service.
// Exact 404/409/400 messages, the fields each status move stores or clears, and the audit and
// email wording (subjects long enough to be cut). Attachments:
// growth-mutants-attachments.api.test.ts.

const NO_ID = '00000000-0000-4000-8000-000000000000'

let t: TestApp
let admin: string
let doctor: string
let adminB: string
let sa: string
let saId: string
let saName: string
let doctorName: string
let a: string
let b: string

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  doctor = await login(t.app, demoEmail('doctor'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  sa = await loginSuperAdmin(t.app)
  saId = await userIdOf(t.db, SUPER_ADMIN_EMAIL)
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
  saName = await nameOf(saId)
  doctorName = await nameOf(await userIdOf(t.db, demoEmail('doctor')))
}, 180_000)
afterAll(async () => {
  await t?.close()
})

async function nameOf(userId: string): Promise<string> {
  const [row] = await queryRows<{ name: string }>(
    t.db,
    sql`select name from users where id = ${userId}`,
  )
  return row!.name
}

function call(cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

/** A subject longer than every cut (80 and 120 characters). */
const LONG = `Invoice PDF prints the wrong GSTIN ${'and the wrong address '.repeat(7)}`.trim()

async function submit(cookie: string, subject = LONG): Promise<SupportTicket> {
  const res = await call(cookie, 'POST', '/api/support-tickets', {
    subject,
    description: 'Seen on every invoice since Monday.',
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<SupportTicket>()
}

const audits = (entityId: string) =>
  queryRows<{ action: string; summary: string }>(
    t.db,
    sql`select action, summary from audit_events where entity_id = ${entityId}
        order by created_at, id`,
  )

const ticketRow = async (id: string) =>
  (
    await queryRows<{
      status: string
      resolved: boolean
      resolution_notes: string | null
      assigned_to: string | null
    }>(
      t.db,
      sql`select status, resolved_at is not null as resolved, resolution_notes, assigned_to
          from support_tickets where id = ${id}`,
    )
  )[0]

const admin404 = async (res: Awaited<ReturnType<typeof call>>, what = 'Support ticket') =>
  expect(expectError(res, 404, 'NOT_FOUND').message).toBe(`${what} not found`)

describe('the hospital side', () => {
  it('shows the submitter’s and the commenter’s names; 404s name the ticket', async () => {
    const ticket = await submit(doctor)
    const c = await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/comments`, {
      body: 'Still happening.',
    })
    expect(c.json<TicketComment>()).toMatchObject({ side: 'hospital', author: doctorName })
    const detail = (
      await call(admin, 'GET', `/api/support-tickets/${ticket.id}`)
    ).json<SupportTicketDetail>()
    expect(detail.createdBy).toBe(doctorName)
    expect(detail.comments.map((x) => [x.side, x.author, x.body])).toEqual([
      ['hospital', doctorName, 'Still happening.'],
    ])
    for (const [method, url, body] of [
      ['GET', `/api/support-tickets/${ticket.id}`, undefined],
      ['POST', `/api/support-tickets/${ticket.id}/comments`, { body: 'hello' }],
      ['POST', `/api/support-tickets/${ticket.id}/reopen`, undefined],
    ] as const)
      await admin404(await call(adminB, method, url, body))
    expect(await audits(ticket.id)).toEqual([
      {
        action: 'support_ticket.created',
        summary: `Submitted support ticket: ${LONG.slice(0, 120)}`,
      },
      {
        action: 'support_ticket.commented',
        summary: `Commented on support ticket: ${LONG.slice(0, 120)}`,
      },
    ])
  })

  it('refuses comments on a closed ticket and a late reopen with the exact messages', async () => {
    const ticket = await submit(doctor)
    const reopen = await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/reopen`)
    expect(expectError(reopen, 409, 'INVALID_TRANSITION').message).toBe(
      'Only a ticket resolved in the last 7 days can be reopened',
    )
    const base = `/api/admin/support-tickets/${a}/${ticket.id}`
    await call(sa, 'POST', `${base}/status`, { status: 'resolved', resolutionNotes: 'Fixed.' })
    const ok = await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/reopen`)
    expect(ok.json<SupportTicket>()).toMatchObject({ status: 'open', resolvedAt: null })
    expect((await audits(ticket.id)).at(-1)).toEqual({
      action: 'support_ticket.reopened',
      summary: `Reopened support ticket: ${LONG.slice(0, 120)}`,
    })
    await call(sa, 'POST', `${base}/status`, { status: 'closed' })
    const comment = await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/comments`, {
      body: 'Again?',
    })
    expect(expectError(comment, 409, 'CONFLICT').message).toBe(
      'This ticket is closed: submit a new ticket instead',
    )
  })
})

describe('the platform side', () => {
  it('answers 404 for an unknown or the wrong hospital, with the exact message', async () => {
    const ticket = await submit(doctor)
    for (const hospital of [NO_ID, b]) {
      const base = `/api/admin/support-tickets/${hospital}/${ticket.id}`
      await admin404(await call(sa, 'POST', `${base}/assign`, { assignedTo: null }))
      await admin404(await call(sa, 'POST', `${base}/status`, { status: 'in_progress' }))
      await admin404(await call(sa, 'POST', `${base}/comments`, { body: 'Hello' }))
    }
    expect(await ticketRow(ticket.id)).toMatchObject({ status: 'open', assigned_to: null })
    expect(await audits(ticket.id)).toHaveLength(1)
  })

  it('assigns only a platform user (by flag or by role), unassigns, audits each', async () => {
    const ticket = await submit(doctor)
    const assign = (assignedTo: string | null) =>
      call(sa, 'POST', `/api/admin/support-tickets/${a}/${ticket.id}/assign`, { assignedTo })
    const doctorId = await userIdOf(t.db, demoEmail('doctor'))
    expect(expectError(await assign(doctorId), 400, 'VALIDATION')).toEqual({
      code: 'VALIDATION',
      message: 'Invalid input: assignedTo: Choose a platform support user',
      issues: [{ path: 'assignedTo', message: 'Choose a platform support user' }],
    })
    expect((await ticketRow(ticket.id))?.assigned_to).toBeNull()

    expect((await assign(saId)).json()).toEqual({ assignedTo: saId, assignedToName: saName })
    expect((await ticketRow(ticket.id))?.assigned_to).toBe(saId)
    // A user whose role alone says super admin (the flag unset) counts too.
    const byRole = await userIdOf(t.db, demoEmail('nurse', 'smiledental'))
    const byRoleName = await nameOf(byRole)
    await t.db.execute(sql`update users set role = 'super_admin' where id = ${byRole}`)
    try {
      expect((await assign(byRole)).json()).toEqual({
        assignedTo: byRole,
        assignedToName: byRoleName,
      })
    } finally {
      await t.db.execute(sql`update users set role = 'nurse' where id = ${byRole}`)
    }
    expect((await assign(null)).json()).toEqual({ assignedTo: null, assignedToName: null })
    expect((await ticketRow(ticket.id))?.assigned_to).toBeNull()
    expect((await audits(ticket.id)).slice(1)).toEqual(
      [
        `Arogya support assigned the ticket to ${saName}`,
        `Arogya support assigned the ticket to ${byRoleName}`,
        'Arogya support unassigned the ticket',
      ].map((summary) => ({ action: 'support_ticket.assigned', summary })),
    )
  })

  it('moves the status, keeping or clearing the resolution as each move says', async () => {
    const subject = LONG.replace('Invoice', 'Receipt')
    const ticket = await submit(doctor, subject)
    const base = `/api/admin/support-tickets/${a}/${ticket.id}`
    const status = async (body: Record<string, unknown>) => {
      const res = await call(sa, 'POST', `${base}/status`, body)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ status: body.status })
      return ticketRow(ticket.id)
    }
    expect(
      expectError(await call(sa, 'POST', `${base}/status`, { status: 'resolved' }), 400),
    ).toEqual({
      code: 'VALIDATION',
      message: 'Invalid input: resolutionNotes: Say how the ticket was resolved',
      issues: [{ path: 'resolutionNotes', message: 'Say how the ticket was resolved' }],
    })
    expect(
      await status({ status: 'in_progress', resolutionNotes: 'Waiting on the vendor' }),
    ).toEqual({
      status: 'in_progress',
      resolved: false,
      resolution_notes: 'Waiting on the vendor',
      assigned_to: null,
    })
    expect(await status({ status: 'resolved', resolutionNotes: 'GSTIN corrected.' })).toMatchObject(
      {
        status: 'resolved',
        resolved: true,
        resolution_notes: 'GSTIN corrected.',
      },
    )
    expect(await status({ status: 'in_progress' })).toMatchObject({
      resolved: false,
      resolution_notes: 'GSTIN corrected.',
    })
    await t.db.execute(sql`update support_tickets set resolved_at = now() where id = ${ticket.id}`)
    expect(await status({ status: 'open' })).toMatchObject({ status: 'open', resolved: false })
    await status({ status: 'closed' })
    const refused = await call(sa, 'POST', `${base}/status`, { status: 'open' })
    expect(expectError(refused, 409, 'INVALID_TRANSITION').message).toBe(
      'A closed ticket cannot be moved to open',
    )
    expect((await audits(ticket.id)).slice(1)).toEqual(
      [
        ['Open', 'In progress'],
        ['In progress', 'Resolved'],
        ['Resolved', 'In progress'],
        ['In progress', 'Open'],
        ['Open', 'Closed'],
      ].map(([from, to]) => ({
        action: 'support_ticket.status_changed',
        summary: `Arogya support moved the ticket from ${from} to ${to}`,
      })),
    )
    const mails = await queryRows<{ subject: string; text_body: string }>(
      t.db,
      sql`select subject, text_body from email_outbox
          where purpose = 'support-ticket-status' and to_address = ${demoEmail('doctor')}
            and subject like ${`%${subject.slice(0, 80)}`} order by created_at, id`,
    )
    const [hospital] = await queryRows<{ name: string }>(
      t.db,
      sql`select name from hospitals where id = ${a}`,
    )
    const text = (label: string, extra: string[] = []) =>
      [
        `Hello ${doctorName},`,
        '',
        `Your support ticket "${subject}" for ${hospital!.name} is now ${label}.`,
        ...extra,
        '',
        '— Arogya Support',
      ].join('\n')
    const plain = (label: string) => ({
      subject: `Your support ticket is now ${label}: ${subject.slice(0, 80)}`,
      text_body: text(label),
    })
    expect(mails).toEqual([
      plain('in progress'),
      {
        subject: `Your support ticket is now resolved: ${subject.slice(0, 80)}`,
        text_body: text('resolved', [
          '',
          'Resolution: GSTIN corrected.',
          '',
          'If the problem is back, you can reopen the ticket within 7 days from the Support page.',
        ]),
      },
      plain('in progress'),
      plain('open'),
      plain('closed'),
    ])
  })

  it('refuses blank resolution notes however they reach the service', async () => {
    const ticket = await submit(doctor)
    const mailer: Mailer = { driver: 'sandbox', send: () => Promise.resolve('sandbox') }
    await expect(
      changeTicketStatus({
        db: t.db,
        userId: saId,
        hospitalId: a,
        id: ticket.id,
        status: 'resolved',
        resolutionNotes: '   ',
        mailer,
      }),
    ).rejects.toThrow('Say how the ticket was resolved')
    expect(await ticketRow(ticket.id)).toMatchObject({ status: 'open', resolved: false })
  })

  it('replies in the platform’s name, audited', async () => {
    const ticket = await submit(doctor)
    const reply = await call(sa, 'POST', `/api/admin/support-tickets/${a}/${ticket.id}/comments`, {
      body: 'Looking into it.',
    })
    expect(reply.json<TicketComment>()).toMatchObject({
      side: 'platform',
      author: `${saName} (Arogya Support)`,
      body: 'Looking into it.',
    })
    expect((await audits(ticket.id)).at(-1)).toEqual({
      action: 'support_ticket.commented',
      summary: `Arogya support replied on the ticket: ${LONG.slice(0, 120)}`,
    })
  })
})
