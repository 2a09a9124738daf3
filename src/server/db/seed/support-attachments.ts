import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { and, eq, sql } from 'drizzle-orm'
import type { Tx } from '../client'
import { hospitals } from '../schema/hospitals'
import { supportTicketAttachments, supportTickets } from '../schema/support-tickets'
import type { ObjectStorage } from '../../storage/storage'
import { tenantKey } from '../../storage/storage'
import { receiveUpload } from '../../storage/upload'

/** The open demo ticket that gets the file (seed/support-tickets.ts). */
const TICKET_SUBJECT = 'WhatsApp reminders stuck in queued'
const FILENAME = 'whatsapp-reminder-log.txt'
const CONTENT = [
  'Sanjeevani Multispeciality Hospital, Pune — WhatsApp reminder log (exported from the front desk)',
  '',
  '09:00  Reminder for Ramesh Kulkarni (Dr. Kulkarni, 10:30)      queued',
  '09:05  Reminder for Sunita Deshpande (Dr. Patil, 11:00)        queued',
  '09:10  Reminder for Anil Joshi (Dr. Kulkarni, 11:30)           queued',
  '09:15  SMS reminder for Meera Pawar (Dr. Patil, 12:00)         sent',
  '',
  'WhatsApp messages stay "queued"; SMS reminders go out normally.',
  '',
].join('\n')

/** A stable uuid for the seeded file, so a repeated (or retried) seed writes the same key. */
function stableId(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/**
 * One small text attachment on the first hospital's open demo ticket (issue 28), written
 * through the storage module. Idempotent: nothing happens when the ticket already has a file;
 * the key is stable, so a seed rolled back after the write leaves no second copy. Runs in the
 * seed's transaction; leaves the role as it found it (the connecting role).
 */
export async function seedDemoTicketAttachment(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
  storage: ObjectStorage,
): Promise<boolean> {
  const first = demo[0]
  if (!first) return false
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const [h] = await tx
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(eq(hospitals.email, first.email))
  if (!h) return false
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${h.id}, true)`,
  )
  let changed = false
  const [ticket] = await tx
    .select({ id: supportTickets.id, createdBy: supportTickets.createdBy })
    .from(supportTickets)
    .where(eq(supportTickets.subject, TICKET_SUBJECT))
    .limit(1)
  if (ticket) {
    const [existing] = await tx
      .select({ id: supportTicketAttachments.id })
      .from(supportTicketAttachments)
      .where(
        and(
          eq(supportTicketAttachments.hospitalId, h.id),
          eq(supportTicketAttachments.ticketId, ticket.id),
        ),
      )
      .limit(1)
    if (!existing) {
      const id = stableId(`demo-ticket-attachment:${ticket.id}`)
      const key = tenantKey(h.id, 'support-tickets', id)
      const file = await receiveUpload({
        storage,
        key,
        body: Readable.from([Buffer.from(CONTENT, 'utf8')]),
        filename: FILENAME,
        maxBytes: 1024 * 1024,
        allowed: ['txt'],
      })
      await tx.insert(supportTicketAttachments).values({
        hospitalId: h.id,
        id,
        ticketId: ticket.id,
        storageKey: key,
        filename: file.filename,
        size: file.size,
        contentType: file.contentType,
        sha256: file.sha256,
        uploadedBy: ticket.createdBy,
      })
      changed = true
    }
  }
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return changed
}
