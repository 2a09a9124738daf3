import type { Env } from '../../env'
import type { Tx } from '../../db/client'
import { voiceSettings } from '../../db/schema/calls'
import { exotelVoice, type ExotelRegion } from '../../integrations/voice/exotel-voice'
import { sandboxVoice } from '../../integrations/voice/sandbox-voice'
import { twilioVoice } from '../../integrations/voice/twilio-voice'
import type { VoiceProvider } from '../../integrations/voice/voice-provider'
import { decryptSecret } from '../../secrets/secrets'
import { DEFAULT_CALLING_HOURS, type VoiceProviderKind } from '../../../shared/calls'

/**
 * The hospital's voice provider (issue 41), built from its voice_settings row the way the
 * messaging registry builds a channel's: settings as stored, secrets decrypted in memory only
 * (context `voice:<hospital id>:<field>`). No row, the sandbox provider, or a provider whose
 * fields are incomplete: the sandbox. Base URLs come from env (EXOTEL_API_URL,
 * TWILIO_VOICE_API_URL), so tests and the e2e run point them at tests/support/fakes/.
 */

export interface VoiceOptions {
  /** Replaces Exotel's regional host (tests: the fake). */
  exotelUrl?: string | undefined
  twilioUrl: string
  /** Sandbox calls ring this long, then are answered, ring out or are busy. */
  sandboxRingMs: number
  /** An answered sandbox call talks this long (wall time) before it completes. */
  sandboxTalkMs: number
}

export const defaultVoiceOptions: VoiceOptions = {
  twilioUrl: 'https://api.twilio.com',
  sandboxRingMs: 5_000,
  sandboxTalkMs: 20_000,
}

type VoiceEnv = Pick<
  Env,
  'EXOTEL_API_URL' | 'TWILIO_VOICE_API_URL' | 'VOICE_SANDBOX_RING_MS' | 'VOICE_SANDBOX_TALK_MS'
>

export function voiceOptionsFromEnv(env: VoiceEnv): VoiceOptions {
  return {
    exotelUrl: env.EXOTEL_API_URL,
    twilioUrl: env.TWILIO_VOICE_API_URL,
    sandboxRingMs: env.VOICE_SANDBOX_RING_MS,
    sandboxTalkMs: env.VOICE_SANDBOX_TALK_MS,
  }
}

export const voiceSecretContext = (hospitalId: string, field: string) =>
  `voice:${hospitalId}:${field}`

export type VoiceSettingsRow = typeof voiceSettings.$inferSelect

/** What the calls module needs of a hospital's voice set-up (secrets stay inside provider). */
export interface HospitalVoice {
  kind: VoiceProviderKind
  provider: VoiceProvider
  /** The number customers see; the sandbox's stands in when there is none. */
  callerId: string
  recordingEnabled: boolean
  callingHours: { start: string; end: string }
}

/** The number the sandbox says it calls from (no call leaves the building). */
export const SANDBOX_CALLER_ID = '+910000000000'

export async function readVoiceSettings(tx: Tx): Promise<VoiceSettingsRow | undefined> {
  const [row] = await tx.select().from(voiceSettings)
  return row
}

/** The hospital's provider from its row (read in its tenant transaction). */
export function hospitalVoice(
  row: VoiceSettingsRow | undefined,
  hospitalId: string,
  options: VoiceOptions,
): HospitalVoice {
  const callingHours = {
    start: row?.callingHoursStart ?? DEFAULT_CALLING_HOURS.start,
    end: row?.callingHoursEnd ?? DEFAULT_CALLING_HOURS.end,
  }
  const recordingEnabled = row?.recordingEnabled ?? false
  const sandbox: HospitalVoice = {
    kind: 'sandbox',
    provider: sandboxVoice({
      ringMs: options.sandboxRingMs,
      ringOutMs: options.sandboxRingMs,
      busyMs: options.sandboxRingMs,
    }),
    callerId: row?.callerId ?? SANDBOX_CALLER_ID,
    recordingEnabled,
    callingHours,
  }
  if (!row || row.provider === 'sandbox' || !row.callerId) return sandbox
  const secret = (field: string) => {
    const stored = row.secrets[field]
    return stored ? decryptSecret(stored, voiceSecretContext(hospitalId, field)) : ''
  }
  const accountSid = row.settings.accountSid ?? ''
  if (row.provider === 'exotel') {
    const apiKey = row.settings.apiKey ?? ''
    const apiToken = secret('apiToken')
    if (!accountSid || !apiKey || !apiToken) return sandbox
    const region: ExotelRegion = row.region ?? 'mumbai'
    return {
      kind: 'exotel',
      provider: exotelVoice(
        { accountSid, apiKey, apiToken, region },
        { baseUrl: options.exotelUrl },
      ),
      callerId: row.callerId,
      recordingEnabled,
      callingHours,
    }
  }
  const authToken = secret('authToken')
  if (!accountSid || !authToken) return sandbox
  return {
    kind: 'twilio',
    provider: twilioVoice({ accountSid, authToken }, { baseUrl: options.twilioUrl }),
    callerId: row.callerId,
    recordingEnabled,
    callingHours,
  }
}
