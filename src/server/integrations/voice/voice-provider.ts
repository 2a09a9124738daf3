import { busy, httpCall, type HttpAnswer, type HttpOutcome } from '../messaging/http'

/**
 * The one interface every voice provider adapter implements (issue 41): Exotel's click-to-call
 * (exotel-voice.ts), Twilio Voice (twilio-voice.ts) and the sandbox (sandbox-voice.ts). The
 * calls module knows only this. A call rings the staff member's own phone first, then the
 * customer, through the hospital's number (callerId), so the customer never sees a personal
 * number. Base URLs come from env (tests point them at tests/support/fakes/).
 *
 * Failures throw a VoiceProviderError whose `reason` is written for a receptionist and never
 * repeats a phone number or a provider's raw message.
 */

export const CALL_STATUSES = [
  'queued',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
] as const

export type CallStatus = (typeof CALL_STATUSES)[number]

/** A call in one of these has ended and will not change again. */
export const FINAL_STATUSES: ReadonlySet<CallStatus> = new Set([
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
])

export const isFinalStatus = (status: CallStatus): boolean => FINAL_STATUSES.has(status)

/** A provider's status word in the normalised set ('in progress', 'No-Answer' too), or null. */
export function normaliseCallStatus(raw: unknown): CallStatus | null {
  if (typeof raw !== 'string') return null
  const word = raw
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
  const status = word === 'cancelled' ? 'canceled' : word
  return (CALL_STATUSES as readonly string[]).includes(status) ? (status as CallStatus) : null
}

export type VoiceProviderName = 'exotel' | 'twilio' | 'sandbox'

export interface StartCallInput {
  /** The staff member's own phone, E.164: dialled first. */
  staffPhone: string
  /** The lead's or patient's number, E.164: dialled once the staff member answers. */
  customerPhone: string
  /** The hospital's number the customer sees (Exotel's ExoPhone, the Twilio voice number). */
  callerId: string
  /** Where the provider posts the call's progress (with the hospital's token in it). */
  statusCallbackUrl?: string | undefined
  /** Record the conversation (the hospital turned recording on, with its spoken notice). */
  record: boolean
  /** Seconds each phone rings before it counts as unanswered (provider default when absent). */
  ringTimeoutSeconds?: number | undefined
  /** The longest the conversation may last, in seconds (provider default when absent). */
  timeLimitSeconds?: number | undefined
  /** Our call id, echoed back where the provider allows it (Exotel's CustomField). */
  reference?: string | undefined
}

export interface StartedCall {
  /** Exotel's Sid, Twilio's CA… Sid, the sandbox's sbxcall_…. */
  providerCallId: string
  status: CallStatus
}

export interface CallDetails {
  providerCallId: string
  status: CallStatus
  /**
   * The conversation's length in seconds: the customer's answered leg where the provider tells
   * it apart (Exotel's ConversationDuration), else the call's duration; 0 when never answered.
   */
  durationSeconds: number
  startedAt: Date | null
  endedAt: Date | null
  /** Only when the call was recorded and the provider has the file. */
  recordingUrl?: string | undefined
  direction: 'outbound' | 'inbound'
  from: string
  to: string
}

export type VoiceErrorKind = 'auth' | 'balance' | 'invalid-number' | 'unavailable' | 'other'

export class VoiceProviderError extends Error {
  override name = 'VoiceProviderError'
  readonly kind: VoiceErrorKind
  /** Staff's words: shown on the failed call and in Settings' Test call. */
  readonly reason: string
  /** The provider's own code ('20003', 'HTTP 402', 'TIMEOUT'), for logs and support. */
  readonly code: string
  /** For 'unavailable': when the provider asked us to come back (Retry-After). */
  readonly retryAfterMs: number | undefined
  /**
   * The request may have reached the provider (a timeout or a broken connection after it was
   * sent): the call may still ring, so reconcile instead of starting another.
   */
  readonly maybePlaced: boolean

  constructor(init: {
    kind: VoiceErrorKind
    reason: string
    code: string
    retryAfterMs?: number | undefined
    maybePlaced?: boolean | undefined
  }) {
    super(`${init.kind}: ${init.reason} (${init.code})`)
    this.kind = init.kind
    this.reason = init.reason
    this.code = init.code
    this.retryAfterMs = init.retryAfterMs
    this.maybePlaced = init.maybePlaced ?? false
  }
}

export interface VoiceProvider {
  readonly name: VoiceProviderName
  /** Rings the staff phone, then the customer. Throws VoiceProviderError on a refusal. */
  startCall(input: StartCallInput, signal?: AbortSignal): Promise<StartedCall>
  /** The provider's record of a call (reconciling a lost callback, confirming one). */
  fetchCall(providerCallId: string, signal?: AbortSignal): Promise<CallDetails>
}

/** How long one request to a voice provider may take before we give up on it. */
export const VOICE_TIMEOUT_MS = 15_000

/**
 * One HTTP request of a voice adapter through the messaging adapters' httpCall (User-Agent,
 * no redirects, the answer's size cut), under a timeout: an unreachable provider, a timeout
 * and 429/5xx become VoiceProviderError 'unavailable'; any other answer is the caller's.
 */
export async function voiceHttp(
  provider: string,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  options: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<HttpAnswer> {
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let outcome: HttpOutcome
  try {
    outcome = await httpCall(url, init, signal)
  } catch (error) {
    if (options.signal?.aborted) throw error
    throw new VoiceProviderError({
      kind: 'unavailable',
      code: timeout.aborted ? 'TIMEOUT' : 'CONNECTION',
      reason: `${provider} did not answer in time; the call may still ring. Check the call's status before trying again.`,
      maybePlaced: init.method === 'POST',
    })
  }
  if ('unreachable' in outcome) {
    throw new VoiceProviderError({
      kind: 'unavailable',
      code: outcome.unreachable,
      reason: `${provider} could not be reached; no call was placed. Try again in a minute.`,
    })
  }
  if (outcome.status === 429 || outcome.status >= 500) {
    const failure = busy(provider, outcome)
    throw new VoiceProviderError({
      kind: 'unavailable',
      code: `HTTP ${outcome.status}`,
      reason:
        outcome.status === 429
          ? `${provider} is receiving too many calls from this account; try again in a minute.`
          : `${provider} is having problems; try again in a few minutes.`,
      retryAfterMs: failure.ok ? undefined : failure.retryAfterMs,
    })
  }
  return outcome
}

/** A number of seconds from a provider's string or number; 0 when absent or not a number. */
export function seconds(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN
  return Number.isFinite(n) && n > 0 ? Math.round(n) : 0
}

/** 'outbound-api', 'outbound-dial', 'inbound' → ours. */
export const callDirection = (raw: unknown): 'outbound' | 'inbound' =>
  typeof raw === 'string' && raw.toLowerCase().startsWith('inbound') ? 'inbound' : 'outbound'

/** A call's details need a status this product knows; anything else leaves the call as it was. */
export function knownCallStatus(raw: unknown, provider: string): CallStatus {
  const status = normaliseCallStatus(raw)
  if (status) return status
  throw new VoiceProviderError({
    kind: 'other',
    code: 'UNKNOWN_STATUS',
    reason: `${provider} reported a call state this product does not know; the call is left as it was.`,
  })
}
