import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { calls } from '../../db/schema/calls'
import {
  type CallDetails,
  type CallStatus,
  isFinalStatus,
  VoiceProviderError,
} from '../../integrations/voice/voice-provider'
import type { CallChange, CallRow } from '../calls/call-progress'
import { hospitalVoice, readVoiceSettings, type VoiceOptions } from '../calls/voice-registry'
import type { HospitalVoice } from '../calls/voice-registry'

/**
 * How a provider's word about a call becomes a change (issue 41): a callback only says what
 * happened; the provider's call details decide. A final state in the details is applied as the
 * details tell it (status, conversation length, end time). A live call in the details confirms
 * a callback's ringing, and its answered only when the details say in-progress too. A callback
 * that says the call ended while the details say it is live is not applied: the job asks again
 * later (providers can lag) and the reconcile job settles it in the end.
 */

export const PROVIDER_FAILED =
  'The provider reported that the call failed (the number could not be reached).'
export const PROVIDER_LOST = 'The provider has no record of this call, so it was closed as failed.'
export const PROVIDER_CHANGED =
  'The hospital’s voice provider changed during the call, so its end could not be confirmed; it was closed as failed.'

export interface Decision {
  change: CallChange | null
  /** The callback said more than the details confirm yet: ask the provider again later. */
  pending: boolean
}

export function decide(reported: CallStatus | null, details: CallDetails, now: Date): Decision {
  if (isFinalStatus(details.status)) {
    return {
      pending: false,
      change: {
        status: details.status,
        at: details.endedAt && details.endedAt <= now ? details.endedAt : now,
        durationSeconds: details.status === 'completed' ? details.durationSeconds : 0,
        failureReason: details.status === 'failed' ? PROVIDER_FAILED : null,
      },
    }
  }
  if (reported === 'in-progress' && details.status === 'in-progress')
    return { pending: false, change: { status: 'in-progress', at: now } }
  if (reported && isFinalStatus(reported)) return { pending: true, change: null }
  if (reported === 'ringing' || reported === 'in-progress')
    return { pending: false, change: { status: 'ringing', at: now } }
  return { pending: false, change: null }
}

/** A provider saying it does not know the call (404, Twilio 20404, the sandbox's NOT_FOUND). */
export function unknownToProvider(error: unknown): boolean {
  if (!(error instanceof VoiceProviderError)) return false
  return /^(HTTP 404|404\/.*|20404|NOT_FOUND)$/.test(error.code)
}

export interface CallAndVoice {
  row: CallRow
  voice: HospitalVoice
}

/** The call (RLS: this hospital's only) and the provider to ask about it, or null. */
export async function callAndVoice(
  tx: Tx,
  hospitalId: string,
  callId: string,
  options: VoiceOptions,
): Promise<CallAndVoice | null> {
  const [row] = await tx.select().from(calls).where(eq(calls.id, callId))
  if (!row) return null
  return { row, voice: hospitalVoice(await readVoiceSettings(tx), hospitalId, options) }
}
