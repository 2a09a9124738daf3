import { randomInt } from 'node:crypto'
import type { z } from 'zod'
import type { IncomingCallCard, sandboxIncomingInput } from '../../../shared/schemas/calls-incoming'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { sandboxOutcome } from '../../integrations/voice/sandbox-voice'
import { recordAudit } from '../audit/audit.service'
import { enqueueSandboxStep } from '../calls/call-jobs'
import {
  hospitalVoice,
  readVoiceSettings,
  SANDBOX_CALLER_ID,
  type VoiceOptions,
} from '../calls/voice-registry'
import { getIncomingCard } from './incoming-card'
import { receiveIncoming, staffOf } from './incoming.service'

/**
 * POST /api/calls/sandbox/incoming (issue 41): "Simulate an incoming call" on the Sandbox page,
 * for a hospital without a voice provider (409 with one: call its real number instead). It runs
 * the providers' incoming path (incoming.service.ts receiveIncoming: match or create the lead,
 * log the call ringing, pop up for the ring group), then the sandbox's steps: after the ring
 * time the call is answered (and completes after the talk time) or missed (no-answer). Only
 * admins and receptionists (the front desk) may simulate one.
 */

export const HAS_PROVIDER =
  'This hospital has a voice provider: call its number to try an incoming call.'
export const SANDBOX_ROLES_ONLY = 'Only admins and receptionists can simulate an incoming call.'

/** An Indian mobile no lead is likely to have: 98 + eight random digits (answered: 0-6). */
export function unknownIndianMobile(): string {
  const body = String(randomInt(0, 10_000_000)).padStart(7, '0')
  return `+9198${body}${randomInt(0, 7)}`
}

export async function simulateIncoming(opts: {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
  actingRole: string
  input: z.output<typeof sandboxIncomingInput>
  voice: VoiceOptions
}): Promise<IncomingCallCard> {
  if (opts.actingRole !== 'admin' && opts.actingRole !== 'receptionist')
    throw new AppError('FORBIDDEN', SANDBOX_ROLES_ONLY)
  const phone = opts.input.phone ?? unknownIndianMobile()
  const answered = opts.input.outcome
    ? opts.input.outcome === 'answered'
    : sandboxOutcome(phone).status === 'completed'
  const staff = await staffOf(opts.db, opts.hospitalId)
  const callId = await withTenant(opts.db, opts, async (tx) => {
    const settings = await readVoiceSettings(tx)
    const voice = hospitalVoice(settings, opts.hospitalId, opts.voice)
    if (voice.kind !== 'sandbox') throw new AppError('CONFLICT', HAS_PROVIDER)
    // The sandbox provider's own id, so its call details (reconcile) know the call.
    const started = await voice.provider.startCall({
      staffPhone: SANDBOX_CALLER_ID,
      customerPhone: phone,
      callerId: voice.callerId,
      record: false,
      reference: 'incoming',
    })
    const result = await receiveIncoming(
      tx,
      {
        hospitalId: opts.hospitalId,
        provider: 'sandbox',
        providerCallId: started.providerCallId,
        from: phone,
      },
      staff,
    )
    if (!result.logged) throw new Error('sandbox incoming: number refused')
    const plan = {
      outcome: answered ? ('completed' as const) : ('no-answer' as const),
      durationSeconds: answered ? sandboxOutcome(phone).durationSeconds || 60 : 0,
      ringMs: opts.voice.sandboxRingMs,
      talkMs: opts.voice.sandboxTalkMs,
    }
    await enqueueSandboxStep(
      tx,
      opts.hospitalId,
      { callId: result.row.id, to: answered ? 'in-progress' : 'no-answer', plan },
      plan.ringMs,
    )
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId ?? null,
      action: 'call.sandbox_incoming',
      entityType: result.row.leadId ? 'lead' : 'patient',
      entityId: result.row.leadId ?? result.row.patientId,
      summary: `Simulated an incoming sandbox call (${answered ? 'answered' : 'missed'})`,
    })
    return result.row.id
  })
  return getIncomingCard({
    db: opts.db,
    hospitalId: opts.hospitalId,
    userId: opts.userId,
    id: callId,
  })
}
