import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addAttachment } from '../../src/server/modules/support-tickets/attachments.service'
import { hospitalAttachmentLimit } from '../../src/server/modules/support-tickets/tickets.service'
import { getStorage, resetStorageForTests } from '../../src/server/storage/storage'
import type { SupportTicket, TicketAttachment } from '../../src/shared/schemas/support-tickets'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { samples } from '../support/storage-samples'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
  userIdOf,
} from '../support/test-app'
import { loginSuperAdmin } from '../support/two-factor'

// The services-growth mutation part (stryker/groups.mjs, docs/decisions/024), support-ticket
// attachments (attachments.service, and tickets.service's plan limit): the exact 404, 403 and
// 409 messages, the audit wording (names and subjects long enough to be cut), the most files a
// ticket holds, and the stored file deleted again when its row cannot be written. The tickets
// themselves: growth-mutants-tickets.api.test.ts.

const dataDir = mkdtempSync(join(tmpdir(), 'arogya-growth-attachments-'))
const previousDataDir = process.env.DATA_DIR
const NO_ID = '00000000-0000-4000-8000-000000000000'

let t: TestApp
let admin: string
let doctor: string
let adminB: string
let sa: string
let a: string
let b: string

beforeAll(async () => {
  process.env.DATA_DIR = dataDir
  resetStorageForTests()
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  doctor = await login(t.app, demoEmail('doctor'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  sa = await loginSuperAdmin(t.app)
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
}, 180_000)
afterAll(async () => {
  await t?.close()
  if (previousDataDir === undefined) delete process.env.DATA_DIR
  else process.env.DATA_DIR = previousDataDir
  resetStorageForTests()
  rmSync(dataDir, { recursive: true, force: true })
})

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

const upload = (cookie: string, ticketId: string, filename: string, payload: Buffer) =>
  t.app.inject({
    method: 'POST',
    url: `/api/support-tickets/${ticketId}/attachments`,
    headers: {
      ...browserHeaders(cookie),
      'content-type': 'application/octet-stream',
      'x-filename': encodeURIComponent(filename),
    },
    payload,
  })

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

const admin404 = async (res: Awaited<ReturnType<typeof call>>, what = 'Support ticket') =>
  expect(expectError(res, 404, 'NOT_FOUND').message).toBe(`${what} not found`)

it('knows each plan’s attachment limit, and no unknown hospital', async () => {
  expect(await hospitalAttachmentLimit(t.db, a)).toBe(50 * 1024 * 1024)
  expect(await hospitalAttachmentLimit(t.db, b)).toBe(10 * 1024 * 1024)
  await expect(hospitalAttachmentLimit(t.db, NO_ID)).rejects.toThrow('Hospital not found')
})

describe('attachments', () => {
  const LONG_NAME = `${'Screenshot of the misprinted invoice '.repeat(4)}.txt`

  it('audits an upload and a removal in words; 404, 403 and 409 say what went wrong', async () => {
    const ticket = await submit(doctor)
    const up = await upload(doctor, ticket.id, LONG_NAME, samples.txt)
    expect(up.statusCode, up.body).toBe(201)
    const file = up.json<TicketAttachment>()
    const other = `/api/support-tickets/${ticket.id}/attachments/${NO_ID}`
    await admin404(await call(doctor, 'GET', other), 'Attachment')
    await admin404(await call(doctor, 'DELETE', other), 'Attachment')
    await admin404(await call(adminB, 'GET', file.url), 'Attachment')
    await admin404(await upload(adminB, ticket.id, 'x.txt', samples.txt))
    for (const hospital of [NO_ID, b])
      await admin404(
        await call(
          sa,
          'GET',
          `/api/admin/support-tickets/${hospital}/${ticket.id}/attachments/${file.id}`,
        ),
        'Attachment',
      )
    expect(expectError(await call(admin, 'DELETE', file.url), 403, 'FORBIDDEN').message).toBe(
      'Only the person who attached a file can remove it',
    )
    expect((await call(doctor, 'DELETE', file.url)).statusCode).toBe(204)
    const [row] = await queryRows(
      t.db,
      sql`select id from support_ticket_attachments where id = ${file.id}`,
    )
    expect(row).toBeUndefined()
    expect((await audits(ticket.id)).slice(1)).toEqual([
      {
        action: 'support_ticket.attachment_added',
        summary: `Attached ${LONG_NAME.slice(0, 120)} to support ticket: ${LONG.slice(0, 80)}`,
      },
      {
        action: 'support_ticket.attachment_removed',
        summary: `Removed ${LONG_NAME.slice(0, 120)} from support ticket: ${LONG.slice(0, 80)}`,
      },
    ])

    const kept = (await upload(doctor, ticket.id, 'log.txt', samples.txt)).json<TicketAttachment>()
    await call(sa, 'POST', `/api/admin/support-tickets/${a}/${ticket.id}/status`, {
      status: 'in_progress',
    })
    expect(expectError(await call(doctor, 'DELETE', kept.url), 409, 'CONFLICT').message).toBe(
      'Attachments can be removed only while the ticket is open',
    )
    await call(sa, 'POST', `/api/admin/support-tickets/${a}/${ticket.id}/status`, {
      status: 'closed',
    })
    const closed = await upload(doctor, ticket.id, 'late.txt', samples.txt)
    expect(expectError(closed, 409, 'CONFLICT').message).toBe(
      'This ticket is closed: submit a new ticket instead',
    )
  })

  it('holds at most 10 files a ticket', async () => {
    const ticket = await submit(doctor)
    for (let i = 1; i <= 10; i++)
      expect((await upload(doctor, ticket.id, `log-${i}.txt`, samples.txt)).statusCode).toBe(201)
    const res = await upload(doctor, ticket.id, 'log-11.txt', samples.txt)
    expect(expectError(res, 409, 'CONFLICT').message).toBe('A ticket holds at most 10 attachments')
  })

  it('deletes the stored file again when the row cannot be written', async () => {
    const ticket = await submit(doctor)
    await call(sa, 'POST', `/api/admin/support-tickets/${a}/${ticket.id}/status`, {
      status: 'closed',
    })
    const storage = getStorage()
    const deleted: string[] = []
    const files = () =>
      readdirSync(join(dataDir, 'uploads'), { recursive: true, withFileTypes: true }).filter((f) =>
        f.isFile(),
      ).length
    const before = files()
    const doctorId = await userIdOf(t.db, demoEmail('doctor'))
    await expect(
      addAttachment({
        db: t.db,
        hospitalId: a,
        userId: doctorId,
        impersonatorUserId: null,
        seesAll: false,
        id: ticket.id,
        storage: {
          ...storage,
          delete: (key) => {
            deleted.push(key)
            return storage.delete(key)
          },
        },
        body: Readable.from([samples.txt]),
        filename: 'late.txt',
        maxBytes: 1024 * 1024,
      }),
    ).rejects.toThrow('This ticket is closed: submit a new ticket instead')
    expect(deleted).toHaveLength(1)
    expect(deleted[0]).toMatch(new RegExp(`^h/${a}/support-tickets/[0-9a-f-]{36}$`))
    expect(files()).toBe(before)
  })
})
