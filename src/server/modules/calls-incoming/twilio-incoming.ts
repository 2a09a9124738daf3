import { eq } from 'drizzle-orm'
import { z } from 'zod'
import type { AppDb, Tx } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { verifyTwilioSignature } from '../../integrations/messaging/signatures'
import { decryptSecret } from '../../secrets/secrets'
import { applyCallChange } from '../calls/call-progress'
import { readVoiceSettings, voiceSecretContext } from '../calls/voice-registry'
import { receiveIncoming, staffOf } from './incoming.service'
import type { ResolvedRing } from './ring-group'

/**
 * Twilio's incoming calls (issue 41). The hospital's Twilio number's "A call comes in" webhook
 * is POST /api/webhooks/twilio/<hospital id>/voice/incoming. Every request is verified with
 * X-Twilio-Signature under the hospital's voice auth token (403 otherwise) and answered with
 * TwiML at once:
 *  - the call arriving: <Dial> to the ring group's verified phones (all ring; the first to
 *    answer takes it), the hospital's number as caller id, with
 *    action=...?step=dial (the dial's outcome) and each <Number>'s status callback
 *    ...?step=leg (a phone answered). Nobody to ring: a short apology, and the call is missed;
 *  - step=leg: a staff phone answered: the call is in progress;
 *  - step=dial: the dial ended: DialCallStatus completed is an answered call with
 *    DialCallDuration seconds; anything else (no-answer, busy, failed, canceled: the caller
 *    hung up first) is a missed call, no-answer.
 * A signed request from Twilio is its word on the call (no further confirmation needed), and
 * it is applied through applyCallChange: forward only, once.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const refused = () => new AppError('FORBIDDEN', 'Invalid signature')
const one = z.union([z.string(), z.array(z.string()).transform((v) => v[0] ?? '')])
const sid = one.pipe(z.string().regex(/^CA[A-Za-z0-9]{10,62}$/, 'Invalid CallSid'))

const arrivalParams = z.object({
  CallSid: sid,
  From: one.pipe(z.string().trim().min(1, 'From is required').max(40)),
})
const legParams = z.object({ ParentCallSid: sid, CallStatus: one.pipe(z.string().max(40)) })
const dialParams = z.object({
  CallSid: sid,
  DialCallStatus: one.pipe(z.string().min(1, 'DialCallStatus is required').max(40)),
  DialCallDuration: one.pipe(z.string().regex(/^\d{1,6}$/)).optional(),
})

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (!result.success) throw AppError.fromZod(result.error)
  return result.data
}

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>'

/** The TwiML that rings the group (or apologises when nobody can be rung). */
export function dialTwiml(input: {
  ring: ResolvedRing
  callerId: string
  /** The public URL of this webhook, without a query. */
  url: string
  record: boolean
}): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?><Response>'
  if (!input.ring.phones.length) {
    return `${head}<Say language="en-IN">Sorry, no one can take your call right now. We will call you back.</Say><Hangup/></Response>`
  }
  const numbers = input.ring.phones
    .map(
      (phone) =>
        `<Number statusCallbackEvent="answered" statusCallback="${xml(`${input.url}?step=leg`)}" statusCallbackMethod="POST">${xml(phone)}</Number>`,
    )
    .join('')
  const record = input.record ? ' record="record-from-answer-dual"' : ''
  return `${head}<Dial callerId="${xml(input.callerId)}" timeout="30" action="${xml(`${input.url}?step=dial`)}" method="POST"${record}>${numbers}</Dial></Response>`
}

export interface TwilioIncomingRequest {
  db: AppDb
  hospitalId: string
  /** The full public URL Twilio called, with its query (http/public-url.ts). */
  url: string
  params: Record<string, string | string[]>
  signature: string | string[] | undefined
  step: string | undefined
}

async function verified(tx: Tx, req: TwilioIncomingRequest) {
  const settings = await readVoiceSettings(tx)
  const stored = settings?.secrets.authToken
  if (!settings || !stored) throw refused()
  let authToken: string
  try {
    authToken = decryptSecret(stored, voiceSecretContext(req.hospitalId, 'authToken'))
  } catch {
    throw refused()
  }
  if (!verifyTwilioSignature(req.url, req.params, req.signature, authToken)) throw refused()
  if (settings.provider !== 'twilio' || !settings.callerId)
    throw new AppError('NOT_FOUND', 'Not found')
  return settings
}

async function inboundBySid(tx: Tx, callSid: string) {
  const [row] = await tx
    .select({ id: calls.id, provider: calls.provider, direction: calls.direction })
    .from(calls)
    .where(eq(calls.providerCallId, callSid))
  return row?.provider === 'twilio' && row.direction === 'inbound' ? row : null
}

/** POST /api/webhooks/twilio/:hospitalId/voice/incoming[?step=leg|dial]: answers TwiML. */
export async function twilioIncoming(req: TwilioIncomingRequest): Promise<string> {
  if (!UUID.test(req.hospitalId)) throw refused()
  if (req.step !== undefined && req.step !== 'leg' && req.step !== 'dial')
    throw new AppError('VALIDATION', 'Invalid input: step: must be leg or dial')
  const tenant = { hospitalId: req.hospitalId, userId: null }
  if (req.step === 'leg' || req.step === 'dial') {
    await withTenant(req.db, tenant, async (tx) => {
      await verified(tx, req)
      if (req.step === 'leg') {
        const p = parsed(legParams, req.params)
        const call = await inboundBySid(tx, p.ParentCallSid)
        if (call && p.CallStatus === 'in-progress')
          await applyCallChange(tx, call.id, { status: 'in-progress', at: new Date() })
        return
      }
      const p = parsed(dialParams, req.params)
      const call = await inboundBySid(tx, p.CallSid)
      if (!call) return
      const answered = p.DialCallStatus === 'completed'
      await applyCallChange(tx, call.id, {
        status: answered ? 'completed' : 'no-answer',
        at: new Date(),
        durationSeconds: answered ? Number(p.DialCallDuration ?? 0) : 0,
      })
    })
    return EMPTY_TWIML
  }
  const settings = await withTenant(req.db, tenant, async (tx) => {
    const s = await verified(tx, req)
    parsed(arrivalParams, req.params)
    return s
  })
  const p = parsed(arrivalParams, req.params)
  const staff = await staffOf(req.db, req.hospitalId)
  return withTenant(req.db, tenant, async (tx) => {
    const result = await receiveIncoming(
      tx,
      { hospitalId: req.hospitalId, provider: 'twilio', providerCallId: p.CallSid, from: p.From },
      staff,
    )
    if (result.logged && result.created && result.ring.phones.length === 0)
      await applyCallChange(tx, result.row.id, { status: 'no-answer', at: new Date() })
    return dialTwiml({
      ring: result.ring,
      callerId: settings.callerId ?? '',
      url: req.url.split('?')[0] ?? req.url,
      record: settings.recordingEnabled,
    })
  })
}
