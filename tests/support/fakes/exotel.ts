import { randomBytes } from 'node:crypto'
import {
  arrange,
  postCallback,
  startHttpFake,
  type Answer,
  type Behaviour,
  type FakeHttp,
  type RecordedRequest,
} from './http-fake'

/**
 * A fake Exotel Voice v1 API. Exotel publishes no OpenAPI file, so the fake checks the facts in
 * ../shared/contracts/exotel/README.md: click-to-call `POST /v1/Accounts/{sid}/Calls/connect`
 * (`.json` for a JSON answer), form-encoded, Basic auth with the account's API key and token;
 * `From`, `To` (E.164, or 0 + STD code), `CallerId` (one of the account's ExoPhones) required;
 * the optional parameters with their documented values, and nothing else. Call details are
 * `GET /v1/Accounts/{sid}/Calls/{CallSid}.json` (`details=true` adds the legs). Refusals come in
 * Exotel's shape, `{ RestException: { Status, Message } }`.
 *
 * Each number can be told how it behaves (`outcomes`): answer (for so many seconds), ring out,
 * be busy, or make Exotel refuse the call as if the credentials failed or the balance ran out.
 * A call stays `in-progress` until finish(); sendStatusCallback() then posts Exotel's
 * StatusCallback (JSON or form, as asked), as many times and in the order a test wants.
 */

export type FakeVoiceOutcome =
  { answer: number } | 'no-answer' | 'busy' | 'failed' | 'auth' | 'balance'

export interface FakeExotelAccount {
  apiKey: string
  apiToken: string
  exophones: string[]
}

export interface FakeExotelCall {
  sid: string
  accountSid: string
  from: string
  to: string
  callerId: string
  status: string
  leg1Status: string | null
  leg2Status: string | null
  /** Seconds both parties talked. */
  conversationSeconds: number
  params: Record<string, string>
  statusCallback: string | null
  events: string[]
  json: boolean
  createdAt: Date
  endedAt: Date | null
  recordingUrl: string | null
}

export interface FakeExotel extends FakeHttp {
  calls: FakeExotelCall[]
  /** How a call involving this number (From or To, E.164) goes; default: answered, 60 s. */
  outcomes: Map<string, FakeVoiceOutcome>
  /** Ends the call as its numbers' outcomes say (staff first, then customer). */
  finish: (sid: string) => FakeExotelCall
  /** Posts the call's StatusCallback (answered, then terminal, as subscribed); answers statuses. */
  sendStatusCallback: (
    sid: string,
    options?: { order?: 'in-order' | 'reversed' | 'twice' },
  ) => Promise<number[]>
}

const NUMBER = /^(\+[1-9]\d{6,14}|0\d{9,11})$/
const OPTIONAL: Record<string, (v: string) => boolean> = {
  CallType: (v) => v === 'trans',
  TimeLimit: (v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 14_400,
  TimeOut: (v) => /^\d+$/.test(v) && Number(v) >= 1,
  WaitUrl: isUrl,
  Record: (v) => v === 'true' || v === 'false',
  RecordingChannels: (v) => v === 'single' || v === 'dual',
  RecordingFormat: (v) => v === 'mp3' || v === 'mp3-hq',
  CustomField: (v) => v.length <= 128,
  StatusCallback: isUrl,
  StatusCallbackContentType: (v) =>
    ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'].includes(v),
}

const error = (status: number, message: string): Answer => ({
  status,
  body: { RestException: { Status: status, Message: message } },
})

export async function startFakeExotel(
  accounts: Record<string, FakeExotelAccount>,
  port = 0,
): Promise<FakeExotel> {
  const calls: FakeExotelCall[] = []
  const outcomes = new Map<string, FakeVoiceOutcome>()

  const fake = await startHttpFake((req, take) => {
    const connect = /^\/v1\/Accounts\/([^/]+)\/Calls\/connect(\.json)?$/.exec(req.path)
    const details = /^\/v1\/Accounts\/([^/]+)\/Calls\/([^/]+?)(\.json)?$/.exec(req.path)
    const sid = decodeURIComponent((connect ?? details)?.[1] ?? '')
    if (!sid) return error(404, 'The requested resource was not found')
    const account = accounts[sid]
    if (!account || req.headers.authorization !== basic(account.apiKey, account.apiToken))
      return error(401, 'Authentication failed. Invalid API Key or Token.')
    if (connect) {
      if (req.method !== 'POST') return error(405, 'Method not allowed')
      if (!connect[2]) return refuse(req, ['append .json to the URL for a JSON answer'])
      const b = take()
      if (b?.hang) return 'hang'
      if (b?.status) return scripted(b)
      return create(req, sid, account)
    }
    if (req.method !== 'GET' || !details?.[2]) return error(405, 'Method not allowed')
    if (!details[3]) return refuse(req, ['append .json to the URL for a JSON answer'])
    const call = calls.find((c) => c.sid === decodeURIComponent(details[2] ?? ''))
    if (call?.accountSid !== sid) return error(404, 'Call not found')
    const b = take()
    if (b?.hang) return 'hang'
    if (b?.status) return scripted(b)
    return { status: 200, body: { Call: resource(call, req.query.get('details') === 'true') } }
  }, port)

  function create(req: RecordedRequest, accountSid: string, account: FakeExotelAccount): Answer {
    if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return refuse(req, ['the body must be form-encoded'])
    const form = new URLSearchParams(req.raw)
    const params: Record<string, string> = {}
    const events: string[] = []
    const problems: string[] = []
    for (const [key, value] of form) {
      if (key in params) problems.push(`${key} is given twice`)
      params[key] = value
      if (/^StatusCallbackEvents\[\d*\]$/.test(key)) {
        if (value === 'terminal' || value === 'answered') events.push(value)
        else problems.push(`${key} must be terminal or answered`)
      } else if (!['From', 'To', 'CallerId'].includes(key)) {
        const check = OPTIONAL[key]
        if (!check) problems.push(`${key} is not a parameter of Calls/connect`)
        else if (!check(value)) problems.push(`${key} has an invalid value`)
      }
    }
    for (const name of ['From', 'To', 'CallerId'] as const) {
      if (!params[name]) problems.push(`${name} is required`)
    }
    if (params.From && !NUMBER.test(params.From)) problems.push('From is not a valid phone number')
    if (params.To && !NUMBER.test(params.To)) problems.push('To is not a valid phone number')
    if (events.length && !params.StatusCallback)
      problems.push('StatusCallbackEvents needs StatusCallback')
    if (problems.length) return refuse(req, problems)
    if (!account.exophones.includes(params.CallerId ?? ''))
      return error(400, 'CallerId is not an ExoPhone of this account')
    for (const number of [params.From, params.To]) {
      const outcome = outcomes.get(number ?? '')
      if (outcome === 'auth') return error(401, 'Authentication failed. Invalid API Key or Token.')
      if (outcome === 'balance')
        return error(402, 'Insufficient balance: please recharge your account')
    }
    const call: FakeExotelCall = {
      sid: randomBytes(16).toString('hex'),
      accountSid,
      from: params.From ?? '',
      to: params.To ?? '',
      callerId: params.CallerId ?? '',
      status: 'in-progress',
      leg1Status: null,
      leg2Status: null,
      conversationSeconds: 0,
      params,
      statusCallback: params.StatusCallback ?? null,
      events,
      json: params.StatusCallbackContentType === 'application/json',
      createdAt: new Date(),
      endedAt: null,
      recordingUrl: null,
    }
    calls.push(call)
    return { status: 200, body: { Call: resource(call, false) } }
  }

  function finish(sid: string): FakeExotelCall {
    const call = calls.find((c) => c.sid === sid)
    if (!call) throw new Error(`no call ${sid}`)
    const staff = legOutcome(outcomes.get(call.from))
    const customer = legOutcome(outcomes.get(call.to))
    call.leg1Status = staff.status
    call.leg2Status = staff.status === 'completed' ? customer.status : null
    call.status = staff.status === 'completed' ? customer.status : staff.status
    call.conversationSeconds = call.status === 'completed' ? customer.seconds : 0
    call.endedAt = new Date(call.createdAt.getTime() + 20_000 + call.conversationSeconds * 1000)
    if (call.status === 'completed' && call.params.Record === 'true')
      call.recordingUrl = `https://recordings.exotel.example/${call.accountSid}/${call.sid}.mp3`
    return call
  }

  return {
    ...fake,
    calls,
    outcomes,
    finish,
    async sendStatusCallback(sid, options = {}) {
      const call = calls.find((c) => c.sid === sid)
      if (!call?.statusCallback) throw new Error(`no status callback for ${sid}`)
      const posts: Record<string, unknown>[] = []
      if (call.events.includes('answered') && call.leg2Status === 'completed')
        posts.push(callback(call, 'answered'))
      posts.push(callback(call, call.events.includes('terminal') ? 'terminal' : null))
      const results: number[] = []
      for (const body of arrange(posts, options.order)) {
        results.push(
          call.json
            ? await postCallback(call.statusCallback, JSON.stringify(body), {
                'content-type': 'application/json',
              })
            : await postCallback(call.statusCallback, formOf(body), {
                'content-type': 'application/x-www-form-urlencoded',
              }),
        )
      }
      return results
    },
  }
}

function legOutcome(outcome: FakeVoiceOutcome | undefined): { status: string; seconds: number } {
  if (outcome === undefined) return { status: 'completed', seconds: 60 }
  if (typeof outcome === 'object') return { status: 'completed', seconds: outcome.answer }
  if (outcome === 'no-answer' || outcome === 'busy' || outcome === 'failed')
    return { status: outcome, seconds: 0 }
  return { status: 'failed', seconds: 0 }
}

/** Exotel's `YYYY-MM-DD HH:mm:ss` in India time. */
export function exotelTime(date: Date): string {
  return new Date(date.getTime() + 330 * 60_000).toISOString().slice(0, 19).replace('T', ' ')
}

function resource(call: FakeExotelCall, withDetails: boolean) {
  const ended = call.endedAt
  const total = ended ? Math.round((ended.getTime() - call.createdAt.getTime()) / 1000) : 0
  return {
    Sid: call.sid,
    ParentCallSid: null,
    DateCreated: exotelTime(call.createdAt),
    DateUpdated: exotelTime(ended ?? call.createdAt),
    AccountSid: call.accountSid,
    To: call.to,
    From: call.from,
    PhoneNumberSid: call.callerId,
    Status: call.status,
    StartTime: exotelTime(call.createdAt),
    EndTime: ended ? exotelTime(ended) : null,
    Duration: ended ? String(total) : null,
    Price: ended ? '1.500' : null,
    Direction: 'outbound-api',
    AnsweredBy: null,
    ForwardedFrom: null,
    CallerName: null,
    Uri: `/v1/Accounts/${call.accountSid}/Calls/${call.sid}.json`,
    RecordingUrl: call.recordingUrl,
    ...(withDetails
      ? {
          Details: {
            ConversationDuration: call.conversationSeconds,
            Leg1Status: call.leg1Status,
            Leg2Status: call.leg2Status,
            Legs: [
              { Leg: { Id: 1, OnCallDuration: call.leg1Status === 'completed' ? total : 0 } },
              { Leg: { Id: 2, OnCallDuration: call.conversationSeconds } },
            ],
          },
        }
      : {}),
  }
}

function callback(call: FakeExotelCall, event: 'answered' | 'terminal' | null) {
  const base: Record<string, unknown> = {
    CallSid: call.sid,
    DateUpdated: exotelTime(call.endedAt ?? new Date()),
    Status: event === 'answered' ? 'in-progress' : call.status,
    RecordingUrl: event === 'answered' ? '' : (call.recordingUrl ?? ''),
  }
  if (!event) return base
  return {
    ...base,
    EventType: event,
    DateCreated: exotelTime(call.createdAt),
    From: call.from,
    To: call.to,
    PhoneNumberSid: call.callerId,
    StartTime: exotelTime(call.createdAt),
    EndTime: event === 'terminal' && call.endedAt ? exotelTime(call.endedAt) : '',
    ConversationDuration: event === 'terminal' ? call.conversationSeconds : 0,
    Direction: 'outbound-api',
    CustomField: call.params.CustomField ?? '',
    Legs: [
      { OnCallDuration: 0, Status: call.leg1Status ?? 'in-progress' },
      { OnCallDuration: call.conversationSeconds, Status: call.leg2Status ?? 'in-progress' },
    ],
  }
}

function formOf(body: Record<string, unknown>): string {
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(body)) {
    if (key === 'Legs') continue
    form.set(key, String(value))
  }
  return form.toString()
}

/** A test's scripted refusal, with its Retry-After. */
function scripted(b: Behaviour): Answer {
  const answer = error(b.status ?? 500, b.message ?? 'Refused by the test')
  if (b.retryAfter) answer.headers = { 'retry-after': b.retryAfter }
  return answer
}

function refuse(req: RecordedRequest, problems: string[]): Answer {
  req.refused = problems
  return error(400, `Invalid request: ${problems.slice(0, 5).join('; ')}`)
}

function isUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

const basic = (user: string, pass: string) =>
  `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`
