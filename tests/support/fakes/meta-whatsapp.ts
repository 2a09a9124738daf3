import { randomBytes } from 'node:crypto'
import { appSecretProof } from '../../../src/server/integrations/meta/graph'
import { signMetaBody } from '../../../src/server/integrations/meta/signature'
import { operationValidator, schemaValidator } from './contract'
import {
  arrange,
  postCallback,
  startHttpFake,
  type Answer,
  type FakeHttp,
  type RecordedRequest,
} from './http-fake'

/**
 * A fake WhatsApp Cloud API: `POST /{Version}/{Phone-Number-ID}/messages`, each request checked
 * against Meta's official OpenAPI file (business-messaging-api_v23.0.yaml: the headers, and the
 * body against the Message schema its discriminator names for `type`, template components and
 * parameters likewise) and refused with Graph's error body (code 100) when off-contract. Status
 * webhooks carry biz_opaque_callback_data and are signed with X-Hub-Signature-256. The proof
 * calls of Settings' save (GET a number, GET a business account's numbers) answer as Graph does.
 */

const file = 'meta-whatsapp/business-messaging-api_v23.0.yaml' as const

export interface FakeMetaNumber {
  token: string
  appSecret: string
  wabaId: string
  displayPhoneNumber: string
}

export interface FakeMetaMessage {
  id: string
  phoneNumberId: string
  to: string
  body: Record<string, unknown>
  opaque: string | null
}

export interface FakeMetaWhatsapp extends FakeHttp {
  messages: FakeMetaMessage[]
  acceptedTo: Map<string, number>
  /** Posts status webhooks for a message to `webhookUrl`, signed; answers the status codes. */
  sendStatuses: (
    webhookUrl: string,
    wamid: string,
    statuses: ('sent' | 'delivered' | 'read' | 'failed')[],
    options?: { order?: 'in-order' | 'reversed' | 'twice'; errorCode?: number },
  ) => Promise<number[]>
  /** Posts an inbound text from `from` (digits) to the number, as Meta would, signed. */
  sendInbound: (
    webhookUrl: string,
    phoneNumberId: string,
    from: string,
    text: string,
  ) => Promise<number>
}

const graphError = (status: number, code: number, message: string, details?: string): Answer => ({
  status,
  body: {
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
      fbtrace_id: `A${randomBytes(8).toString('hex')}`,
    },
  },
})

export async function startFakeMetaWhatsapp(
  numbers: Record<string, FakeMetaNumber>,
  port = 0,
): Promise<FakeMetaWhatsapp> {
  const op = operationValidator(
    file,
    '/{Version}/{Phone-Number-ID}/messages',
    'post',
    'application/json',
  )
  const message = schemaValidator(file, 'Message')
  const component = schemaValidator(file, 'TemplateComponent')
  const parameter = schemaValidator(file, 'ParameterObject')
  const messages: FakeMetaMessage[] = []
  const acceptedTo = new Map<string, number>()

  const phoneOp = operationValidator(file, '/{Version}/{Phone-Number-ID}', 'get')
  const listOp = operationValidator(file, '/{Version}/{WABA-ID}/phone_numbers', 'get')

  /**
   * The proof calls (issue 39): GET /{phone-number-id} and GET /{waba-id}/phone_numbers with a
   * number's token, as Meta answers them: an unknown token is 190; a valid token of another
   * business gets Graph's code 100 "Unsupported get request"; a wrong appsecret_proof is code 100
   * "Invalid appsecret_proof provided in the API argument".
   */
  function proofAnswer(req: RecordedRequest): Answer | null {
    if (req.method !== 'GET') return null
    const one = /^\/(v\d{1,3}\.\d{1,2})\/([^/]+)$/.exec(req.path)
    const list = /^\/(v\d{1,3}\.\d{1,2})\/([^/]+)\/phone_numbers$/.exec(req.path)
    const match = one ?? list
    if (!match?.[1] || !match[2]) return null
    const id = decodeURIComponent(match[2])
    const query = Object.fromEntries(req.query)
    const header = { ...req.headers } as Record<string, string | undefined>
    const problems = one
      ? phoneOp.params({ path: { Version: match[1], 'Phone-Number-ID': id }, query, header })
      : listOp.params({ path: { Version: match[1], 'WABA-ID': id }, query, header })
    if (problems.length) return refuse(req, problems)
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    const holder = Object.values(numbers).find((n) => n.token === bearer)
    if (!holder)
      return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token')
    const proof = req.query.get('appsecret_proof')
    if (proof !== null && proof !== appSecretProof(holder.token, holder.appSecret))
      return graphError(400, 100, 'Invalid appsecret_proof provided in the API argument')
    const unsupported = graphError(
      400,
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    )
    if (one) {
      const number = numbers[id]
      if (!number || number.wabaId !== holder.wabaId) return unsupported
      return {
        status: 200,
        body: { id, display_phone_number: number.displayPhoneNumber, verified_name: 'Test Clinic' },
      }
    }
    if (id !== holder.wabaId) return unsupported
    const data = Object.entries(numbers)
      .filter(([, n]) => n.wabaId === id)
      .map(([phoneId, n]) => ({ id: phoneId, display_phone_number: n.displayPhoneNumber }))
    return { status: 200, body: { data, paging: { cursors: { before: 'QVFI', after: 'QVFJ' } } } }
  }

  const fake = await startHttpFake((req, take) => {
    const proofOutcome = proofAnswer(req)
    if (proofOutcome) return proofOutcome
    const match = /^\/(v\d{1,3}\.\d{1,2})\/([^/]+)\/messages$/.exec(req.path)
    if (!match?.[1] || !match[2] || req.method !== 'POST')
      return graphError(400, 100, 'Unsupported request: unknown path')
    const phoneNumberId = decodeURIComponent(match[2])
    const number = numbers[phoneNumberId]
    if (!number || req.headers.authorization !== `Bearer ${number.token}`)
      return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token')
    const headers = { ...req.headers } as Record<string, string | undefined>
    headers['content-type'] = headers['content-type']?.split(';')[0]
    const problems = op.params({
      path: { Version: match[1], 'Phone-Number-ID': phoneNumberId },
      header: headers,
    })
    let body: Record<string, unknown> = {}
    try {
      body = JSON.parse(req.raw) as Record<string, unknown>
    } catch {
      problems.push('the body is not JSON')
    }
    problems.push(...checkBody(body))
    if (problems.length) return refuse(req, problems)
    const b = take()
    if (b?.hang) return 'hang'
    if (b?.status) {
      const answer = graphError(
        b.status,
        Number(b.code ?? 131000),
        b.message ?? 'Refused by the test',
      )
      if (b.retryAfter) answer.headers = { 'retry-after': b.retryAfter }
      return answer
    }
    const to = String(body.to)
    const id = `wamid.${Buffer.from(randomBytes(24)).toString('base64url')}`
    const opaque =
      typeof body.biz_opaque_callback_data === 'string' ? body.biz_opaque_callback_data : null
    messages.push({ id, phoneNumberId, to, body, opaque })
    acceptedTo.set(to, (acceptedTo.get(to) ?? 0) + 1)
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id, message_status: 'accepted' }],
      },
    }
  }, port)

  /** The body against the contract; biz_opaque_callback_data is Meta's documented extra. */
  function checkBody(body: Record<string, unknown>): string[] {
    const { biz_opaque_callback_data: opaque, ...rest } = body
    const problems: string[] = []
    if (opaque !== undefined && (typeof opaque !== 'string' || opaque.length > 512))
      problems.push('/biz_opaque_callback_data must be a string of at most 512 characters')
    if (typeof rest.to === 'string' && !/^\d{8,15}$/.test(rest.to))
      problems.push('/to must be the number in digits with its country code')
    problems.push(...message(rest))
    const template = rest.template as { components?: unknown } | undefined
    if (rest.type === 'template' && Array.isArray(template?.components)) {
      for (const [i, c] of (template.components as Record<string, unknown>[]).entries()) {
        problems.push(...component(c).map((p) => `/template/components/${i}${p}`))
        const params = Array.isArray(c.parameters) ? (c.parameters as unknown[]) : []
        for (const [j, p] of params.entries())
          problems.push(...parameter(p).map((e) => `/template/components/${i}/parameters/${j}${e}`))
      }
    }
    return problems
  }

  return {
    ...fake,
    messages,
    acceptedTo,
    async sendStatuses(webhookUrl, wamid, statuses, options = {}) {
      const m = messages.find((x) => x.id === wamid)
      const number = m ? numbers[m.phoneNumberId] : undefined
      if (!m || !number) throw new Error(`unknown message ${wamid}`)
      const results: number[] = []
      for (const status of arrange(statuses, options.order)) {
        const entry = {
          id: wamid,
          status,
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: m.to,
          ...(m.opaque ? { biz_opaque_callback_data: m.opaque } : {}),
          ...(status === 'failed' ? { errors: [failure(options.errorCode ?? 131026)] } : {}),
        }
        results.push(await post(webhookUrl, m.phoneNumberId, number, { statuses: [entry] }))
      }
      return results
    },
    sendInbound(webhookUrl, phoneNumberId, from, text) {
      const number = numbers[phoneNumberId]
      if (!number) throw new Error(`unknown number ${phoneNumberId}`)
      return post(webhookUrl, phoneNumberId, number, {
        contacts: [{ profile: { name: 'Test Contact' }, wa_id: from }],
        messages: [
          {
            from,
            id: `wamid.${randomBytes(24).toString('base64url')}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body: text },
          },
        ],
      })
    },
  }
}

/** One signed webhook delivery of a `messages` change for a number. */
function post(
  webhookUrl: string,
  phoneNumberId: string,
  number: FakeMetaNumber,
  value: Record<string, unknown>,
): Promise<number> {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: number.displayPhoneNumber,
                phone_number_id: phoneNumberId,
              },
              ...value,
            },
          },
        ],
      },
    ],
  })
  return postCallback(webhookUrl, raw, {
    'content-type': 'application/json',
    'x-hub-signature-256': signMetaBody(raw, number.appSecret),
  })
}

function failure(code: number) {
  return {
    code,
    title: code === 131047 ? 'Re-engagement message' : 'Message undeliverable',
    message: code === 131047 ? 'Re-engagement message' : 'Message undeliverable',
    error_data: { details: 'Refused by the test' },
  }
}

function refuse(req: RecordedRequest, problems: string[]): Answer {
  req.refused = problems
  return graphError(400, 100, '(#100) Invalid parameter', problems.slice(0, 5).join('; '))
}
