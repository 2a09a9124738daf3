import { generateKeyPairSync, randomBytes, sign } from 'node:crypto'
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
 * A fake SendGrid Mail Send v3 (`POST /v3/mail/send`): the body checked against SendGrid's
 * official OpenAPI file (tsg_mail_v3.json) and refused with its error body
 * ({ errors: [{ message, field, help }] }) when off-contract; Bearer API keys; 202 with
 * X-Message-Id. Its event webhook posts are signed like SendGrid's (ECDSA P-256 over the
 * timestamp and the body); `publicKey` is the verification key to configure.
 */

export interface FakeSendGridMail {
  id: string
  to: string[]
  from: string
  subject: string
  text: string
  customArgs: Record<string, string>
}

export type SendGridEvent = 'processed' | 'delivered' | 'open' | 'bounce' | 'dropped' | 'deferred'

export interface FakeSendGrid extends FakeHttp {
  mails: FakeSendGridMail[]
  acceptedTo: Map<string, number>
  /** Base64 DER (SubjectPublicKeyInfo) of the event-signing key, as SendGrid shows it. */
  publicKey: string
  /** Posts events of a mail (each a batch of one) to webhookUrl, signed; answers statuses. */
  sendEvents: (
    webhookUrl: string,
    mailId: string,
    events: SendGridEvent[],
    options?: { order?: 'in-order' | 'reversed' | 'twice'; signed?: boolean },
  ) => Promise<number[]>
}

const errors = (status: number, message: string, field: string | null = null): Answer => ({
  status,
  body: { errors: [{ message, field, help: null }] },
})

export async function startFakeSendGrid(apiKeys: string[], port = 0): Promise<FakeSendGrid> {
  const op = operationValidator('sendgrid/tsg_mail_v3.json', '/v3/mail/send', 'post')
  const mails: FakeSendGridMail[] = []
  const acceptedTo = new Map<string, number>()
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })

  const fake = await startHttpFake((req, take) => {
    if (req.path !== '/v3/mail/send' || req.method !== 'POST') return errors(404, 'Not found')
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')
    if (!auth?.[1] || !apiKeys.includes(auth[1]))
      return errors(401, 'The provided authorization grant is invalid, expired, or revoked')
    if (!req.headers['content-type']?.startsWith('application/json'))
      return refuse(req, ['Content-Type should be application/json.'])
    let body: Record<string, unknown>
    try {
      body = JSON.parse(req.raw) as Record<string, unknown>
    } catch {
      return refuse(req, ['The request body could not be parsed as JSON.'])
    }
    const problems = op.body(body)
    const p = (body.personalizations ?? []) as {
      to?: { email?: string }[]
      custom_args?: Record<string, string>
    }[]
    if (!Array.isArray(p) || p.length === 0)
      problems.push('/personalizations must have at least one item')
    if (problems.length) return refuse(req, problems)
    const b = take()
    if (b?.hang) return 'hang'
    if (b?.status) {
      const answer = errors(
        b.status,
        b.message ?? 'Refused by the test',
        typeof b.code === 'string' ? b.code : null,
      )
      if (b.retryAfter) answer.headers = { 'retry-after': b.retryAfter }
      return answer
    }
    const id = randomBytes(11).toString('base64url')
    const to = p.flatMap((x) => (x.to ?? []).map((t) => t.email ?? ''))
    const content = (body.content ?? []) as { type: string; value: string }[]
    mails.push({
      id,
      to,
      from: (body.from as { email: string }).email,
      subject: typeof body.subject === 'string' ? body.subject : '',
      text: content.find((c) => c.type === 'text/plain')?.value ?? '',
      customArgs: p[0]?.custom_args ?? {},
    })
    for (const t of to) acceptedTo.set(t, (acceptedTo.get(t) ?? 0) + 1)
    return { status: 202, headers: { 'x-message-id': id } }
  }, port)

  return {
    ...fake,
    mails,
    acceptedTo,
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    async sendEvents(webhookUrl, mailId, events, options = {}) {
      const mail = mails.find((m) => m.id === mailId)
      if (!mail) throw new Error(`unknown mail ${mailId}`)
      const results: number[] = []
      for (const event of arrange(events, options.order)) {
        // SendGrid copies a message's custom_args onto each event as top-level fields.
        const raw = JSON.stringify([
          {
            email: mail.to[0],
            timestamp: Math.floor(Date.now() / 1000),
            event,
            sg_event_id: randomBytes(16).toString('base64url'),
            sg_message_id: `${mail.id}.filter0001.1234.0`,
            ...mail.customArgs,
          },
        ])
        const timestamp = String(Math.floor(Date.now() / 1000))
        const headers: Record<string, string> = { 'content-type': 'application/json' }
        if (options.signed !== false) {
          headers['x-twilio-email-event-webhook-timestamp'] = timestamp
          headers['x-twilio-email-event-webhook-signature'] = sign(
            'sha256',
            Buffer.from(timestamp + raw),
            privateKey,
          ).toString('base64')
        }
        results.push(await postCallback(webhookUrl, raw, headers))
      }
      return results
    },
  }
}

function refuse(req: RecordedRequest, problems: string[]): Answer {
  req.refused = problems
  const first = problems[0] ?? 'invalid request'
  const field = /^\/(\S+)/.exec(first)?.[1]?.replace(/\//g, '.') ?? null
  return errors(400, first, field)
}
