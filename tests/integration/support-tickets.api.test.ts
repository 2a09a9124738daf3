import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  AdminSupportTicket,
  SupportTicket,
  SupportTicketDetail,
  SupportTicketSummary,
  TicketComment,
} from '../../src/shared/schemas/support-tickets'
import { hostileString, hostileValue } from '../support/hostile'
import { expectError, issuePaths } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { loginSuperAdmin } from '../support/two-factor'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  SUPER_ADMIN_EMAIL,
  type TestApp,
  userIdOf,
} from '../support/test-app'

// Issue 28, Support Tickets (docs/decisions/037): the hospital submits, comments and reopens;
// the platform's super admins see every hospital's tickets, assign them and move their status.

let t: TestApp
let admin: string
let doctor: string
let viewer: string
let adminB: string
let sa: string
let saId: string
let a: string
let b: string

type Method = 'GET' | 'POST'
function call(cookie: string | undefined, method: Method, url: string, body?: unknown) {
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

const ticketBody = (subject = 'WhatsApp reminders not going out') => ({
  subject,
  description: 'Since this morning the 24-hour reminders show as queued but never send.',
})

async function submit(cookie: string, body: unknown = ticketBody()): Promise<SupportTicket> {
  const res = await call(cookie, 'POST', '/api/support-tickets', body)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<SupportTicket>()
}

async function ticketCount(hospitalId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from support_tickets where hospital_id = ${hospitalId}`,
  )
  return row?.n ?? 0
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  doctor = await login(t.app, demoEmail('doctor'))
  viewer = await login(t.app, demoEmail('viewer'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  sa = await loginSuperAdmin(t.app)
  saId = await userIdOf(t.db, SUPER_ADMIN_EMAIL)
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
})
afterAll(async () => {
  await t?.close()
})

describe('submitting a ticket', () => {
  it('applies the spec defaults and lists it newest first', async () => {
    const created = await submit(doctor)
    expect(created).toMatchObject({
      category: 'technical',
      priority: 'medium',
      status: 'open',
      attachments: [],
      commentCount: 0,
      resolvedAt: null,
      canReopen: false,
    })
    const second = await submit(doctor, {
      ...ticketBody('Add a Kannada invoice template'),
      category: 'feature_request',
      priority: 'low',
    })
    const list = (await call(doctor, 'GET', '/api/support-tickets')).json<SupportTicket[]>()
    expect(list.slice(0, 2).map((x) => x.id)).toEqual([second.id, created.id])
    const [audit] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events where entity_id = ${created.id} and action = 'support_ticket.created'`,
    )
    expect(audit?.n).toBe(1)
  })

  it('lets every role submit; admins see all the hospital’s tickets, others their own', async () => {
    const mine = await submit(viewer, ticketBody('Cannot find the export button'))
    const doctorList = (await call(doctor, 'GET', '/api/support-tickets')).json<SupportTicket[]>()
    expect(doctorList.map((x) => x.id)).not.toContain(mine.id)
    expectError(await call(doctor, 'GET', `/api/support-tickets/${mine.id}`), 404, 'NOT_FOUND')
    const adminList = (await call(admin, 'GET', '/api/support-tickets')).json<SupportTicket[]>()
    expect(adminList.map((x) => x.id)).toContain(mine.id)
    expect((await call(admin, 'GET', `/api/support-tickets/${mine.id}`)).statusCode).toBe(200)
  })

  it('refuses bad input with field issues and stores nothing', async () => {
    const before = await ticketCount(a)
    expect(issuePaths(await call(admin, 'POST', '/api/support-tickets', {}))).toEqual([
      'description',
      'subject',
    ])
    expect(
      issuePaths(
        await call(admin, 'POST', '/api/support-tickets', { ...ticketBody(), subject: '   ' }),
      ),
    ).toEqual(['subject'])
    expect(
      issuePaths(
        await call(admin, 'POST', '/api/support-tickets', {
          ...ticketBody(),
          subject: 'x'.repeat(201),
          description: 'y'.repeat(5001),
        }),
      ),
    ).toEqual(['description', 'subject'])
    expect(
      issuePaths(
        await call(admin, 'POST', '/api/support-tickets', {
          ...ticketBody(),
          category: 'urgent-help',
          priority: 'critical',
        }),
      ),
    ).toEqual(['category', 'priority'])
    expect(
      issuePaths(await call(admin, 'POST', '/api/support-tickets', { ...ticketBody(), extra: 1 })),
    ).toEqual([''])
    // Announced attachments: a type not accepted, or over the plan's 10 MB (Starter/Professional).
    const [plan] = await queryRows<{ plan: string }>(
      t.db,
      sql`select plan from hospitals where id = ${a}`,
    )
    const big = plan?.plan.includes('enterprise') ? 50 : 10
    expect(
      issuePaths(
        await call(admin, 'POST', '/api/support-tickets', {
          ...ticketBody(),
          attachments: [
            { name: 'setup.exe', size: 10 },
            { name: 'screen.png', size: big * 1024 * 1024 + 1 },
          ],
        }),
      ),
    ).toEqual(['attachments.0.name', 'attachments.1.size'])
    expect(await ticketCount(a)).toBe(before)
  })

  it('stores HTML and script as plain text, returned as written', async () => {
    const subject = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    const created = await submit(admin, { ...ticketBody(subject) })
    const detail = (
      await call(admin, 'GET', `/api/support-tickets/${created.id}`)
    ).json<SupportTicketDetail>()
    expect(detail.subject).toBe(subject)
  })

  it('random and hostile bodies never get a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            subject: fc.oneof(hostileString, hostileValue),
            description: fc.oneof(hostileString, hostileValue),
            category: fc.oneof(fc.constantFrom('technical', 'billing'), hostileValue),
            priority: fc.oneof(fc.constantFrom('low', 'urgent'), hostileValue),
            attachments: hostileValue,
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const res = await call(viewer, 'POST', '/api/support-tickets', body)
          expect(res.statusCode, res.body).toBeLessThan(500)
          const c = await call(
            viewer,
            'POST',
            `/api/support-tickets/${crypto.randomUUID()}/comments`,
            body,
          )
          expect(c.statusCode, c.body).toBeLessThan(500)
        },
      ),
      { numRuns: 40 },
    )
  })
})

describe('another hospital and other roles', () => {
  it('answers 404 for another hospital’s ticket and changes nothing', async () => {
    const ticket = await submit(admin)
    for (const [method, url, body] of [
      ['GET', `/api/support-tickets/${ticket.id}`, undefined],
      ['POST', `/api/support-tickets/${ticket.id}/comments`, { body: 'hello' }],
      ['POST', `/api/support-tickets/${ticket.id}/reopen`, undefined],
    ] as const) {
      expectError(await call(adminB, method, url, body), 404, 'NOT_FOUND')
    }
    const listB = (await call(adminB, 'GET', '/api/support-tickets')).json<SupportTicket[]>()
    expect(listB.map((x) => x.id)).not.toContain(ticket.id)
    const detail = (
      await call(admin, 'GET', `/api/support-tickets/${ticket.id}`)
    ).json<SupportTicketDetail>()
    expect(detail.comments).toEqual([])
    expectError(await call(admin, 'GET', '/api/support-tickets/not-a-uuid'), 400, 'VALIDATION')
  })

  it('keeps the platform routes to super admins and the hospital routes to members', async () => {
    expectError(await call(admin, 'GET', '/api/admin/support-tickets'), 403)
    expectError(await call(doctor, 'GET', '/api/admin/support-tickets/summary'), 403)
    expectError(await call(sa, 'GET', '/api/support-tickets'), 403)
    expectError(await call(undefined, 'GET', '/api/support-tickets'), 401)
  })
})

describe('the thread, the platform side and reopening', () => {
  it('runs open → in_progress → resolved, emails the submitter, reopens, then closes', async () => {
    const ticket = await submit(doctor, ticketBody('Invoice PDF shows the wrong GSTIN'))
    const c = await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/comments`, {
      body: 'It happens on every invoice since Monday.',
    })
    expect(c.statusCode).toBe(201)
    expect(c.json<TicketComment>()).toMatchObject({ side: 'hospital' })

    const all = (await call(sa, 'GET', '/api/admin/support-tickets?status=open')).json<
      AdminSupportTicket[]
    >()
    const listed = all.find((x) => x.id === ticket.id)
    expect(listed).toMatchObject({ hospitalId: a, commentCount: 1, status: 'open' })
    expect(listed?.hospitalName.length).toBeGreaterThan(0)
    expect(all.every((x) => x.status === 'open')).toBe(true)
    issuePaths(await call(sa, 'GET', '/api/admin/support-tickets?status=weird'))

    const summary = (
      await call(sa, 'GET', '/api/admin/support-tickets/summary')
    ).json<SupportTicketSummary>()
    expect(summary.open.underOneDay).toBeGreaterThan(0)
    expect(summary.open.total).toBe(
      summary.open.underOneDay + summary.open.oneToThreeDays + summary.open.overThreeDays,
    )

    const base = `/api/admin/support-tickets/${a}/${ticket.id}`
    expect((await call(sa, 'POST', `${base}/assign`, { assignedTo: saId })).json()).toMatchObject({
      assignedTo: saId,
    })
    issuePaths(
      await call(sa, 'POST', `${base}/assign`, {
        assignedTo: await userIdOf(t.db, demoEmail('doctor')),
      }),
    )
    // The wrong hospital in the path: 404.
    expectError(
      await call(sa, 'POST', `/api/admin/support-tickets/${b}/${ticket.id}/assign`, {
        assignedTo: null,
      }),
      404,
    )

    expect(issuePaths(await call(sa, 'POST', `${base}/status`, { status: 'resolved' }))).toEqual([
      'resolutionNotes',
    ])
    expectError(
      await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/reopen`),
      409,
      'INVALID_TRANSITION',
    )
    expect((await call(sa, 'POST', `${base}/status`, { status: 'in_progress' })).statusCode).toBe(
      200,
    )
    const reply = await call(sa, 'POST', `${base}/comments`, { body: 'Looking into it now.' })
    expect(reply.json<TicketComment>()).toMatchObject({ side: 'platform' })
    const resolved = await call(sa, 'POST', `${base}/status`, {
      status: 'resolved',
      resolutionNotes: 'The GSTIN on Settings had a stray space; fixed.',
    })
    expect(resolved.statusCode, resolved.body).toBe(200)

    const detail = (
      await call(doctor, 'GET', `/api/support-tickets/${ticket.id}`)
    ).json<SupportTicketDetail>()
    expect(detail).toMatchObject({ status: 'resolved', canReopen: true, commentCount: 2 })
    expect(detail.comments.map((x) => x.side)).toEqual(['hospital', 'platform'])
    expect(detail.resolutionNotes).toMatch(/stray space/)

    const mails = await queryRows<{ subject: string }>(
      t.db,
      sql`select subject from email_outbox where to_address = ${demoEmail('doctor')} and purpose = 'support-ticket-status' order by created_at`,
    )
    expect(mails.map((m) => m.subject).join('\n')).toMatch(/now resolved/)

    const reopened = await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/reopen`)
    expect(reopened.json<SupportTicket>()).toMatchObject({ status: 'open', resolvedAt: null })

    // Resolved more than 7 days ago: no longer reopenable.
    await call(sa, 'POST', `${base}/status`, {
      status: 'resolved',
      resolutionNotes: 'Fixed again.',
    })
    await t.db.execute(
      sql`update support_tickets set resolved_at = now() - interval '8 days' where id = ${ticket.id}`,
    )
    expectError(
      await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/reopen`),
      409,
      'INVALID_TRANSITION',
    )
    expect((await call(sa, 'POST', `${base}/status`, { status: 'closed' })).statusCode).toBe(200)
    expectError(
      await call(sa, 'POST', `${base}/status`, { status: 'open' }),
      409,
      'INVALID_TRANSITION',
    )
    expectError(
      await call(doctor, 'POST', `/api/support-tickets/${ticket.id}/comments`, { body: 'still?' }),
      409,
    )
    const [audits] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events where entity_id = ${ticket.id}`,
    )
    expect(audits?.n).toBeGreaterThanOrEqual(8)
  })
})
