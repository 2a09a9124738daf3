import { z } from 'zod'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import type { MessagingConfig } from '../../integrations/messaging/config'
import { verifyTwilioSignature } from '../../integrations/messaging/signatures'
import type { OutboundStatus } from '../messaging/status'
import { webhookConfig } from './config-cache'
import { TWILIO_OPTED_OUT, twilioFailureReason } from './failure-reasons'
import { storeInbound, type InboundResult } from './inbound.service'
import { buttonOf, keywordOf } from './keywords'
import { applyStatus, type MessageRef, recordProviderOptOut } from './status.service'

export type TwilioParams = Record<string, string | string[]>

export interface TwilioRequest {
  db: AppDb
  hospitalId: string
  /** The full public URL Twilio called (public-url.ts). */
  url: string
  params: TwilioParams
  signature: string | string[] | undefined
  log?: { warn: (obj: object, msg: string) => void }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The same answer for an unknown hospital, no Twilio set-up and a wrong signature. */
const refused = () => new AppError('FORBIDDEN', 'Invalid signature')

/** The hospital's Twilio auth tokens (WhatsApp's and SMS's accounts may differ). */
function twilioTokens(config: MessagingConfig): string[] {
  const tokens: string[] = []
  if (config.whatsapp.provider === 'twilio') tokens.push(config.whatsapp.authToken)
  if (config.sms.provider === 'twilio') tokens.push(config.sms.authToken)
  return [...new Set(tokens.filter(Boolean))]
}

/** Checks X-Twilio-Signature with the routed hospital's auth token(s); 403 otherwise. */
async function verify(req: TwilioRequest): Promise<void> {
  if (!UUID.test(req.hospitalId)) throw refused()
  const found = await webhookConfig(req.db, req.hospitalId, req.log)
  if (!found) throw refused()
  const ok = twilioTokens(found.config).some((token) =>
    verifyTwilioSignature(req.url, req.params, req.signature, token),
  )
  if (!ok) throw refused()
}

const one = z.union([z.string(), z.array(z.string()).transform((v) => v[0] ?? '')])
const sid = one.pipe(z.string().regex(/^[A-Za-z]{2}[A-Za-z0-9]{10,62}$/, 'Invalid MessageSid'))
const statusParams = z.object({
  MessageSid: sid,
  MessageStatus: one.pipe(z.string().min(1).max(30)),
  ErrorCode: one.pipe(z.string().regex(/^\d{0,10}$/)).optional(),
})

const statusOf: Record<string, OutboundStatus> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'failed',
  failed: 'failed',
}

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (!result.success) throw AppError.fromZod(result.error)
  return result.data
}

/**
 * POST /api/webhooks/twilio/:hospitalId/status[?c=<communication id>]: a message's status,
 * forward only, found by the c= id S-send put in the StatusCallback or by its MessageSid, in
 * the hospital's own transaction (another hospital's message is out of reach: RLS). Error 21610
 * records an opt-out; 63016 is the WhatsApp window. Statuses other than sent, delivered, read,
 * undelivered and failed (queued, sending, accepted...) change nothing.
 */
export async function twilioStatus(
  req: TwilioRequest & { communicationId?: string | undefined },
): Promise<{ moved: boolean }> {
  await verify(req)
  const p = parsed(statusParams, req.params)
  if (req.communicationId !== undefined && !UUID.test(req.communicationId)) {
    throw new AppError('VALIDATION', 'Invalid input: c: not a communication id')
  }
  const status = statusOf[p.MessageStatus.toLowerCase()]
  const code = p.ErrorCode || undefined
  if (!status && code !== TWILIO_OPTED_OUT) return { moved: false }
  const ref: MessageRef = req.communicationId
    ? { id: req.communicationId }
    : { provider: 'twilio', providerMessageId: p.MessageSid }
  return withTenant(req.db, { hospitalId: req.hospitalId, userId: null }, async (tx) => {
    const moved = status
      ? await applyStatus(tx, req.hospitalId, ref, {
          status,
          providerMessageId: p.MessageSid,
          ...(status === 'failed'
            ? {
                failureCode: code ?? null,
                failureReason: twilioFailureReason(code),
              }
            : {}),
        })
      : false
    if (code === TWILIO_OPTED_OUT) await recordProviderOptOut(tx, req.hospitalId, ref)
    return { moved }
  })
}

const inboundParams = z.object({
  MessageSid: sid,
  From: one.pipe(z.string().min(1).max(100)),
  To: one.pipe(z.string().max(100)).optional(),
  Body: one.pipe(z.string().max(10_000)).default(''),
  ProfileName: one.pipe(z.string().max(200)).optional(),
  ButtonText: one.pipe(z.string().max(200)).optional(),
  NumMedia: one.pipe(z.string().regex(/^\d{0,3}$/)).optional(),
})

/**
 * POST /api/webhooks/twilio/:hospitalId/inbound: an SMS or WhatsApp ('whatsapp:' sender)
 * reply, stored for the sender's lead or patient (inbound.service.ts); STOP and friends opt
 * out, START opts in, a quick-reply button "Unsubscribe" opts out.
 */
export async function twilioInbound(req: TwilioRequest): Promise<InboundResult> {
  await verify(req)
  const p = parsed(inboundParams, req.params)
  const channel = /^whatsapp:/i.test(p.From) ? 'whatsapp' : 'sms'
  const media = Number(p.NumMedia ?? '0')
  const text = p.Body || p.ButtonText || (media > 0 ? `[${media} attachment(s)]` : '')
  const consent = p.ButtonText ? buttonOf(p.ButtonText) : keywordOf(p.Body)
  const result = await withTenant(req.db, { hospitalId: req.hospitalId, userId: null }, (tx) =>
    storeInbound(tx, {
      hospitalId: req.hospitalId,
      channel,
      provider: 'twilio',
      providerMessageId: p.MessageSid,
      from: p.From,
      text,
      profileName: p.ProfileName,
      consent,
      metadata: { via: 'twilio', ...(media > 0 ? { media } : {}) },
    }),
  )
  if (!result.stored && result.reason === 'bad-sender') {
    throw new AppError('VALIDATION', 'Invalid input: From: not a phone number')
  }
  return result
}
