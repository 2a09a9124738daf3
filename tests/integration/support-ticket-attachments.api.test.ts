import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Tx } from '../../src/server/db/client'
import { demoHospitals } from '../../src/server/db/seed/demo'
import { seedDemoTicketAttachment } from '../../src/server/db/seed/support-attachments'
import { getStorage, resetStorageForTests } from '../../src/server/storage/storage'
import type {
  SupportTicket,
  SupportTicketDetail,
  TicketAttachment,
} from '../../src/shared/schemas/support-tickets'
import { hostileString } from '../support/hostile'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { samples } from '../support/storage-samples'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'
import { loginSuperAdmin } from '../support/two-factor'

// Issue 28: support-ticket attachments are real files (docs/decisions/036, 037): streamed into
// the storage module (filesystem driver in a temp DATA_DIR here), checked by content, limited
// by the hospital's plan while streaming, downloaded only by those who may see the ticket.

const dataDir = mkdtempSync(join(tmpdir(), 'arogya-attachments-'))
const uploadsDir = join(dataDir, 'uploads')
const MB = 1024 * 1024

let t: TestApp
let admin: string
let doctor: string
let viewer: string
let nurse: string
let adminB: string
let sa: string
let a: string
let b: string
const previousDataDir = process.env.DATA_DIR

function json(cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const headers = browserHeaders(cookie)
  if (body === undefined) delete headers['content-type']
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

function upload(
  cookie: string,
  ticketId: string,
  filename: string | undefined,
  payload: Buffer | Readable,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/support-tickets/${ticketId}/attachments`,
    headers: {
      ...browserHeaders(cookie),
      'content-type': 'application/octet-stream',
      ...(filename === undefined ? {} : { 'x-filename': encodeURIComponent(filename) }),
    },
    payload,
  })
}

async function submit(
  cookie: string,
  subject = 'Printer labels misaligned',
): Promise<SupportTicket> {
  const res = await json(cookie, 'POST', '/api/support-tickets', {
    subject,
    description: 'Patient labels print 5 mm too low since Monday; screenshots attached.',
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<SupportTicket>()
}

const encodable = (name: string) => {
  try {
    encodeURIComponent(name)
    return true
  } catch {
    return false
  }
}

/** Files under DATA_DIR/uploads, temporary ones included. */
function filesOnDisk(): number {
  try {
    return readdirSync(uploadsDir, { recursive: true, withFileTypes: true }).filter((f) =>
      f.isFile(),
    ).length
  } catch {
    return 0
  }
}

async function attachmentRows(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from support_ticket_attachments`,
  )
  return row?.n ?? 0
}

/** Uploads are refused with this status, leaving no file and no row behind. */
async function expectRefused(
  res: Promise<Awaited<ReturnType<typeof upload>>>,
  status: number,
  path?: string,
) {
  const files = filesOnDisk()
  const rows = await attachmentRows()
  const body = expectError(await res, status)
  if (path) expect(body.issues?.map((i) => i.path)).toContain(path)
  expect(filesOnDisk()).toBe(files)
  expect(await attachmentRows()).toBe(rows)
}

beforeAll(async () => {
  process.env.DATA_DIR = dataDir
  resetStorageForTests()
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  doctor = await login(t.app, demoEmail('doctor'))
  viewer = await login(t.app, demoEmail('viewer'))
  nurse = await login(t.app, demoEmail('nurse'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  sa = await loginSuperAdmin(t.app)
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
})

afterAll(async () => {
  await t?.close()
  if (previousDataDir === undefined) delete process.env.DATA_DIR
  else process.env.DATA_DIR = previousDataDir
  resetStorageForTests()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('uploading and downloading', () => {
  it.each(Object.entries(samples))(
    'stores a real .%s and gives it back byte for byte',
    async (ext, data) => {
      const ticket = await submit(doctor)
      const name = `Screen capture ${ext}.${ext}`
      const res = await upload(doctor, ticket.id, name, data)
      expect(res.statusCode, res.body).toBe(201)
      const attachment = res.json<TicketAttachment>()
      expect(attachment).toMatchObject({ name, size: data.length })
      expect(attachment.url).toBe(`/api/support-tickets/${ticket.id}/attachments/${attachment.id}`)

      const down = await json(doctor, 'GET', attachment.url)
      expect(down.statusCode).toBe(200)
      expect(down.rawPayload.equals(data)).toBe(true)
      expect(down.headers['content-type']).toBe(attachment.type)
      expect(down.headers['content-disposition']).toContain('attachment;')
      expect(down.headers['content-disposition']).toContain(encodeURIComponent(name))
      expect(down.headers['x-content-type-options']).toBe('nosniff')
      expect(down.headers['cache-control']).toBe('private, no-store')

      const detail = (
        await json(doctor, 'GET', `/api/support-tickets/${ticket.id}`)
      ).json<SupportTicketDetail>()
      expect(detail.attachments.map((x) => x.id)).toEqual([attachment.id])
    },
  )

  it('stores the row with its hash and audits the upload', async () => {
    const ticket = await submit(admin)
    const res = await upload(admin, ticket.id, 'notes.txt', samples.txt)
    expect(res.statusCode, res.body).toBe(201)
    const { id } = res.json<TicketAttachment>()
    const [row] = await queryRows<{ storage_key: string; sha256: string; uploaded_by: string }>(
      t.db,
      sql`select storage_key, sha256, uploaded_by from support_ticket_attachments where id = ${id}`,
    )
    expect(row?.storage_key).toBe(`h/${a}/support-tickets/${id}`)
    expect(row?.sha256).toMatch(/^[0-9a-f]{64}$/)
    const [audit] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events where entity_id = ${ticket.id} and action = 'support_ticket.attachment_added'`,
    )
    expect(audit?.n).toBe(1)
  })

  it('lets the admin and the platform download a member’s file', async () => {
    const ticket = await submit(nurse, 'Export button missing')
    const up = (await upload(nurse, ticket.id, 'export.pdf', samples.pdf)).json<TicketAttachment>()
    expect((await json(admin, 'GET', up.url)).rawPayload.equals(samples.pdf)).toBe(true)
    const platformUrl = `/api/admin/support-tickets/${a}/${ticket.id}/attachments/${up.id}`
    const platform = await json(sa, 'GET', platformUrl)
    expect(platform.statusCode).toBe(200)
    expect(platform.rawPayload.equals(samples.pdf)).toBe(true)
    const detail = (
      await json(sa, 'GET', `/api/admin/support-tickets/${a}/${ticket.id}`)
    ).json<SupportTicketDetail>()
    expect(detail.attachments[0]?.url).toBe(platformUrl)
    // The platform route names the hospital: the wrong one is 404.
    expectError(
      await json(sa, 'GET', `/api/admin/support-tickets/${b}/${ticket.id}/attachments/${up.id}`),
      404,
    )
    // Hospital members cannot use the platform route.
    expect((await json(admin, 'GET', platformUrl)).statusCode).toBe(403)
  })
})

describe('bad files', () => {
  it('refuses a lying extension, an empty file and a bad name with 400', async () => {
    const ticket = await submit(doctor)
    await expectRefused(upload(doctor, ticket.id, 'report.pdf', samples.png), 400, 'file')
    await expectRefused(
      upload(doctor, ticket.id, 'photo.png', Buffer.from('MZ\x90\x00')),
      400,
      'file',
    )
    await expectRefused(
      upload(doctor, ticket.id, 'notes.txt', Buffer.from([0x61, 0, 0x62])),
      400,
      'file',
    )
    await expectRefused(upload(doctor, ticket.id, 'setup.exe', samples.pdf), 400, 'file')
    await expectRefused(upload(doctor, ticket.id, 'empty.txt', Buffer.alloc(0)), 400, 'file')
    await expectRefused(
      upload(doctor, ticket.id, '../../etc/passwd.txt', samples.txt),
      400,
      'filename',
    )
    await expectRefused(upload(doctor, ticket.id, 'a\\b.txt', samples.txt), 400, 'filename')
    await expectRefused(upload(doctor, ticket.id, 'bell\u0007.txt', samples.txt), 400, 'filename')
    await expectRefused(upload(doctor, ticket.id, 'gpj\u202eexe.txt', samples.txt), 400, 'filename')
    await expectRefused(upload(doctor, ticket.id, undefined, samples.txt), 400, 'filename')
    await expectRefused(
      upload(doctor, ticket.id, `${'x'.repeat(201)}.txt`, samples.txt),
      400,
      'filename',
    )
    // A JSON body is not a file.
    const asJson = t.app.inject({
      method: 'POST',
      url: `/api/support-tickets/${ticket.id}/attachments`,
      headers: { ...browserHeaders(doctor), 'x-filename': 'notes.txt' },
      payload: JSON.stringify({ a: 1 }),
    })
    await expectRefused(asJson, 415)
  })

  it('refuses one byte over the plan’s limit with 413 and leaves nothing behind', async () => {
    // Smile Dental is on Professional: 10 MB.
    const ticket = await submit(adminB)
    const over = Buffer.alloc(10 * MB + 1, 0x41)
    samples.pdf.copy(over)
    // Declared by Content-Length: refused before reading.
    await expectRefused(upload(adminB, ticket.id, 'scan.pdf', over), 413)
    // Streamed without a length: cut while streaming.
    const chunks = function* () {
      for (let i = 0; i < over.length; i += 256 * 1024) yield over.subarray(i, i + 256 * 1024)
    }
    await expectRefused(upload(adminB, ticket.id, 'scan.pdf', Readable.from(chunks())), 413)
    // Exactly the limit is fine.
    const exact = upload(adminB, ticket.id, 'scan.pdf', over.subarray(0, 10 * MB))
    expect((await exact).statusCode).toBe(201)
  })

  it('allows 50 MB on Enterprise: a file over 10 MB is fine for Sanjeevani', async () => {
    const ticket = await submit(admin)
    const big = Buffer.alloc(10 * MB + 1, 0x41)
    samples.pdf.copy(big)
    const res = await upload(admin, ticket.id, 'mri.pdf', big)
    expect(res.statusCode, res.body).toBe(201)
  })

  it('random and hostile names and bytes never get a 5xx nor leave a file', async () => {
    const ticket = await submit(doctor)
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileString, fc.string()),
        fc.uint8Array({ maxLength: 64 }),
        async (name, bytes) => {
          fc.pre(encodable(name))
          const files = filesOnDisk()
          const res = await upload(doctor, ticket.id, name, Buffer.from(bytes))
          expect(res.statusCode, res.body).toBeLessThan(500)
          if (res.statusCode !== 201) expect(filesOnDisk()).toBe(files)
        },
      ),
      { numRuns: 25 },
    )
  })
})

describe('who may attach and download', () => {
  it('answers 404 for another hospital’s ticket, and stores nothing', async () => {
    const ticket = await submit(admin)
    await expectRefused(upload(adminB, ticket.id, 'x.txt', samples.txt), 404)
    const up = (await upload(admin, ticket.id, 'x.txt', samples.txt)).json<TicketAttachment>()
    expectError(await json(adminB, 'GET', up.url), 404, 'NOT_FOUND')
    expectError(await json(adminB, 'DELETE', up.url), 404, 'NOT_FOUND')
  })

  it('answers 404 to a member for someone else’s ticket', async () => {
    const ticket = await submit(doctor)
    const up = (await upload(doctor, ticket.id, 'x.txt', samples.txt)).json<TicketAttachment>()
    await expectRefused(upload(nurse, ticket.id, 'y.txt', samples.txt), 404)
    expectError(await json(nurse, 'GET', up.url), 404, 'NOT_FOUND')
    expectError(await json(nurse, 'DELETE', up.url), 404, 'NOT_FOUND')
    // A wrong attachment id under a visible ticket is 404 too; a bad id is 400.
    expectError(
      await json(doctor, 'GET', `/api/support-tickets/${ticket.id}/attachments/${ticket.id}`),
      404,
    )
    expectError(
      await json(doctor, 'GET', `/api/support-tickets/${ticket.id}/attachments/nope`),
      400,
    )
  })

  it('lets the uploader remove a file while the ticket is open, and only then', async () => {
    const ticket = await submit(doctor)
    const up = (await upload(doctor, ticket.id, 'x.txt', samples.txt)).json<TicketAttachment>()
    const mine = (await upload(admin, ticket.id, 'y.txt', samples.txt)).json<TicketAttachment>()
    // The admin sees it but did not upload it.
    expectError(await json(admin, 'DELETE', up.url), 403, 'FORBIDDEN')
    const files = filesOnDisk()
    const res = await json(doctor, 'DELETE', up.url)
    expect(res.statusCode, res.body).toBe(204)
    expect(filesOnDisk()).toBe(files - 1)
    expectError(await json(doctor, 'GET', up.url), 404)
    // Once support works on it, files stay.
    await json(sa, 'POST', `/api/admin/support-tickets/${a}/${ticket.id}/status`, {
      status: 'in_progress',
    })
    expectError(await json(admin, 'DELETE', mine.url), 409, 'CONFLICT')
  })

  it('refuses a viewer’s file with 403 (support:write), storing nothing; a viewer still reads', async () => {
    // Issue 39: stored bytes count toward the hospital's disk quota; a viewer only reads.
    const ticket = await submit(viewer, 'Cannot find the export button')
    await expectRefused(upload(viewer, ticket.id, 'x.txt', samples.txt), 403)
    // The admin may attach to it; the viewer downloads it (support:submit) but cannot remove it.
    const up = (await upload(admin, ticket.id, 'x.txt', samples.txt)).json<TicketAttachment>()
    const down = await json(viewer, 'GET', up.url)
    expect(down.statusCode).toBe(200)
    expect(down.rawPayload.equals(samples.txt)).toBe(true)
    const files = filesOnDisk()
    expectError(await json(viewer, 'DELETE', up.url), 403, 'FORBIDDEN')
    expect(filesOnDisk()).toBe(files)
    expect(await attachmentRows()).toBeGreaterThan(0)
  })

  it('refuses files on a closed ticket with 409', async () => {
    const ticket = await submit(doctor)
    const close = await json(sa, 'POST', `/api/admin/support-tickets/${a}/${ticket.id}/status`, {
      status: 'closed',
    })
    expect(close.statusCode, close.body).toBe(200)
    await expectRefused(upload(doctor, ticket.id, 'x.txt', samples.txt), 409)
  })
})

describe('the demo seed', () => {
  it('writes one text file on the open demo ticket through the storage module, once', async () => {
    const seed = () =>
      t.db.transaction((tx) => seedDemoTicketAttachment(tx as Tx, demoHospitals, getStorage()))
    expect(await seed()).toBe(true)
    expect(await seed()).toBe(false)
    const list = (await json(admin, 'GET', '/api/support-tickets')).json<SupportTicket[]>()
    const ticket = list.find((x) => x.subject === 'WhatsApp reminders stuck in queued')
    expect(ticket?.attachments.map((x) => x.name)).toEqual(['whatsapp-reminder-log.txt'])
    const down = await json(admin, 'GET', ticket?.attachments[0]?.url ?? '')
    expect(down.statusCode).toBe(200)
    expect(down.body).toContain('WhatsApp reminder log')
  })
})
