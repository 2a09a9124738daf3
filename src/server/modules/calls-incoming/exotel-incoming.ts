import { eq } from 'drizzle-orm'
import { z } from 'zod'
import type { AppDb } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { type CallStatus, normaliseCallStatus } from '../../integrations/voice/voice-provider'
import { applyCallChange } from '../calls/call-progress'
import { readVoiceSettings } from '../calls/voice-registry'
import { enqueueVoiceCallback } from '../voice-webhooks/callback-job'
import { sameToken } from '../voice-webhooks/callbacks.service'
import { receiveIncoming, staffOf } from './incoming.service'
import type { ResolvedRing } from './ring-group'

/**
 * Exotel's incoming calls (issue 41). The ExoPhone's flow has a Connect applet whose "Dial
 * whom" is this URL (Programmable Connect, dynamic URL):
 *   GET|POST /api/webhooks/exotel/<hospital id>/incoming?t=<voice_settings.callback_token>
 * Exotel asks it with the call (CallSid, CallFrom, CallTo, Direction...) and dials the numbers
 * the answer names: the ring group's verified phones, all at once, showing the ExoPhone. The
 * same URL may follow the Connect applet as a Passthru applet: a hit for a call already logged
 * (with CallType completed / incomplete / client-hangup, or a CallStatus) is treated like a
 * StatusCallback: a voice.callback job confirms it with Exotel's call details before the call
 * moves (answered, or missed: no-answer). Exotel signs nothing: a wrong hospital or token is
 * 404 with no detail, as for status callbacks; a request without CallSid or CallFrom is 400.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const notFound = () => new AppError('NOT_FOUND', 'Not found')

const one = z.union([z.string(), z.array(z.string()).transform((v) => v[0] ?? '')])
const text = (max: number) => one.pipe(z.string().max(max))

const exotelIncomingParams = z.object({
  CallSid: one.pipe(z.string().regex(/^[A-Za-z0-9_-]{6,100}$/, 'Invalid CallSid')),
  CallFrom: one.pipe(z.string().trim().min(1, 'CallFrom is required').max(40)),
  CallTo: text(40).optional(),
  Direction: text(40).optional(),
  CallType: text(40).optional(),
  CallStatus: text(40).optional(),
})

/** What a later hit says happened: Exotel's CallType after the Connect applet, or a status. */
export function exotelReported(p: { CallType?: string; CallStatus?: string }): CallStatus | null {
  const type = p.CallType?.trim().toLowerCase()
  if (type === 'completed') return 'completed'
  if (type === 'incomplete' || type === 'client-hangup' || type === 'call-attempt')
    return 'no-answer'
  return normaliseCallStatus(p.CallStatus)
}

/**
 * The Connect applet's answer (Exotel-Version 1.0): the numbers to dial at once, the ExoPhone
 * as the number staff see, and recording as the hospital set it.
 */
export function connectAnswer(ring: ResolvedRing, exophone: string, record: boolean) {
  return {
    fetch_after_attempt: false,
    destination: { numbers: ring.phones },
    outgoing_phone_number: exophone,
    record,
    recording_channels: 'dual',
    max_ringing_duration: 30,
    max_conversation_duration: 3600,
    parallel_ringing: { activate: ring.phones.length > 1, max_parallel_attempts: 10 },
  }
}

export interface ExotelIncomingRequest {
  db: AppDb
  hospitalId: string
  token: string
  params: unknown
}

export async function exotelIncoming(req: ExotelIncomingRequest) {
  if (!UUID.test(req.hospitalId) || req.token.length < 32 || req.token.length > 200)
    throw notFound()
  const checked = await withTenant(
    req.db,
    { hospitalId: req.hospitalId, userId: null },
    async (tx) => {
      const settings = await readVoiceSettings(tx)
      if (!settings || !sameToken(settings.callbackToken, req.token)) throw notFound()
      if (settings.provider !== 'exotel' || !settings.callerId) throw notFound()
      const parsed = exotelIncomingParams.safeParse(req.params ?? {})
      if (!parsed.success) throw AppError.fromZod(parsed.error)
      const p = parsed.data
      const [known] = await tx
        .select({ id: calls.id, provider: calls.provider, direction: calls.direction })
        .from(calls)
        .where(eq(calls.providerCallId, p.CallSid))
      if (known) {
        // A later hit about a call already logged: confirmed in a job, as a StatusCallback.
        const reported = exotelReported(p)
        if (known.provider === 'exotel' && known.direction === 'inbound' && reported) {
          await enqueueVoiceCallback(tx, {
            hospitalId: req.hospitalId,
            callId: known.id,
            reported,
            key: `exotel:incoming:${(p.CallType ?? p.CallStatus ?? 'end').slice(0, 20)}`,
          })
        }
      }
      return { p, exophone: settings.callerId, record: settings.recordingEnabled }
    },
  )
  const staff = await staffOf(req.db, req.hospitalId)
  return withTenant(req.db, { hospitalId: req.hospitalId, userId: null }, async (tx) => {
    const { p } = checked
    const result = await receiveIncoming(
      tx,
      {
        hospitalId: req.hospitalId,
        provider: 'exotel',
        providerCallId: p.CallSid,
        from: p.CallFrom,
      },
      staff,
    )
    // Nobody to ring: the caller cannot be put through, so the call is missed now.
    if (result.logged && result.created && result.ring.phones.length === 0)
      await applyCallChange(tx, result.row.id, { status: 'no-answer', at: new Date() })
    return connectAnswer(result.ring, checked.exophone, checked.record)
  })
}
