import { and, inArray, isNotNull, lt } from 'drizzle-orm'
import { calls } from '../../db/schema/calls'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform, withTenant } from '../../db/tenant'
import { enqueue } from '../../jobs/queue'
import { type JobHandler, PermanentJobError, PublicJobError } from '../../jobs/registry'
import { type CallStatus, VoiceProviderError } from '../../integrations/voice/voice-provider'
import { applyCallChange, type CallChange } from '../calls/call-progress'
import { hospitalVoice, readVoiceSettings } from '../calls/voice-registry'
import { decide, PROVIDER_CHANGED, PROVIDER_LOST, unknownToProvider } from './confirm'
import { voiceJobOptions } from './voice-job-options'

/**
 * Calls whose callbacks never came (issue 41). A platform sweep (all-jobs.ts, every 15 min)
 * looks into each hospital, in its own tenant transaction, for a call still ringing or in
 * progress long after it started (RECONCILE_AFTER_MS, 2 h), and enqueues that hospital's
 * voice.reconcile job for the sweep's slot (one per hospital and slot, whatever the number of
 * instances: the dedupe key and the queue's claim). The job asks the provider for each such
 * call and applies its final state; a call the provider does not know (or can no longer be
 * asked about) fails with a plain reason; a call the provider says is still live is left.
 */

export const RECONCILE_SWEEP_JOB = 'voice.reconcile-sweep'
export const RECONCILE_JOB = 'voice.reconcile'
export const RECONCILE_EVERY_MS = 15 * 60_000
/** Calls one hospital's run asks about; the next slot takes the rest. */
const BATCH = 50
const LIVE: CallStatus[] = ['queued', 'ringing', 'in-progress']

const staleWhere = (cutoff: Date) =>
  and(inArray(calls.status, LIVE), isNotNull(calls.providerCallId), lt(calls.startedAt, cutoff))

export const reconcileSweepJob: JobHandler = async (job, ctx) => {
  const { reconcileAfterMs } = voiceJobOptions(ctx.db)
  const cutoff = new Date(job.runAt.getTime() - reconcileAfterMs)
  const ids = await withPlatform(ctx.db, (tx) => tx.select({ id: hospitals.id }).from(hospitals))
  let enqueued = 0
  for (const { id: hospitalId } of ids) {
    ctx.signal.throwIfAborted()
    const created = await withTenant(ctx.db, { hospitalId, userId: null }, async (tx) => {
      const [stale] = await tx
        .select({ id: calls.id })
        .from(calls)
        .where(staleWhere(cutoff))
        .limit(1)
      if (!stale) return false
      const result = await enqueue(tx, {
        name: RECONCILE_JOB,
        hospitalId,
        payload: { cutoff: cutoff.toISOString() },
        dedupeKey: `${RECONCILE_JOB}:${job.runAt.toISOString()}`,
      })
      return result.created
    })
    if (created) enqueued += 1
  }
  return { hospitals: ids.length, enqueued }
}

export const reconcileJob: JobHandler = async (job, ctx) => {
  const raw = (job.payload as { cutoff?: unknown } | null)?.cutoff
  const cutoff = typeof raw === 'string' ? new Date(raw) : new Date(NaN)
  if (!job.hospitalId || Number.isNaN(cutoff.getTime()))
    throw new PermanentJobError('This reconcile job is not valid.')
  const hospitalId = job.hospitalId
  const { voice: options } = voiceJobOptions(ctx.db)
  const { rows, voice } = await ctx.withTenant(async (tx) => ({
    rows: await tx.select().from(calls).where(staleWhere(cutoff)).limit(BATCH),
    voice: hospitalVoice(await readVoiceSettings(tx), hospitalId, options),
  }))
  let settled = 0
  let unavailable = 0
  for (const row of rows) {
    ctx.signal.throwIfAborted()
    let change: CallChange | null
    // A sandbox call is answered from its id alone, whatever the hospital uses now.
    const provider =
      row.provider === voice.kind
        ? voice.provider
        : row.provider === 'sandbox'
          ? hospitalVoice(undefined, hospitalId, options).provider
          : null
    if (!provider) {
      change = { status: 'failed', at: new Date(), failureReason: PROVIDER_CHANGED }
    } else {
      try {
        const details = await provider.fetchCall(row.providerCallId ?? '', ctx.signal)
        change = decide(null, details, new Date()).change
      } catch (error) {
        if (unknownToProvider(error)) {
          change = { status: 'failed', at: new Date(), failureReason: PROVIDER_LOST }
        } else if (error instanceof VoiceProviderError) {
          unavailable += 1
          continue
        } else throw error
      }
    }
    if (!change) continue
    const applied = change
    if (await ctx.withTenant((tx) => applyCallChange(tx, row.id, applied))) settled += 1
  }
  if (unavailable > 0) {
    throw new PublicJobError(
      `The voice provider could not be asked about ${unavailable} call(s); it will be asked again.`,
    )
  }
  return { checked: rows.length, settled }
}
