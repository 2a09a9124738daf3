import { httpCall, unreachable } from '../messaging/http'
import type { MessageProvider, OutboundMessage } from '../messaging/provider'
import { metaFailure } from './meta-errors'

/**
 * Meta's WhatsApp Cloud API: `POST {graph}/{version}/{phone-number-id}/messages`, JSON,
 * `Authorization: Bearer <token>`. Free-form text inside the 24-hour window, otherwise an
 * approved template by name and language with the body's {{1}}… as text parameters. The
 * idempotency key goes as `biz_opaque_callback_data`, which Meta echoes in every status webhook
 * of the message. The Cloud API cannot list sent messages, so lookup() is 'unknown': an
 * ambiguous send is settled by that webhook, never by sending again.
 */
export interface MetaCredentials {
  phoneNumberId: string
  accessToken: string
}

/** Meta's limit on biz_opaque_callback_data. */
const OPAQUE_MAX = 512

export function whatsappCloudProvider(
  credentials: MetaCredentials,
  graphUrl: string,
  version: string,
): MessageProvider {
  const url = `${graphUrl.replace(/\/+$/, '')}/${version}/${encodeURIComponent(credentials.phoneNumberId)}/messages`
  return {
    name: 'meta',
    channel: 'whatsapp',
    async send(message, signal) {
      if (message.template && !message.template.name) {
        return {
          ok: false,
          kind: 'rejected',
          code: 'NO_TEMPLATE_NAME',
          reason:
            'This WhatsApp template has no Meta template name: add it in Settings → Templates.',
        }
      }
      const outcome = await httpCall(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${credentials.accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify(bodyFor(message)),
        },
        signal,
      )
      if ('unreachable' in outcome) return unreachable('WhatsApp', outcome.unreachable)
      const body = outcome.json as {
        messages?: { id?: unknown; message_status?: unknown }[]
      } | null
      const id = body?.messages?.[0]?.id
      if (outcome.status >= 200 && outcome.status < 300 && typeof id === 'string') {
        const status = body?.messages?.[0]?.message_status
        return {
          ok: true,
          providerMessageId: id,
          status: 'sent',
          detail: `WhatsApp accepted the message: ${id}${typeof status === 'string' ? ` (${status})` : ''}.`,
        }
      }
      return metaFailure(outcome)
    },
    async lookup(_query, signal) {
      signal.throwIfAborted()
      return { found: 'unknown' }
    },
  }
}

/** The messages body: text, or a template with its body parameters. */
export function bodyFor(message: OutboundMessage): Record<string, unknown> {
  const common = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    // Meta takes the number without '+': country code and number, digits only.
    to: message.to.replace(/\D/g, ''),
    biz_opaque_callback_data: message.idempotencyKey.slice(0, OPAQUE_MAX),
  }
  const t = message.template
  if (t?.name) {
    return {
      ...common,
      type: 'template',
      template: {
        name: t.name,
        language: { policy: 'deterministic', code: t.language },
        ...(t.variables.length
          ? {
              components: [
                { type: 'body', parameters: t.variables.map((text) => ({ type: 'text', text })) },
              ],
            }
          : {}),
      },
    }
  }
  return { ...common, type: 'text', text: { body: message.text, preview_url: false } }
}
