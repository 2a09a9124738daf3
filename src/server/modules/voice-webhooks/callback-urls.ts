import type { VoiceProviderKind } from '../../../shared/calls'

/**
 * The voice providers' callback URLs (issue 41), built over the public base (BASE_URL, or the
 * request's trusted origin: http/public-url.ts publicBase). Exotel signs nothing, so its URL
 * carries the hospital's unguessable callback token (voice_settings.callback_token) in its
 * query (request logs keep the path only, so the token never reaches a log); Twilio signs every callback with the account's auth token, so its URL names the
 * hospital only. twilio-voice.ts adds `?leg=customer` for the customer's leg itself.
 */

export const exotelStatusPath = (hospitalId: string, callbackToken: string) =>
  `/api/webhooks/exotel/${encodeURIComponent(hospitalId)}/status?t=${encodeURIComponent(callbackToken)}`

export const twilioVoicePath = (hospitalId: string) =>
  `/api/webhooks/twilio/${encodeURIComponent(hospitalId)}/voice`

export interface CallbackUrlInput {
  kind: VoiceProviderKind
  hospitalId: string
  /** voice_settings.callback_token (Exotel's only proof). */
  callbackToken: string | null | undefined
  /** The public base without a trailing slash (publicBase(env.BASE_URL, req)). */
  publicBase: string | null | undefined
}

/**
 * The StatusCallback to give VoiceProvider.startCall, or undefined (the sandbox posts nothing;
 * without a public base or a token the reconcile job settles the call instead).
 *
 * @example startCall({ ..., statusCallbackUrl: statusCallbackUrl({ kind: voice.kind,
 *   hospitalId, callbackToken: settings?.callbackToken, publicBase }) })
 */
export function statusCallbackUrl(input: CallbackUrlInput): string | undefined {
  const base = input.publicBase?.replace(/\/+$/, '')
  if (!base) return undefined
  if (input.kind === 'exotel') {
    return input.callbackToken
      ? `${base}${exotelStatusPath(input.hospitalId, input.callbackToken)}`
      : undefined
  }
  if (input.kind === 'twilio') return `${base}${twilioVoicePath(input.hospitalId)}`
  return undefined
}
