import { busy, httpCall, unreachable, type HttpAnswer, type SendFailure } from '../messaging/http'
import type { MessageProvider } from '../messaging/provider'

/**
 * SendGrid's Mail Send v3: `POST {SENDGRID_API_URL}/v3/mail/send`, `Authorization: Bearer
 * <API key>`, JSON. The idempotency key goes as the personalization's custom_args
 * `communicationId`, which SendGrid copies onto every event of that message (the event webhook
 * matches by it). 202 means accepted; the id is the X-Message-Id header. SendGrid cannot look a
 * message up by our key, so lookup() is 'unknown'.
 */
export interface SendGridCredentials {
  apiKey: string
  fromEmail: string
  fromName: string
}

export function sendgridProvider(
  credentials: SendGridCredentials,
  baseUrl: string,
): MessageProvider {
  const url = `${baseUrl.replace(/\/+$/, '')}/v3/mail/send`
  return {
    name: 'sendgrid',
    channel: 'email',
    async send(message, signal) {
      const body = {
        personalizations: [
          { to: [{ email: message.to }], custom_args: { communicationId: message.idempotencyKey } },
        ],
        from: { email: credentials.fromEmail, name: credentials.fromName },
        subject: message.subject?.trim() || `A message from ${credentials.fromName}`,
        content: [{ type: 'text/plain', value: message.text }],
      }
      const outcome = await httpCall(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${credentials.apiKey}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify(body),
        },
        signal,
      )
      if ('unreachable' in outcome) return unreachable('SendGrid', outcome.unreachable)
      if (outcome.status === 202 || outcome.status === 200) {
        const id = outcome.headers.get('x-message-id') ?? `sendgrid:${message.idempotencyKey}`
        return {
          ok: true,
          providerMessageId: id,
          status: 'sent',
          detail: `SendGrid accepted the email: ${id}.`,
        }
      }
      return sendgridFailure(outcome)
    },
    async lookup(_query, signal) {
      signal.throwIfAborted()
      return { found: 'unknown' }
    },
  }
}

/** SendGrid's error body: { errors: [{ message, field, help }] }. */
export function sendgridFailure(answer: HttpAnswer): SendFailure {
  const tag = `HTTP ${answer.status}`
  if (answer.status === 401 || answer.status === 403) {
    return {
      ok: false,
      kind: 'auth',
      code: tag,
      reason:
        answer.status === 403
          ? 'SendGrid refused this API key or sender (not allowed to send from this address): check Settings → Integrations.'
          : 'SendGrid refused the API key: check Settings → Integrations.',
    }
  }
  if (answer.status === 429 || answer.status >= 500) return busy('SendGrid', answer, tag)
  const first = ((answer.json ?? {}) as { errors?: { message?: unknown; field?: unknown }[] })
    .errors?.[0]
  const field = typeof first?.field === 'string' ? first.field : ''
  if (/^personalizations\.\d+\.to/.test(field)) {
    return {
      ok: false,
      kind: 'invalid_number',
      code: tag,
      reason: 'This email address is not valid.',
    }
  }
  const said = typeof first?.message === 'string' ? first.message.slice(0, 200) : ''
  return {
    ok: false,
    kind: 'rejected',
    code: tag,
    reason: said ? `SendGrid refused the email: ${said}` : `SendGrid refused the email (${tag}).`,
  }
}
