import { createHash, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import type { AppDb, Tx } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { verifyTwilioSignature } from '../../integrations/messaging/signatures'
import {
  type CallStatus,
  isFinalStatus,
  normaliseCallStatus,
} from '../../integrations/voice/voice-provider'
import { decryptSecret } from '../../secrets/secrets'
import { readVoiceSettings, voiceSecretContext } from '../calls/voice-registry'
import { enqueueVoiceCallback } from './callback-job'

/**
 * The voice providers' callbacks (issue 41). Each is checked and answered at once; the work is
 * a voice.callback job (callback-job.ts) enqueued in the hospital's own transaction, so only
 * that hospital's calls can be named (RLS), and a CallSid of no call of this hospital changes
 * nothing (200, no job: the provider must not retry it).
 *  - Exotel signs nothing: the URL's token must equal the hospital's callback token (compared
 *    in constant time); a wrong hospital or token is 404 with no detail.
 *  - Twilio signs every callback with the account's auth token (X-Twilio-Signature over the
 *    public URL and the form): the hospital's voice auth token must verify it; otherwise 403.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const notFound = () => new AppError('NOT_FOUND', 'Not found')
const refused = () => new AppError('FORBIDDEN', 'Invalid signature')

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()
/** Constant-time equality of two tokens (digests of equal length whatever was sent). */
export const sameToken = (a: string, b: string) => timingSafeEqual(digest(a), digest(b))

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (!result.success) throw AppError.fromZod(result.error)
  return result.data
}

async function callBySid(tx: Tx, providerCallId: string) {
  const [row] = await tx
    .select({ id: calls.id, provider: calls.provider, status: calls.status })
    .from(calls)
    .where(eq(calls.providerCallId, providerCallId))
  return row
}

const text = (max: number) => z.string().max(max)
const one = z.union([z.string(), z.array(z.string()).transform((v) => v[0] ?? '')])

/** Exotel's StatusCallback (JSON or form): the fields this product reads; others are ignored. */
const exotelParams = z.object({
  CallSid: one.pipe(z.string().regex(/^[A-Za-z0-9_-]{6,100}$/, 'Invalid CallSid')),
  Status: one.pipe(text(40)).optional(),
  EventType: one.pipe(text(40)).optional(),
  CustomField: one.pipe(text(200)).optional(),
})

export interface ExotelCallback {
  db: AppDb
  hospitalId: string
  token: string
  body: unknown
}

/** POST /api/webhooks/exotel/:hospitalId/status?t=<callback token> */
export async function exotelCallback(req: ExotelCallback): Promise<{ accepted: boolean }> {
  if (!UUID.test(req.hospitalId) || req.token.length < 32 || req.token.length > 200)
    throw notFound()
  return withTenant(req.db, { hospitalId: req.hospitalId, userId: null }, async (tx) => {
    const settings = await readVoiceSettings(tx)
    if (!settings || !sameToken(settings.callbackToken, req.token)) throw notFound()
    const p = parsed(exotelParams, req.body ?? {})
    const call = await callBySid(tx, p.CallSid)
    if (call?.provider !== 'exotel') return { accepted: false }
    // Our call id rides in CustomField: a callback naming another call is not this call's.
    if (p.CustomField && UUID.test(p.CustomField) && p.CustomField !== call.id)
      return { accepted: false }
    // An ended call moves no more: a late or repeated callback needs no job (bench: calls).
    if (isFinalStatus(call.status)) return { accepted: true }
    const reported = normaliseCallStatus(p.Status)
    await enqueueVoiceCallback(tx, {
      hospitalId: req.hospitalId,
      callId: call.id,
      reported,
      key: `exotel:${(p.EventType ?? 'end').slice(0, 20)}`,
    })
    return { accepted: true }
  })
}

const twilioParams = z.object({
  CallSid: one.pipe(z.string().regex(/^CA[A-Za-z0-9]{10,62}$/, 'Invalid CallSid')),
  CallStatus: one.pipe(z.string().min(1).max(40)),
  ParentCallSid: one.pipe(z.string().regex(/^CA[A-Za-z0-9]{10,62}$/)).optional(),
})

export interface TwilioVoiceCallback {
  db: AppDb
  hospitalId: string
  /** The full public URL Twilio called, with its query (http/public-url.ts). */
  url: string
  params: Record<string, string | string[]>
  signature: string | string[] | undefined
  /** 'customer' for the customer's leg (twilio-voice.ts adds leg=customer to its URL). */
  leg: string | undefined
}

/**
 * What a Twilio leg's status says about our call. The parent leg rings the staff phone: its
 * in-progress means the staff member answered and the customer is being rung (still ringing
 * to us); the customer leg's in-progress is the conversation.
 */
function twilioReported(status: CallStatus | null, customerLeg: boolean): CallStatus | null {
  if (!status) return null
  if (status === 'queued' || status === 'ringing') return 'ringing'
  if (status === 'in-progress') return customerLeg ? 'in-progress' : 'ringing'
  return status
}

/** POST /api/webhooks/twilio/:hospitalId/voice[?leg=customer] */
export async function twilioVoiceCallback(
  req: TwilioVoiceCallback,
): Promise<{ accepted: boolean }> {
  if (!UUID.test(req.hospitalId)) throw refused()
  if (req.leg !== undefined && req.leg !== 'customer')
    throw new AppError('VALIDATION', 'Invalid input: leg: must be customer')
  return withTenant(req.db, { hospitalId: req.hospitalId, userId: null }, async (tx) => {
    const settings = await readVoiceSettings(tx)
    const stored = settings?.secrets.authToken
    if (!stored) throw refused()
    let authToken: string
    try {
      authToken = decryptSecret(stored, voiceSecretContext(req.hospitalId, 'authToken'))
    } catch {
      throw refused()
    }
    if (!verifyTwilioSignature(req.url, req.params, req.signature, authToken)) throw refused()
    const p = parsed(twilioParams, req.params)
    const customerLeg = req.leg === 'customer'
    const sid = customerLeg ? (p.ParentCallSid ?? p.CallSid) : p.CallSid
    const call = await callBySid(tx, sid)
    if (call?.provider !== 'twilio') return { accepted: false }
    if (isFinalStatus(call.status)) return { accepted: true }
    const raw = normaliseCallStatus(p.CallStatus === 'initiated' ? 'queued' : p.CallStatus)
    const reported = twilioReported(raw, customerLeg)
    await enqueueVoiceCallback(tx, {
      hospitalId: req.hospitalId,
      callId: call.id,
      reported,
      key: `twilio:${customerLeg ? 'customer' : 'staff'}`,
    })
    return { accepted: true }
  })
}
