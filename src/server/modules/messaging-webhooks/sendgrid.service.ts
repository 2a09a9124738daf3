import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import type { AppDb, Tx } from '../../db/client'
import { communications } from '../../db/schema/leads'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { verifySendGridSignature } from '../../integrations/messaging/signatures'
import type { StatusChange } from '../messaging/status'
import { webhookConfig } from './config-cache'
import { applyStatus, type MessageRef } from './status.service'

/** SendGrid posts events in batches; a body beyond this is refused (413). */
export const SENDGRID_BODY_LIMIT = 1024 * 1024
/** A signed batch older (or further ahead) than this is refused as a replay. */
export const SENDGRID_MAX_AGE_S = 10 * 60

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const refused = () => new AppError('FORBIDDEN', 'Invalid signature')

/** One event (custom args arrive as top-level fields, or under custom_args). */
const event = z.object({
  event: z.string().max(40),
  sg_message_id: z.string().max(300).optional(),
  communicationId: z.string().max(100).optional(),
  custom_args: z.object({ communicationId: z.string().max(100).optional() }).optional(),
  reason: z.string().max(2000).optional(),
  response: z.string().max(2000).optional(),
})
const events = z.array(event).max(10_000)
type SendGridEvent = z.infer<typeof event>

export interface SendGridDelivery {
  db: AppDb
  hospitalId: string
  raw: Buffer
  signature: string | string[] | undefined
  timestamp: string | string[] | undefined
  now?: Date
  log?: { warn: (obj: object, msg: string) => void }
}

const short = (text: string | undefined) => (text ?? '').trim().slice(0, 300)

/** processed → sent, delivered, open → read, bounce/dropped → failed; the rest (deferred...) nothing. */
function changeOf(e: SendGridEvent): StatusChange | null {
  switch (e.event) {
    case 'processed':
      return { status: 'sent' }
    case 'delivered':
      return { status: 'delivered' }
    case 'open':
      return { status: 'read' }
    case 'bounce':
      return {
        status: 'failed',
        failureCode: 'bounce',
        failureReason: `The email bounced${short(e.reason) ? `: ${short(e.reason)}` : '.'}`,
      }
    case 'dropped':
      return {
        status: 'failed',
        failureCode: 'dropped',
        failureReason: `SendGrid did not send this email${short(e.reason) ? `: ${short(e.reason)}` : '.'}`,
      }
    default:
      return null
  }
}

/** By our id (custom args; only an email sent through SendGrid), else SendGrid's message id. */
async function refOf(tx: Tx, e: SendGridEvent): Promise<MessageRef | null> {
  const id = e.communicationId ?? e.custom_args?.communicationId
  if (id && UUID.test(id)) {
    const [row] = await tx
      .select({ id: communications.id })
      .from(communications)
      .where(and(eq(communications.id, id), eq(communications.provider, 'sendgrid')))
    if (row) return { id: row.id }
  }
  // sg_message_id is the X-Message-Id of the send, then '.filter…' per recipient.
  const messageId = e.sg_message_id?.split('.')[0]
  return messageId ? { provider: 'sendgrid', providerMessageId: messageId } : null
}

/** The batch's events; null when it is not one (zod throws on a few hostile shapes). */
function parseEvents(json: unknown): SendGridEvent[] | null {
  try {
    const parsed = events.safeParse(json)
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function checkSignature(delivery: SendGridDelivery, publicKey: string): void {
  const ts = delivery.timestamp
  if (typeof ts !== 'string' || !/^\d{1,12}$/.test(ts)) throw refused()
  const now = Math.floor((delivery.now ?? new Date()).getTime() / 1000)
  if (Math.abs(now - Number(ts)) > SENDGRID_MAX_AGE_S) throw refused()
  if (!verifySendGridSignature(delivery.raw, delivery.signature, ts, publicKey)) throw refused()
}

/**
 * POST /api/webhooks/sendgrid/:hospitalId. Only for a hospital whose email goes through
 * SendGrid (403 otherwise, the same answer as an unknown hospital). When the hospital saved
 * SendGrid's verification key, the batch must be signed with it and at most 10 minutes old;
 * without a key, events are accepted unsigned (Settings says so). Statuses move forward only,
 * in one transaction of that hospital.
 */
export async function acceptSendGrid(delivery: SendGridDelivery): Promise<{ moved: number }> {
  const { db, hospitalId } = delivery
  if (!UUID.test(hospitalId)) throw refused()
  const found = await webhookConfig(db, hospitalId, delivery.log)
  const email = found?.config.email
  if (email?.provider !== 'sendgrid') throw refused()
  if (email.webhookPublicKey) checkSignature(delivery, email.webhookPublicKey)
  let json: unknown
  try {
    json = JSON.parse(delivery.raw.toString('utf8'))
  } catch {
    throw new AppError('BAD_REQUEST', 'The body is not JSON')
  }
  const batch = parseEvents(json)
  if (!batch) throw new AppError('BAD_REQUEST', 'Not a SendGrid event batch')
  return withTenant(db, { hospitalId, userId: null }, async (tx) => {
    let moved = 0
    for (const e of batch) {
      const change = changeOf(e)
      if (!change) continue
      const ref = await refOf(tx, e)
      if (ref && (await applyStatus(tx, hospitalId, ref, change))) moved++
    }
    return { moved }
  })
}
