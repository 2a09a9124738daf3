import type { AppDb } from '../../db/client'
import { defaultVoiceOptions, type VoiceOptions } from '../calls/voice-registry'

/**
 * What the voice webhook jobs need to ask a provider: the base URLs (env EXOTEL_API_URL,
 * TWILIO_VOICE_API_URL through voiceOptionsFromEnv) and how old a live call must be before
 * the reconcile job asks about it. buildApp registers its options for its database; a job run
 * on that database reads them, so two apps in one process (tests) never share them. A
 * worker-only process (npm run worker) has no app: it uses the real providers' hosts.
 */

/** A call still ringing or in progress this long after it started is checked with its provider. */
export const RECONCILE_AFTER_MS = 2 * 3_600_000

export interface VoiceJobOptions {
  voice: VoiceOptions
  reconcileAfterMs: number
}

const byDatabase = new WeakMap<AppDb, VoiceJobOptions>()

export function setVoiceJobOptions(db: AppDb, options: Partial<VoiceJobOptions>): void {
  byDatabase.set(db, {
    voice: options.voice ?? defaultVoiceOptions,
    reconcileAfterMs: options.reconcileAfterMs ?? RECONCILE_AFTER_MS,
  })
}

export function voiceJobOptions(db: AppDb): VoiceJobOptions {
  return byDatabase.get(db) ?? { voice: defaultVoiceOptions, reconcileAfterMs: RECONCILE_AFTER_MS }
}
