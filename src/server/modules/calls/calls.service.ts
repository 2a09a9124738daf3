import { and, eq, isNull } from 'drizzle-orm'
import type { Call, StartCallInput } from '../../../shared/schemas/calls'
import type { AppDb } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { sandboxOutcome } from '../../integrations/voice/sandbox-voice'
import {
  type CallStatus,
  isFinalStatus,
  type StartedCall,
  VoiceProviderError,
} from '../../integrations/voice/voice-provider'
import { recordAudit } from '../audit/audit.service'
import { timeZoneOf } from '../leads/leads.stats'
import { recordActivity } from '../live-monitoring/activity'
import { notifyCall } from './call-notice'
import {
  callContact,
  OPTED_OUT_OF_CALLS,
  optedOutOfCalls,
  verifiedStaffPhone,
} from './call-contact'
import { enqueueSandboxStep, enqueueSettleUnplaced, sandboxPlan } from './call-jobs'
import { statusCallbackUrl } from '../voice-webhooks/callback-urls'
import { applyCallChange, callActivityData, type CallRow } from './call-progress'
import { callingHoursRefusal } from './call-rules'
import { toCall } from './calls-read.service'
import { hospitalVoice, readVoiceSettings, type VoiceOptions } from './voice-registry'

/**
 * POST /api/calls (issue 41): click-to-call. In order:
 *  1. one tenant transaction checks the staff member's verified phone, the contact's number,
 *     and for a lead its call opt-out and the hospital's calling hours (a patient's own call is
 *     not held); it saves the call as queued (a partial unique index allows one live call per
 *     staff member: a second is 409) with a job that fails it if it is never placed;
 *  2. the provider is asked, outside any transaction;
 *  3. a second transaction stores the provider's call id, the call_start activity and, in the
 *     sandbox, the first step of its simulated path; or, on a refusal, the call as failed with
 *     the provider's reason in plain words, answered 400 (a number the provider refuses) or 502
 *     (credentials, balance, provider down).
 */

export interface CallsActor {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

export const ALREADY_ON_A_CALL =
  'You are already on a call: finish it (or let it end) before starting another.'

export async function startCall(
  opts: CallsActor & {
    input: StartCallInput
    voice: VoiceOptions
    /** The public base the provider's status callbacks go to (publicBase(BASE_URL, req)). */
    publicBase?: string | undefined
    now?: Date | undefined
  },
): Promise<Call> {
  const now = opts.now ?? new Date()
  const timeZone = await timeZoneOf(opts.db, opts.hospitalId)
  const prepared = await withTenant(opts.db, opts, async (tx) => {
    const contact = await callContact(tx, opts.input)
    const staffPhone = await verifiedStaffPhone(tx, opts.userId)
    const settings = await readVoiceSettings(tx)
    const voice = hospitalVoice(settings, opts.hospitalId, opts.voice)
    const callbackUrl = statusCallbackUrl({
      kind: voice.kind,
      hospitalId: opts.hospitalId,
      callbackToken: settings?.callbackToken,
      publicBase: opts.publicBase,
    })
    if (contact.kind === 'lead') {
      if (await optedOutOfCalls(tx, contact.phone)) {
        throw new AppError('OPTED_OUT', OPTED_OUT_OF_CALLS)
      }
      const refusal = callingHoursRefusal(now, { ...voice.callingHours, timeZone })
      if (refusal) throw new AppError('CONFLICT', refusal)
    }
    const [row] = await tx
      .insert(calls)
      .values({
        hospitalId: opts.hospitalId,
        leadId: contact.leadId,
        patientId: contact.patientId,
        userId: opts.userId,
        direction: 'outbound',
        provider: voice.kind,
        customerPhone: contact.phone,
        status: 'queued',
        startedAt: now,
      })
      .onConflictDoNothing()
      .returning()
    if (!row) throw new AppError('CONFLICT', ALREADY_ON_A_CALL)
    await enqueueSettleUnplaced(tx, opts.hospitalId, row.id)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId ?? null,
      action: 'call.start',
      entityType: contact.kind,
      entityId: contact.leadId ?? contact.patientId,
      summary: `Started a ${voice.kind === 'sandbox' ? 'sandbox ' : ''}call to a ${contact.kind}`,
    })
    await notifyCall(tx, row)
    return { row, voice, staffPhone, callbackUrl }
  })

  const { row, voice, staffPhone, callbackUrl } = prepared
  let started: StartedCall
  try {
    started = await voice.provider.startCall({
      staffPhone,
      customerPhone: row.customerPhone,
      callerId: voice.callerId,
      record: voice.recordingEnabled,
      reference: row.id,
      statusCallbackUrl: callbackUrl,
    })
  } catch (error) {
    const refusal =
      error instanceof VoiceProviderError
        ? error
        : new VoiceProviderError({
            kind: 'other',
            code: 'UNEXPECTED',
            reason: 'The call could not be placed because of an unexpected error; try again.',
          })
    await failUnplaced(opts, row.id, refusal.reason)
    throw new AppError(
      refusal.kind === 'invalid-number' ? 'BAD_REQUEST' : 'UPSTREAM',
      refusal.reason,
    )
  }

  // A placed call rings the staff phone first: a provider's "in-progress" at this point (Exotel
  // says so for a call being made) is ringing, not answered; only its later events say answered.
  const initial: CallStatus | null = isFinalStatus(started.status)
    ? started.status
    : started.status === 'queued'
      ? null
      : 'ringing'
  const placed = await withTenant(opts.db, opts, async (tx) => {
    const [stored] = await tx
      .update(calls)
      .set({ providerCallId: started.providerCallId, updatedAt: new Date() })
      .where(and(eq(calls.id, row.id), isNull(calls.providerCallId)))
      .returning()
    let current: CallRow = stored ?? row
    await recordActivity(tx, {
      hospitalId: opts.hospitalId,
      userId: opts.userId,
      type: 'call_start',
      data: await callActivityData(tx, current),
      at: now,
      dedupeKey: `call_start:${row.id}`,
    })
    const moved = initial
      ? await applyCallChange(tx, row.id, { status: initial, at: new Date() })
      : null
    if (moved) current = moved
    else await notifyCall(tx, current)
    if (voice.kind === 'sandbox') {
      const plan = sandboxPlan(sandboxOutcome(row.customerPhone), {
        ringMs: opts.voice.sandboxRingMs,
        talkMs: opts.voice.sandboxTalkMs,
      })
      await enqueueSandboxStep(tx, opts.hospitalId, { callId: row.id, to: 'ringing', plan }, 0)
    }
    return current
  })
  return toCall(placed)
}

/** A call the provider refused: failed with the reason, never placed (no Communication). */
async function failUnplaced(opts: CallsActor, callId: string, reason: string): Promise<void> {
  await withTenant(opts.db, opts, async (tx) => {
    const [failed] = await tx
      .update(calls)
      .set({
        status: 'failed',
        outcome: 'failed',
        failureReason: reason.slice(0, 500),
        endedAt: new Date(),
        durationSeconds: 0,
        updatedAt: new Date(),
      })
      .where(and(eq(calls.id, callId), eq(calls.status, 'queued'), isNull(calls.providerCallId)))
      .returning()
    if (failed) await notifyCall(tx, failed)
  })
}
