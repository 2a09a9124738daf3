import { matchesDltTemplate, smsParts } from '../../../shared/message-text'
import { busy, httpCall, unreachable, type HttpAnswer, type SendFailure } from '../messaging/http'
import type { MessageProvider, OutboundMessage, SendResult } from '../messaging/provider'

/**
 * MSG91, the Indian DLT SMS provider, through its classic public Send SMS API:
 * `POST {MSG91_API_URL}/api/sendhttp.php`, form-encoded, with `authkey` (in the body, never the
 * URL), `mobiles` (91XXXXXXXXXX), `message` (the full text), `sender` (the DLT header), `route`
 * (4 transactional/service, 1 promotional), `country=91`, `unicode=1` for UCS-2 text,
 * `DLT_TE_ID` (the DLT template id) and `response=json`. Chosen over the v5 Flow API because it
 * sends the text itself, which we have already checked against the registered template, rather
 * than a template kept on MSG91's side. The principal entity id goes as `PE_ID` on every request
 * too (MSG91 also binds it to the account's DLT registration).
 *
 * A text that does not match the registered template is refused here, before any call: the
 * operators' DLT scrubbing would reject it anyway (a 600-series code) after charging for it.
 * MSG91 offers no look-up by our key, so lookup() is 'unknown'.
 */
export interface Msg91Credentials {
  authKey: string
  senderId: string
  dltEntityId: string
}

export function msg91Provider(credentials: Msg91Credentials, baseUrl: string): MessageProvider {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/sendhttp.php`
  return {
    name: 'msg91',
    channel: 'sms',
    async send(message, signal) {
      const refused = precheck(message)
      if (refused) return refused
      const form = new URLSearchParams({
        authkey: credentials.authKey,
        mobiles: message.to.replace(/\D/g, ''),
        message: message.text,
        sender: credentials.senderId,
        route: message.template?.category === 'promotional' ? '1' : '4',
        country: '91',
        DLT_TE_ID: message.template?.dltTemplateId ?? '',
        PE_ID: credentials.dltEntityId,
        response: 'json',
      })
      if (smsParts(message.text).encoding === 'UCS-2') form.set('unicode', '1')
      const outcome = await httpCall(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form.toString(),
        },
        signal,
      )
      if ('unreachable' in outcome) return unreachable('MSG91', outcome.unreachable)
      const body = outcome.json as { type?: unknown; message?: unknown; code?: unknown } | null
      if (outcome.status === 200 && body?.type === 'success' && typeof body.message === 'string') {
        return {
          ok: true,
          providerMessageId: body.message,
          status: 'sent',
          detail: `MSG91 accepted the message: request ${body.message}.`,
        }
      }
      return msg91Failure(outcome)
    },
    async lookup(_query, signal) {
      signal.throwIfAborted()
      return { found: 'unknown' }
    },
  }
}

/** India's DLT rules, checked before paying for a rejection. */
function precheck(message: OutboundMessage): SendFailure | null {
  const t = message.template
  if (!t?.dltTemplateId) {
    return {
      ok: false,
      kind: 'rejected',
      code: 'NO_DLT_TEMPLATE',
      reason:
        'SMS in India must use a DLT-registered template: choose a template that has its DLT template id.',
    }
  }
  if (t.dltBody !== undefined && !matchesDltTemplate(t.dltBody, message.text)) {
    return {
      ok: false,
      kind: 'rejected',
      code: 'DLT_MISMATCH',
      reason:
        'The text differs from the DLT-registered template: only its {#var#} parts may change.',
    }
  }
  return null
}

/** MSG91's codes: 207/418 (auth key, IP), 202 (number), 6xx (DLT scrubbing), others. */
export function msg91Failure(answer: HttpAnswer): SendResult {
  const body = (answer.json ?? {}) as { code?: unknown; message?: unknown }
  const raw =
    typeof body.code === 'string' || typeof body.code === 'number' ? String(body.code) : ''
  const tag = raw || `HTTP ${answer.status}`
  const text = typeof body.message === 'string' ? body.message.toLowerCase() : ''
  if (raw === '207' || raw === '418' || answer.status === 401 || text.includes('authentication')) {
    return {
      ok: false,
      kind: 'auth',
      code: tag,
      reason: 'MSG91 refused the auth key (or this server’s IP): check Settings → Integrations.',
    }
  }
  if (raw === '202') {
    return {
      ok: false,
      kind: 'invalid_number',
      code: tag,
      reason: 'This mobile number is not valid.',
    }
  }
  if (/^6\d\d$/.test(raw)) {
    return {
      ok: false,
      kind: 'rejected',
      code: tag,
      reason: `The operator refused it under India's DLT rules (code ${raw}): check the sender header, the template id and that the text matches the registered template.`,
    }
  }
  if (raw === '301') {
    return {
      ok: false,
      kind: 'rejected',
      code: tag,
      reason: 'The MSG91 account has no SMS balance left.',
    }
  }
  if (answer.status === 429 || answer.status >= 500) return busy('MSG91', answer, tag)
  return {
    ok: false,
    kind: 'rejected',
    code: tag,
    reason: `MSG91 refused the message (error ${tag}).`,
  }
}
