import { basicAuth, type HttpAnswer } from '../messaging/http'
import {
  callDirection,
  knownCallStatus,
  normaliseCallStatus,
  seconds,
  VOICE_TIMEOUT_MS,
  voiceHttp,
  VoiceProviderError,
  type CallDetails,
  type CallStatus,
  type VoiceProvider,
} from './voice-provider'

/**
 * Exotel's Voice v1 (../shared/contracts/exotel/README.md; developer.exotel.com "Connect Two
 * Numbers", "Call Details"): click-to-call is
 * `POST /v1/Accounts/{AccountSid}/Calls/connect.json`, form-encoded, HTTP Basic auth with the
 * API key and token; `From` (the staff phone, dialled first), `To` (the customer), `CallerId`
 * (the ExoPhone), `CallType=trans`. The `.json` suffix asks for a JSON answer ({ Call: {…} })
 * instead of XML. Call details are `GET /v1/Accounts/{AccountSid}/Calls/{CallSid}.json`, with
 * `details=true` for the conversation's own duration (both legs connected).
 *
 * Exotel's times are IST wall-clock strings (`YYYY-MM-DD HH:mm:ss`). Its errors come as
 * `{ RestException: { Status, Message, Code? } }` with the HTTP status saying what kind: 401
 * credentials, 402 balance or plan limit, 403 account suspended, 400 a bad parameter (the
 * message names which), 404 no such call, 429 and 5xx busy.
 */

export type ExotelRegion = 'mumbai' | 'singapore'

/** Exotel's regional API hosts: Mumbai for Indian accounts, Singapore for the rest. */
export const EXOTEL_HOSTS: Record<ExotelRegion, string> = {
  mumbai: 'https://api.in.exotel.com',
  singapore: 'https://api.exotel.com',
}

export interface ExotelCredentials {
  accountSid: string
  apiKey: string
  apiToken: string
  region: ExotelRegion
}

export interface ExotelOptions {
  /** EXOTEL_API_URL: replaces the region's host (tests point it at the fake). */
  baseUrl?: string | undefined
  timeoutMs?: number | undefined
}

/** The events Exotel reports to StatusCallback besides the default end-of-call post. */
const CALLBACK_EVENTS = ['terminal', 'answered'] as const
/** Exotel's documented ceiling for TimeLimit (4 hours). */
const MAX_TIME_LIMIT = 14_400
const PROVIDER = 'Exotel'

/** The account's API root: the region's host unless EXOTEL_API_URL replaces it. */
export function exotelAccountUrl(credentials: ExotelCredentials, baseUrl?: string): string {
  const base = (baseUrl ?? EXOTEL_HOSTS[credentials.region]).replace(/\/+$/, '')
  return `${base}/v1/Accounts/${encodeURIComponent(credentials.accountSid)}`
}

export function exotelVoice(
  credentials: ExotelCredentials,
  options: ExotelOptions = {},
): VoiceProvider {
  const account = exotelAccountUrl(credentials, options.baseUrl)
  const timeoutMs = options.timeoutMs ?? VOICE_TIMEOUT_MS
  const headers = {
    authorization: basicAuth(credentials.apiKey, credentials.apiToken),
    accept: 'application/json',
  }

  return {
    name: 'exotel',
    async startCall(input, signal) {
      const form = new URLSearchParams({
        From: input.staffPhone,
        To: input.customerPhone,
        CallerId: input.callerId,
        CallType: 'trans',
      })
      if (input.ringTimeoutSeconds) form.set('TimeOut', String(input.ringTimeoutSeconds))
      if (input.timeLimitSeconds)
        form.set('TimeLimit', String(Math.min(input.timeLimitSeconds, MAX_TIME_LIMIT)))
      if (input.record) {
        form.set('Record', 'true')
        form.set('RecordingChannels', 'dual')
        form.set('RecordingFormat', 'mp3')
      }
      if (input.reference) form.set('CustomField', input.reference.slice(0, 128))
      if (input.statusCallbackUrl) {
        form.set('StatusCallback', input.statusCallbackUrl)
        CALLBACK_EVENTS.forEach((event, i) => form.set(`StatusCallbackEvents[${i}]`, event))
        form.set('StatusCallbackContentType', 'application/json')
      }
      const answer = await voiceHttp(
        PROVIDER,
        `${account}/Calls/connect.json`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        },
        { signal, timeoutMs },
      )
      const call = callOf(answer)
      if (answer.status >= 200 && answer.status < 300 && typeof call?.Sid === 'string') {
        return { providerCallId: call.Sid, status: normaliseCallStatus(call.Status) ?? 'queued' }
      }
      throw exotelError(answer, 'start')
    },

    async fetchCall(providerCallId, signal) {
      const answer = await voiceHttp(
        PROVIDER,
        `${account}/Calls/${encodeURIComponent(providerCallId)}.json?details=true`,
        { method: 'GET', headers },
        { signal, timeoutMs },
      )
      const call = callOf(answer)
      if (answer.status !== 200 || typeof call?.Sid !== 'string') throw exotelError(answer, 'fetch')
      return detailsOf(call)
    },
  }
}

interface ExotelCall {
  Sid?: unknown
  Status?: unknown
  From?: unknown
  To?: unknown
  Direction?: unknown
  StartTime?: unknown
  EndTime?: unknown
  Duration?: unknown
  RecordingUrl?: unknown
  Details?: { ConversationDuration?: unknown } | null
}

function callOf(answer: HttpAnswer): ExotelCall | undefined {
  const body = answer.json as { Call?: ExotelCall } | null
  return body && typeof body === 'object' ? body.Call : undefined
}

function detailsOf(call: ExotelCall): CallDetails {
  const status = knownCallStatus(call.Status, 'Exotel')
  const conversation = call.Details?.ConversationDuration
  const durationSeconds =
    conversation === undefined || conversation === null
      ? seconds(call.Duration)
      : seconds(conversation)
  return {
    providerCallId: String(call.Sid),
    status,
    durationSeconds: answeredStatus(status) ? durationSeconds : 0,
    startedAt: istTime(call.StartTime),
    endedAt: istTime(call.EndTime),
    recordingUrl:
      typeof call.RecordingUrl === 'string' && call.RecordingUrl ? call.RecordingUrl : undefined,
    direction: callDirection(call.Direction),
    from: typeof call.From === 'string' ? call.From : '',
    to: typeof call.To === 'string' ? call.To : '',
  }
}

const answeredStatus = (status: CallStatus) => status === 'completed' || status === 'in-progress'

/** Exotel's `YYYY-MM-DD HH:mm:ss`, India time (no zone in the text), as an instant. */
export function istTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(value.trim())
  if (!m) return null
  const date = new Date(`${m[1]}T${m[2]}+05:30`)
  return Number.isNaN(date.getTime()) ? null : date
}

/** Exotel's refusal in the kinds the calls module knows, in a receptionist's words. */
export function exotelError(answer: HttpAnswer, action: 'start' | 'fetch'): VoiceProviderError {
  const body = answer.json as { RestException?: { Message?: unknown; Code?: unknown } } | null
  const rest = body?.RestException
  const message = typeof rest?.Message === 'string' ? rest.Message.toLowerCase() : ''
  const raw =
    typeof rest?.Code === 'string' || typeof rest?.Code === 'number' ? String(rest.Code) : ''
  const code = raw ? `${answer.status}/${raw}` : `HTTP ${answer.status}`
  const error = (kind: VoiceProviderError['kind'], reason: string) =>
    new VoiceProviderError({ kind, code, reason })
  if (answer.status === 401)
    return error(
      'auth',
      'Exotel refused the API key or token: check Settings → Integrations → Voice.',
    )
  if (answer.status === 402)
    return error(
      'balance',
      'The Exotel account has no balance left (or has reached its plan’s limit): top it up in Exotel’s dashboard.',
    )
  if (answer.status === 403)
    return error(
      'auth',
      'Exotel refused this account (it may be suspended, or the API key may not make calls): contact Exotel support.',
    )
  if (answer.status === 404 && action === 'fetch')
    return error('other', 'Exotel has no record of this call.')
  if (answer.status === 400) {
    if (/caller ?id|exophone|virtual number/.test(message))
      return error(
        'other',
        'Exotel does not accept the hospital’s number as caller ID: check the ExoPhone in Settings → Integrations → Voice.',
      )
    if (/\bdnd\b|do not disturb|ndnc/.test(message))
      return error(
        'invalid-number',
        'This number is on India’s Do Not Disturb registry, so Exotel will not call it.',
      )
    if (/number|phone/.test(message)) {
      // From is the staff member's phone (dialled first), To the customer's.
      return /\bfrom\b/.test(message)
        ? error(
            'invalid-number',
            'Exotel cannot call your own phone number: check the number in your profile.',
          )
        : error(
            'invalid-number',
            'Exotel cannot call this contact’s number: check that it is right.',
          )
    }
  }
  return error(
    'other',
    action === 'start'
      ? `Exotel refused the call (error ${code}).`
      : `Exotel could not give this call’s details (error ${code}).`,
  )
}
