import { handlerFor, registerHandler } from '../../jobs/registry'
import { schedule } from '../../jobs/schedule'
import { VOICE_CALLBACK_JOB, voiceCallbackJob } from './callback-job'
import {
  RECONCILE_EVERY_MS,
  RECONCILE_JOB,
  RECONCILE_SWEEP_JOB,
  reconcileJob,
  reconcileSweepJob,
} from './reconcile-job'

/**
 * The voice webhooks' jobs (issue 41): callbacks confirmed and applied (voice.callback), and
 * calls whose callbacks never came reconciled (voice.reconcile-sweep, voice.reconcile).
 * buildApp registers the handlers (voice-webhooks.routes.ts); all-jobs.ts registers them with
 * the sweep's schedule, for `npm start` and `npm run worker` alike. Idempotent.
 */
export function registerVoiceWebhookJobs(): void {
  if (handlerFor(VOICE_CALLBACK_JOB)) return
  registerHandler(VOICE_CALLBACK_JOB, voiceCallbackJob)
  registerHandler(RECONCILE_SWEEP_JOB, reconcileSweepJob)
  registerHandler(RECONCILE_JOB, reconcileJob)
}

let scheduled = false

export function registerVoiceWebhookSchedules(): void {
  registerVoiceWebhookJobs()
  if (scheduled) return
  scheduled = true
  schedule(RECONCILE_SWEEP_JOB, { everyMs: RECONCILE_EVERY_MS })
}
