import { z } from 'zod'
import type { Tx } from '../../db/client'
import { enqueue } from '../../jobs/queue'
import {
  type ClaimedJob,
  type JobContext,
  PermanentJobError,
  PublicJobError,
} from '../../jobs/registry'
import {
  CALL_STATUSES,
  type CallStatus,
  isFinalStatus,
  VoiceProviderError,
} from '../../integrations/voice/voice-provider'
import { applyCallChange } from '../calls/call-progress'
import { callAndVoice, decide, unknownToProvider } from './confirm'
import { voiceJobOptions } from './voice-job-options'

/**
 * voice.callback (issue 41): one provider callback about one call, confirmed with the
 * provider's call details before anything changes (confirm.ts), then applied forward only
 * (calls/call-progress.ts applyCallChange). Enqueued by the webhook in the hospital's own
 * transaction, so it runs in that hospital's lane of the fair queue; one job per call, leg,
 * event and state (a callback sent twice is one job). A callback that says more than the
 * details confirm yet is retried a few times; after that the reconcile job settles the call.
 */

export const VOICE_CALLBACK_JOB = 'voice.callback'
const ATTEMPTS = 5

const payload = z.object({
  callId: z.uuid(),
  reported: z.enum(CALL_STATUSES).nullable(),
})

export async function enqueueVoiceCallback(
  tx: Tx,
  input: { hospitalId: string; callId: string; reported: CallStatus | null; key: string },
): Promise<void> {
  await enqueue(tx, {
    name: VOICE_CALLBACK_JOB,
    hospitalId: input.hospitalId,
    payload: { callId: input.callId, reported: input.reported },
    dedupeKey: `${VOICE_CALLBACK_JOB}:${input.callId}:${input.key}:${input.reported ?? 'none'}`,
    maxAttempts: ATTEMPTS,
  })
}

export async function voiceCallbackJob(job: ClaimedJob, ctx: JobContext) {
  const parsed = payload.safeParse(job.payload)
  if (!parsed.success || !job.hospitalId)
    throw new PermanentJobError('This call callback is not valid.')
  const { callId, reported } = parsed.data
  const hospitalId = job.hospitalId
  const { voice: options } = voiceJobOptions(ctx.db)
  const found = await ctx.withTenant((tx) => callAndVoice(tx, hospitalId, callId, options))
  if (!found) return { applied: false, why: 'unknown-call' }
  const { row, voice } = found
  if (isFinalStatus(row.status)) return { applied: false, why: 'ended' }
  if (!row.providerCallId || row.provider !== voice.kind)
    return { applied: false, why: 'other-provider' }
  let details
  try {
    details = await voice.provider.fetchCall(row.providerCallId, ctx.signal)
  } catch (error) {
    if (unknownToProvider(error)) return { applied: false, why: 'unknown-to-provider' }
    if (error instanceof VoiceProviderError) throw new PublicJobError(error.reason)
    throw error
  }
  const { change, pending } = decide(reported, details, new Date())
  const moved = change ? await ctx.withTenant((tx) => applyCallChange(tx, callId, change)) : null
  if (pending) {
    throw new PublicJobError(
      'The provider has not confirmed the end of this call yet; it will be asked again.',
    )
  }
  return { applied: moved !== null, status: moved?.status ?? row.status }
}
