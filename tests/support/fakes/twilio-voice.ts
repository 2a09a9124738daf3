import { randomBytes } from 'node:crypto'
import { twilioSignature } from '../../../src/server/integrations/messaging/signatures'
import { operationValidator } from './contract'
import {
  arrange,
  postCallback,
  startHttpFake,
  type Answer,
  type Behaviour,
  type FakeHttp,
  type RecordedRequest,
} from './http-fake'
import type { FakeVoiceOutcome } from './exotel'

/**
 * A fake Twilio Voice API: CreateCall and ListCall on /2010-04-01/Accounts/{AccountSid}/Calls.json
 * and FetchCall on …/Calls/{Sid}.json, each checked against Twilio's official OpenAPI file
 * (twilio_api_v2010.json) and refused in Twilio's error shape ({ code, message, more_info,
 * status }) when off-contract. Beyond the schema (whose `endpoint` and `twiml` formats Ajv does
 * not know) it checks what Twilio documents: To and From are phone numbers, From is one of the
 * account's voice numbers, exactly one of Url, Twiml or ApplicationSid, Twiml at most 4,000
 * characters, and the StatusCallbackEvent values. The Twiml must `<Dial>` one `<Number>` (the
 * customer) with a callerId: that is how this product connects a call.
 *
 * Numbers (the staff phone in To, the customer in the Twiml) can be told how they behave
 * (`outcomes`, as the Exotel fake): answer, ring out, be busy, or refuse the call as bad
 * credentials or an account out of funds. finish() ends a call as they say, making the
 * customer's child leg; sendCallEvents() posts the signed status callbacks of both legs.
 */

const CALLS = '/2010-04-01/Accounts/{AccountSid}/Calls.json'
const CALL = '/2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json'
const file = 'twilio/twilio_api_v2010.json' as const
const E164 = /^\+[1-9]\d{6,14}$/
const EVENTS = new Set(['initiated', 'ringing', 'answered', 'completed'])

export interface FakeTwilioCall {
  sid: string
  accountSid: string
  parentSid: string | null
  to: string
  from: string
  status: string
  direction: 'outbound-api' | 'outbound-dial'
  duration: number
  createdAt: Date
  endedAt: Date | null
  params: Record<string, string | string[]>
  statusCallback: string | null
  events: string[]
  /** From the Twiml's <Dial>: the customer, the caller id shown, the leg's callback. */
  dial: { number: string; callerId: string; statusCallback: string | null } | null
}

export interface FakeTwilioVoice extends FakeHttp {
  calls: FakeTwilioCall[]
  outcomes: Map<string, FakeVoiceOutcome>
  finish: (sid: string) => FakeTwilioCall
  /** Posts the parent's subscribed events, then the customer leg's; answers the statuses. */
  sendCallEvents: (
    sid: string,
    options?: { order?: 'in-order' | 'reversed' | 'twice' },
  ) => Promise<number[]>
}

const error = (status: number, code: number, message: string): Answer => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
})

export async function startFakeTwilioVoice(
  accounts: Record<string, { authToken: string; numbers: string[] }>,
  port = 0,
): Promise<FakeTwilioVoice> {
  const create = operationValidator(file, CALLS, 'post', 'application/x-www-form-urlencoded')
  const list = operationValidator(file, CALLS, 'get')
  const fetchOne = operationValidator(file, CALL, 'get')
  const calls: FakeTwilioCall[] = []
  const outcomes = new Map<string, FakeVoiceOutcome>()

  const fake = await startHttpFake((req, take) => {
    const many = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(req.path)
    const one = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/.exec(req.path)
    const accountSid = decodeURIComponent((many ?? one)?.[1] ?? '')
    if (!accountSid) return error(404, 20404, 'The requested resource was not found')
    const account = accounts[accountSid]
    if (!account || req.headers.authorization !== basic(accountSid, account.authToken))
      return error(401, 20003, 'Authenticate')
    if (one) {
      const sid = decodeURIComponent(one[2] ?? '')
      if (req.method !== 'GET') return error(405, 20004, 'Method not allowed')
      const problems = fetchOne.params({ path: { AccountSid: accountSid, Sid: sid } })
      if (problems.length) return refuse(req, problems)
      const call = calls.find((c) => c.sid === sid && c.accountSid === accountSid)
      if (!call) return error(404, 20404, 'The requested resource was not found')
      const b = take()
      if (b?.hang) return 'hang'
      if (b?.status) return scripted(b)
      return { status: 200, body: resource(call) }
    }
    if (req.method === 'GET') {
      const query = Object.fromEntries(req.query)
      const problems = list.params({ path: { AccountSid: accountSid }, query })
      if (problems.length) return refuse(req, problems)
      const found = calls.filter(
        (c) =>
          c.accountSid === accountSid &&
          (!query.ParentCallSid || c.parentSid === query.ParentCallSid),
      )
      return {
        status: 200,
        body: { calls: found.map(resource), page: 0, page_size: 50, next_page_uri: null },
      }
    }
    if (req.method !== 'POST') return error(405, 20004, 'Method not allowed')
    return createCall(req, accountSid, account.numbers, take)
  }, port)

  function createCall(
    req: RecordedRequest,
    accountSid: string,
    numbers: string[],
    take: () => Behaviour | undefined,
  ): Answer | 'hang' {
    if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return refuse(req, ['Content-Type must be application/x-www-form-urlencoded'])
    const params: Record<string, string | string[]> = {}
    for (const [key, value] of new URLSearchParams(req.raw)) {
      const seen = params[key]
      params[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]
    }
    const problems = [
      ...create.params({ path: { AccountSid: accountSid } }),
      ...create.body({ ...params }),
    ]
    const text = (name: string) => (typeof params[name] === 'string' ? params[name] : '')
    const how = ['Url', 'Twiml', 'ApplicationSid'].filter((k) => params[k] !== undefined)
    if (how.length !== 1) problems.push('Exactly one of Url, Twiml or ApplicationSid is required')
    const events = [params.StatusCallbackEvent ?? []].flat()
    for (const e of events) if (!EVENTS.has(e)) problems.push(`StatusCallbackEvent ${e} is unknown`)
    if (events.length && !params.StatusCallback)
      problems.push('StatusCallbackEvent needs StatusCallback')
    const twiml = text('Twiml')
    if (twiml.length > 4000) problems.push('Twiml is longer than 4000 characters')
    const dial = twiml ? parseDial(twiml) : null
    if (twiml && !dial)
      problems.push('Twiml must <Dial callerId="…"><Number>+E.164</Number></Dial>')
    if (problems.length) return refuse(req, problems)
    // Well-formed requests Twilio still refuses, with its own codes.
    if (!E164.test(text('To'))) return error(400, 21211, "Invalid 'To' Phone Number")
    if (!E164.test(text('From'))) return error(400, 21212, "Invalid 'From' Phone Number")
    if (!numbers.includes(text('From')))
      return error(400, 21210, "The source phone number provided, 'From', is not verified")
    for (const number of [text('To'), dial?.number ?? '']) {
      const outcome = outcomes.get(number)
      if (outcome === 'auth') return error(401, 20003, 'Authenticate')
      if (outcome === 'balance') return error(401, 20005, 'Account not active')
    }
    const b = take()
    if (b?.hang) return 'hang'
    if (b?.status) return scripted(b)
    const call: FakeTwilioCall = {
      sid: callSid(),
      accountSid,
      parentSid: null,
      to: text('To'),
      from: text('From'),
      status: 'queued',
      direction: 'outbound-api',
      duration: 0,
      createdAt: new Date(),
      endedAt: null,
      params,
      statusCallback: text('StatusCallback') || null,
      events,
      dial,
    }
    calls.push(call)
    return { status: 201, body: resource(call) }
  }

  function finish(sid: string): FakeTwilioCall {
    const call = calls.find((c) => c.sid === sid)
    if (!call) throw new Error(`no call ${sid}`)
    const staff = legOutcome(outcomes.get(call.to))
    const start = call.createdAt.getTime()
    if (staff.status !== 'completed' || !call.dial) {
      call.status = staff.status
      call.endedAt = new Date(start + 20_000)
      return call
    }
    const customer = legOutcome(outcomes.get(call.dial.number))
    const child: FakeTwilioCall = {
      ...call,
      sid: callSid(),
      parentSid: call.sid,
      to: call.dial.number,
      from: call.dial.callerId,
      status: customer.status,
      direction: 'outbound-dial',
      duration: customer.status === 'completed' ? customer.seconds : 0,
      createdAt: new Date(start + 5_000),
      endedAt: new Date(start + 25_000 + customer.seconds * 1000),
      statusCallback: call.dial.statusCallback,
      events: call.dial.statusCallback ? [...EVENTS] : [],
      dial: null,
    }
    calls.push(child)
    call.status = 'completed'
    call.endedAt = child.endedAt
    call.duration = Math.round(((child.endedAt?.getTime() ?? start) - start) / 1000)
    return call
  }

  return {
    ...fake,
    calls,
    outcomes,
    finish,
    async sendCallEvents(sid, options = {}) {
      const parent = calls.find((c) => c.sid === sid)
      if (!parent) throw new Error(`no call ${sid}`)
      const legs = [parent, ...calls.filter((c) => c.parentSid === sid)]
      const posts: { url: string; token: string; params: Record<string, string> }[] = []
      const token = accounts[parent.accountSid]?.authToken ?? ''
      for (const leg of legs) {
        if (!leg.statusCallback) continue
        for (const event of progress(leg)) {
          if (!leg.events.includes(event.event)) continue
          posts.push({ url: leg.statusCallback, token, params: callbackParams(leg, event) })
        }
      }
      const results: number[] = []
      for (const p of arrange(posts, options.order)) {
        results.push(
          await postCallback(p.url, new URLSearchParams(p.params).toString(), {
            'content-type': 'application/x-www-form-urlencoded',
            'x-twilio-signature': twilioSignature(p.url, p.params, p.token),
          }),
        )
      }
      return results
    },
  }
}

/** The `<Dial callerId><Number statusCallback?>` this product's Twiml is made of. */
function parseDial(twiml: string): FakeTwilioCall['dial'] {
  const m =
    /^<Response><Dial ([^>]*)><Number([^>]*)>(\+[1-9]\d{6,14})<\/Number><\/Dial><\/Response>$/.exec(
      twiml.trim(),
    )
  if (!m) return null
  const callerId = /(?:^|\s)callerId="(\+[1-9]\d{6,14})"/.exec(m[1] ?? '')?.[1]
  if (!callerId) return null
  const callback = /\sstatusCallback="([^"]+)"/.exec(m[2] ?? '')?.[1]
  return {
    number: m[3] ?? '',
    callerId,
    statusCallback: callback ? callback.replaceAll('&amp;', '&') : null,
  }
}

function legOutcome(outcome: FakeVoiceOutcome | undefined): { status: string; seconds: number } {
  if (outcome === undefined) return { status: 'completed', seconds: 60 }
  if (typeof outcome === 'object') return { status: 'completed', seconds: outcome.answer }
  if (outcome === 'no-answer' || outcome === 'busy' || outcome === 'failed')
    return { status: outcome, seconds: 0 }
  return { status: 'failed', seconds: 0 }
}

function progress(call: FakeTwilioCall): { event: string; status: string }[] {
  const steps = [
    { event: 'initiated', status: 'initiated' },
    { event: 'ringing', status: 'ringing' },
  ]
  if (call.status === 'completed') steps.push({ event: 'answered', status: 'in-progress' })
  if (call.endedAt) steps.push({ event: 'completed', status: call.status })
  return steps
}

function callbackParams(call: FakeTwilioCall, step: { status: string }): Record<string, string> {
  const params: Record<string, string> = {
    AccountSid: call.accountSid,
    ApiVersion: '2010-04-01',
    CallSid: call.sid,
    CallStatus: step.status,
    Direction: call.direction,
    From: call.from,
    To: call.to,
    CallbackSource: 'call-progress-events',
    Timestamp: new Date().toUTCString(),
  }
  if (call.parentSid) params.ParentCallSid = call.parentSid
  if (step.status === call.status && call.endedAt) {
    params.CallDuration = String(call.duration)
    params.Duration = String(Math.ceil(call.duration / 60))
  }
  return params
}

/** A test's scripted refusal, with its Retry-After. */
function scripted(b: Behaviour): Answer {
  const answer = error(b.status ?? 500, Number(b.code ?? 20500), b.message ?? 'Refused by the test')
  if (b.retryAfter) answer.headers = { 'retry-after': b.retryAfter }
  return answer
}

const callSid = () => `CA${randomBytes(16).toString('hex')}`

function resource(c: FakeTwilioCall) {
  const date = (d: Date | null) => (d ? d.toUTCString().replace('GMT', '+0000') : null)
  return {
    sid: c.sid,
    account_sid: c.accountSid,
    parent_call_sid: c.parentSid,
    api_version: '2010-04-01',
    to: c.to,
    from: c.from,
    status: c.status,
    direction: c.direction,
    date_created: date(c.createdAt),
    date_updated: date(c.endedAt ?? c.createdAt),
    start_time: c.status === 'queued' ? null : date(c.createdAt),
    end_time: date(c.endedAt),
    duration: c.endedAt ? String(c.duration) : null,
    price: null,
    price_unit: 'USD',
    answered_by: null,
    uri: `/2010-04-01/Accounts/${c.accountSid}/Calls/${c.sid}.json`,
    subresource_uris: {},
  }
}

function refuse(req: RecordedRequest, problems: string[]): Answer {
  req.refused = problems
  return error(400, 21604, `Invalid request: ${problems.slice(0, 5).join('; ')}`)
}

const basic = (user: string, pass: string) =>
  `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`
