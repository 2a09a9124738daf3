import { basicAuth, type HttpAnswer } from '../messaging/http'
import {
  callDirection,
  isFinalStatus,
  knownCallStatus,
  normaliseCallStatus,
  seconds,
  VOICE_TIMEOUT_MS,
  voiceHttp,
  VoiceProviderError,
  type CallDetails,
  type StartCallInput,
  type VoiceProvider,
} from './voice-provider'

/**
 * Twilio Voice (../shared/contracts/twilio/twilio_api_v2010.json): CreateCall,
 * `POST /2010-04-01/Accounts/{AccountSid}/Calls.json`, form-encoded, Basic auth
 * (AccountSid:AuthToken). The call goes first to the staff phone (`To`) from the hospital's
 * voice number (`From`); when they answer, inline `Twiml` `<Dial>`s the customer with the
 * hospital's number as callerId, so the customer never sees the staff member's number.
 *
 * The parent call's StatusCallback gets initiated/ringing/answered/completed. The customer's
 * leg reports to the same URL with `leg=customer` added (`<Number statusCallback>`), because
 * the parent call "completes" even when the customer never picks up. FetchCall
 * (`GET …/Calls/{Sid}.json`) reads the parent; once it has ended, ListCall by ParentCallSid
 * finds the customer's leg, whose status and duration are the conversation's.
 */
export interface TwilioVoiceCredentials {
  accountSid: string
  authToken: string
}

export interface TwilioVoiceOptions {
  /** TWILIO_API_URL (tests point it at the fake). */
  baseUrl: string
  timeoutMs?: number | undefined
}

const PROVIDER = 'Twilio'
const EVENTS = ['initiated', 'ringing', 'answered', 'completed'] as const

export function twilioVoice(
  credentials: TwilioVoiceCredentials,
  options: TwilioVoiceOptions,
): VoiceProvider {
  const base = options.baseUrl.replace(/\/+$/, '')
  const account = `${base}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}`
  const timeoutMs = options.timeoutMs ?? VOICE_TIMEOUT_MS
  const headers = {
    authorization: basicAuth(credentials.accountSid, credentials.authToken),
    accept: 'application/json',
  }
  const get = (url: string, signal?: AbortSignal) =>
    voiceHttp(PROVIDER, url, { method: 'GET', headers }, { signal, timeoutMs })

  return {
    name: 'twilio',
    async startCall(input, signal) {
      const form = new URLSearchParams({
        To: input.staffPhone,
        From: input.callerId,
        Twiml: dialTwiml(input),
      })
      if (input.ringTimeoutSeconds) form.set('Timeout', String(input.ringTimeoutSeconds))
      if (input.timeLimitSeconds) form.set('TimeLimit', String(input.timeLimitSeconds))
      if (input.record) {
        form.set('Record', 'true')
        form.set('RecordingChannels', 'dual')
      }
      if (input.statusCallbackUrl) {
        form.set('StatusCallback', input.statusCallbackUrl)
        form.set('StatusCallbackMethod', 'POST')
        for (const event of EVENTS) form.append('StatusCallbackEvent', event)
      }
      const answer = await voiceHttp(
        PROVIDER,
        `${account}/Calls.json`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        },
        { signal, timeoutMs },
      )
      const call = answer.json as TwilioCall | null
      if (answer.status >= 200 && answer.status < 300 && typeof call?.sid === 'string') {
        return { providerCallId: call.sid, status: normaliseCallStatus(call.status) ?? 'queued' }
      }
      throw twilioVoiceError(answer, 'start')
    },

    async fetchCall(providerCallId, signal) {
      const answer = await get(
        `${account}/Calls/${encodeURIComponent(providerCallId)}.json`,
        signal,
      )
      const call = answer.json as TwilioCall | null
      if (answer.status !== 200 || typeof call?.sid !== 'string')
        throw twilioVoiceError(answer, 'fetch')
      const details = detailsOf(call)
      if (!isFinalStatus(details.status) || details.direction === 'inbound') return details
      const params = new URLSearchParams({ ParentCallSid: call.sid, PageSize: '20' })
      const list = await get(`${account}/Calls.json?${params.toString()}`, signal)
      if (list.status !== 200) throw twilioVoiceError(list, 'fetch')
      const calls = (list.json as { calls?: unknown } | null)?.calls
      const child = Array.isArray(calls) ? (calls as TwilioCall[])[0] : undefined
      if (!child) {
        // The staff member answered but the customer was never dialled: nothing was said.
        return details.status === 'completed' ? { ...details, durationSeconds: 0 } : details
      }
      const leg = detailsOf(child)
      return {
        ...details,
        status: details.status === 'completed' ? leg.status : details.status,
        durationSeconds: leg.status === 'completed' ? leg.durationSeconds : 0,
        to: leg.to || details.to,
      }
    },
  }
}

/** The TwiML run when the staff member answers: dial the customer as the hospital. */
export function dialTwiml(input: StartCallInput): string {
  const dial: string[] = [`callerId="${xml(input.callerId)}"`]
  if (input.ringTimeoutSeconds) dial.push(`timeout="${input.ringTimeoutSeconds}"`)
  if (input.timeLimitSeconds) dial.push(`timeLimit="${input.timeLimitSeconds}"`)
  let number = ''
  if (input.statusCallbackUrl) {
    const url = new URL(input.statusCallbackUrl)
    url.searchParams.set('leg', 'customer')
    number = ` statusCallbackEvent="initiated ringing answered completed" statusCallback="${xml(url.toString())}" statusCallbackMethod="POST"`
  }
  return `<Response><Dial ${dial.join(' ')}><Number${number}>${xml(input.customerPhone)}</Number></Dial></Response>`
}

const xml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')

interface TwilioCall {
  sid?: unknown
  status?: unknown
  from?: unknown
  to?: unknown
  direction?: unknown
  start_time?: unknown
  end_time?: unknown
  duration?: unknown
  subresource_uris?: unknown
}

function detailsOf(call: TwilioCall): CallDetails {
  const status = knownCallStatus(call.status, 'Twilio')
  return {
    providerCallId: String(call.sid),
    status,
    durationSeconds: status === 'completed' ? seconds(call.duration) : 0,
    startedAt: rfc2822(call.start_time),
    endedAt: rfc2822(call.end_time),
    direction: callDirection(call.direction),
    from: typeof call.from === 'string' ? call.from : '',
    to: typeof call.to === 'string' ? call.to : '',
  }
}

/** Twilio's dates: `Tue, 31 Aug 2010 20:36:28 +0000`. */
function rfc2822(value: unknown): Date | null {
  if (typeof value !== 'string' || !value) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/**
 * Twilio's voice refusals (error body { code, message, more_info, status }) in the calls
 * module's kinds. twilio-errors.ts's twilioFailure speaks of messages (STOP, the WhatsApp
 * window), so calls have their own words here.
 */
export function twilioVoiceError(
  answer: HttpAnswer,
  action: 'start' | 'fetch',
): VoiceProviderError {
  const body = (answer.json ?? {}) as { code?: unknown }
  const n = typeof body.code === 'number' ? body.code : undefined
  const code = n === undefined ? `HTTP ${answer.status}` : String(n)
  const error = (kind: VoiceProviderError['kind'], reason: string) =>
    new VoiceProviderError({ kind, code, reason })
  // Before the 401 check: a suspended account can answer 401 with its own code.
  if (n === 10001 || n === 20005)
    return error(
      'balance',
      'The Twilio account is not active (usually its balance ran out): add funds in Twilio’s console.',
    )
  if (n === 20003 || answer.status === 401)
    return error(
      'auth',
      'Twilio refused the account SID or auth token: check Settings → Integrations → Voice.',
    )
  if (n === 21210 || n === 21212 || n === 21213)
    return error(
      'other',
      'Twilio does not accept the hospital’s voice number as caller: check it in Settings → Integrations → Voice.',
    )
  if (n === 21215 || n === 13227)
    return error(
      'invalid-number',
      'The Twilio account is not allowed to call this country: enable it in Twilio’s voice geographic permissions.',
    )
  // CreateCall's To is the staff phone (the customer's number is inside the TwiML and fails
  // later, as the customer leg's 'failed').
  if (n === 21211 || n === 21214 || n === 21217 || n === 21219 || n === 13224)
    return error(
      'invalid-number',
      'Twilio cannot call your own phone number: check the number in your profile.',
    )
  if (n === 20404 && action === 'fetch') return error('other', 'Twilio has no record of this call.')
  return error(
    'other',
    action === 'start'
      ? `Twilio refused the call (error ${code}).`
      : `Twilio could not give this call’s details (error ${code}).`,
  )
}
