import { and, desc, eq } from 'drizzle-orm'
import type { SandboxOutbox } from '../../../shared/schemas/messaging-reminders'
import type { AppDb } from '../../db/client'
import { communications } from '../../db/schema/leads'
import { withTenant } from '../../db/tenant'
import { revealBookingCode } from '../booking/booking-code'

/** Messages the Sandbox Outbox shows at most (newest first). */
export const SANDBOX_OUTBOX_LIMIT = 200

/**
 * GET /api/sandbox-outbox: the hospital's outbound messages that went to the sandbox (no provider
 * set up) with their rendered text, newest first. None of them reached a person. (Simulated
 * inbound replies of the demo are sandbox rows too, but not outbox ones.)
 *
 * A booking page's code is stored masked ("•••••• is your code…", booking-code.ts) and shown
 * masked, except with `revealCodes`: an admin (hospital:manage) of a development or demo server
 * (notifications.routes.ts), who may then try the booking page without a phone (issue 39, item
 * 15).
 */
export async function sandboxOutbox(opts: {
  db: AppDb
  hospitalId: string
  userId: string
  revealCodes?: boolean
}): Promise<SandboxOutbox> {
  const c = communications
  const rows = await withTenant(opts.db, opts, (tx) =>
    tx
      .select({
        id: c.id,
        channel: c.type,
        to: c.contactAddress,
        metadata: c.metadata,
        text: c.content,
        status: c.status,
        createdAt: c.createdAt,
        leadId: c.leadId,
        patientId: c.patientId,
        hospitalId: c.hospitalId,
        bookingHoldId: c.bookingHoldId,
      })
      .from(c)
      .where(and(eq(c.sandbox, true), eq(c.direction, 'outbound')))
      .orderBy(desc(c.createdAt), desc(c.id))
      .limit(SANDBOX_OUTBOX_LIMIT),
  )
  return {
    messages: rows.map(({ metadata, createdAt, hospitalId, bookingHoldId, ...r }) => ({
      ...r,
      text: opts.revealCodes
        ? revealBookingCode({ hospitalId, bookingHoldId, content: r.text, metadata })
        : r.text,
      subject: typeof metadata.subject === 'string' ? metadata.subject : null,
      createdAt: createdAt.toISOString(),
    })),
  }
}
