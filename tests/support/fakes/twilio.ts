import { randomBytes } from 'node:crypto'
import { twilioSignature } from '../../../src/server/integrations/messaging/signatures'
import { operationValidator } from './contract'
import {
  arrange,
  postCallback,
  startHttpFake,
  type Answer,
  type FakeHttp,
  type RecordedRequest,
} from './http-fake'

/**
 * A fake Twilio REST API (Programmable Messaging): CreateMessage and ListMessage on
 * /2010-04-01/Accounts/{AccountSid}/Messages.json, each request checked against Twilio's
 * official OpenAPI file (twilio_api_v2010.json) and refused with Twilio's own error body
 * ({ code, message, more_info, status }) when off-contract; Basic auth by account SID and auth
 * token; status callbacks signed with X-Twilio-Signature.
 */

const MESSAGES = '/2010-04-01/Accounts/{AccountSid}/Messages.json'
const file = 'twilio/twilio_api_v2010.json' as const

export interface FakeTwilioMessage {
  sid: string
  account_sid: string
  to: string
  from: string
  body: string
  status: string
  direction: 'outbound-api'
  date_created: string
  date_sent: string
  error_code: number | null
  statusCallback: string | null
  contentSid: string | null
  contentVariables: string | null
}

export interface FakeTwilio extends FakeHttp {
  messages: FakeTwilioMessage[]
  /** Accepted messages per recipient (the To value, e.g. whatsapp:+91…). */
  acceptedTo: Map<string, number>
  /** Posts status callbacks for a message to its StatusCallback URL, signed; answers statuses. */
  sendStatuses: (
    sid: string,
    statuses: string[],
    options?: { order?: 'in-order' | 'reversed' | 'twice'; errorCode?: number },
  ) => Promise<number[]>
  /**
   * Content templates' WhatsApp approvals by Content SID (HX…), answered on the Content API's
   * GET /v1/Content/{Sid}/ApprovalRequests (point TWILIO_CONTENT_URL at this fake).
   */
  contentApprovals: Map<string, { accountSid: string; status: string; rejectionReason?: string }>
  /** Posts an inbound message (a reply) to `url` as Twilio would, signed; answers the status. */
  sendInbound: (
    url: string,
    message: { accountSid: string; from: string; to: string; body: string },
  ) => Promise<number>
}

const error = (status: number, code: number, message: string): Answer => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
})

export async function startFakeTwilio(
  accounts: Record<string, string>,
  port = 0,
): Promise<FakeTwilio> {
  const create = operationValidator(file, MESSAGES, 'post', 'application/x-www-form-urlencoded')
  const list = operationValidator(file, MESSAGES, 'get')
  const messages: FakeTwilioMessage[] = []
  const acceptedTo = new Map<string, number>()
  const contentApprovals: FakeTwilio['contentApprovals'] = new Map()

  const fake = await startHttpFake((req, take) => {
    const content = /^\/v1\/Content\/([^/]+)\/ApprovalRequests$/.exec(req.path)
    if (content?.[1]) return approvalRequests(req, decodeURIComponent(content[1]))
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.path)
    if (!match?.[1]) return error(404, 20404, 'The requested resource was not found')
    const accountSid = decodeURIComponent(match[1])
    const token = accounts[accountSid]
    if (!token || req.headers.authorization !== basic(accountSid, token))
      return error(401, 20003, 'Authenticate')
    const pathProblems = create.params({ path: { AccountSid: accountSid } })
    if (pathProblems.length) return refuse(req, pathProblems)
    if (req.method === 'GET') return listMessages(req, accountSid)
    if (req.method !== 'POST') return error(405, 20004, 'Method not allowed')
    if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return refuse(req, ['Content-Type must be application/x-www-form-urlencoded'])
    const form: Record<string, unknown> = Object.fromEntries(new URLSearchParams(req.raw))
    const problems = create.body(form)
    // Twilio's documented rules beyond the schema: a sender, and a body or content.
    if (!form.From && !form.MessagingServiceSid) problems.push("A 'From' phone number is required")
    if (!form.Body && !form.ContentSid && !form.MediaUrl) problems.push('Message body is required')
    if (typeof form.ContentVariables === 'string' && !isJsonObject(form.ContentVariables))
      problems.push('ContentVariables must be a JSON object')
    if (problems.length) return refuse(req, problems)
    const b = take()
    if (b?.hang) return 'hang'
    if (b?.status) {
      const answer = error(b.status, Number(b.code ?? 20500), b.message ?? 'Refused by the test')
      if (b.retryAfter) answer.headers = { 'retry-after': b.retryAfter }
      return answer
    }
    const now = new Date().toUTCString().replace('GMT', '+0000')
    const message: FakeTwilioMessage = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      account_sid: accountSid,
      to: String(form.To),
      from: String(form.From ?? ''),
      body: typeof form.Body === 'string' ? form.Body : `[template ${String(form.ContentSid)}]`,
      status: 'queued',
      direction: 'outbound-api',
      date_created: now,
      date_sent: now,
      error_code: null,
      statusCallback: typeof form.StatusCallback === 'string' ? form.StatusCallback : null,
      contentSid: typeof form.ContentSid === 'string' ? form.ContentSid : null,
      contentVariables: typeof form.ContentVariables === 'string' ? form.ContentVariables : null,
    }
    messages.push(message)
    acceptedTo.set(message.to, (acceptedTo.get(message.to) ?? 0) + 1)
    return { status: 201, body: resource(message) }
  }, port)

  /** The Content API's ApprovalRequests resource, for the account whose credentials came. */
  function approvalRequests(req: RecordedRequest, sid: string): Answer {
    const accountSid = Object.keys(accounts).find(
      (a) => req.headers.authorization === basic(a, accounts[a] ?? ''),
    )
    if (!accountSid) return error(401, 20003, 'Authenticate')
    if (req.method !== 'GET') return error(405, 20004, 'Method not allowed')
    if (!/^HX[0-9a-f]{32}$/.test(sid)) return error(400, 20001, 'Invalid Content SID')
    const approval = contentApprovals.get(sid)
    if (approval?.accountSid !== accountSid)
      return error(404, 20404, 'The requested resource was not found')
    return {
      status: 200,
      body: {
        sid,
        account_sid: accountSid,
        url: `https://content.twilio.com/v1/Content/${sid}/ApprovalRequests`,
        whatsapp: {
          type: 'whatsapp',
          name: `template_${sid.slice(-6)}`,
          category: 'UTILITY',
          content_type: 'twilio/text',
          status: approval.status,
          rejection_reason: approval.rejectionReason ?? '',
          allow_category_change: true,
        },
      },
    }
  }

  function listMessages(req: RecordedRequest, accountSid: string): Answer {
    const query = Object.fromEntries(req.query)
    const since = query['DateSent>']
    delete query['DateSent>']
    const problems = list.params({ path: { AccountSid: accountSid }, query })
    // The contract types DateSent as date-time, but its description and examples are GMT dates.
    if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since))
      problems.push('DateSent> must be a date, YYYY-MM-DD')
    if (problems.length) return refuse(req, problems)
    const found = messages
      .filter((m) => m.account_sid === accountSid && (!query.To || m.to === query.To))
      .filter((m) => !since || new Date(m.date_sent) >= new Date(`${since}T00:00:00Z`))
      .reverse()
    return {
      status: 200,
      body: { messages: found.map(resource), page: 0, page_size: 50, next_page_uri: null },
    }
  }

  return {
    ...fake,
    messages,
    acceptedTo,
    contentApprovals,
    async sendStatuses(sid, statuses, options = {}) {
      const message = messages.find((m) => m.sid === sid)
      if (!message?.statusCallback) throw new Error(`no status callback for ${sid}`)
      const token = accounts[message.account_sid] ?? ''
      const results: number[] = []
      for (const status of arrange(statuses, options.order)) {
        message.status = status
        const params: Record<string, string> = {
          AccountSid: message.account_sid,
          ApiVersion: '2010-04-01',
          From: message.from,
          MessageSid: sid,
          MessageStatus: status,
          SmsSid: sid,
          SmsStatus: status,
          To: message.to,
        }
        if ((status === 'failed' || status === 'undelivered') && options.errorCode)
          params.ErrorCode = String(options.errorCode)
        const signature = twilioSignature(message.statusCallback, params, token)
        results.push(
          await postCallback(message.statusCallback, new URLSearchParams(params).toString(), {
            'content-type': 'application/x-www-form-urlencoded',
            'x-twilio-signature': signature,
          }),
        )
      }
      return results
    },
    sendInbound: (url, m) => inbound(url, accounts[m.accountSid] ?? '', m),
  }
}

async function inbound(
  url: string,
  token: string,
  m: { accountSid: string; from: string; to: string; body: string },
): Promise<number> {
  const params: Record<string, string> = {
    AccountSid: m.accountSid,
    ApiVersion: '2010-04-01',
    Body: m.body,
    From: m.from,
    MessageSid: `SM${randomBytes(16).toString('hex')}`,
    NumMedia: '0',
    SmsStatus: 'received',
    To: m.to,
  }
  if (m.from.startsWith('whatsapp:')) params.WaId = m.from.replace(/\D/g, '')
  return postCallback(url, new URLSearchParams(params).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
    'x-twilio-signature': twilioSignature(url, params, token),
  })
}

function refuse(req: RecordedRequest, problems: string[]): Answer {
  req.refused = problems
  return error(400, 21604, `Invalid request: ${problems.slice(0, 5).join('; ')}`)
}

const basic = (user: string, pass: string) =>
  `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
  } catch {
    return false
  }
}

/** Twilio's Message resource as the API answers it. */
function resource(m: FakeTwilioMessage) {
  return {
    sid: m.sid,
    account_sid: m.account_sid,
    api_version: '2010-04-01',
    to: m.to,
    from: m.from,
    body: m.body,
    status: m.status,
    direction: m.direction,
    date_created: m.date_created,
    date_updated: m.date_created,
    date_sent: m.date_sent,
    error_code: m.error_code,
    error_message: null,
    num_segments: '1',
    num_media: '0',
    messaging_service_sid: null,
    price: null,
    price_unit: 'USD',
    uri: `/2010-04-01/Accounts/${m.account_sid}/Messages/${m.sid}.json`,
    subresource_uris: {},
  }
}
