import type { SendResult } from '../messaging/provider'
import { busy, type HttpAnswer } from '../messaging/http'

/** Twilio's error body: { code, message, more_info, status }. */
interface TwilioError {
  code?: number
  message?: string
}

const PROVIDER = 'Twilio'

/**
 * A refused Twilio request in the few kinds the send rules know, with words a receptionist
 * understands. Twilio's own message is not kept: it can repeat the phone number.
 */
export function twilioFailure(answer: HttpAnswer): SendResult {
  const body = (answer.json ?? {}) as TwilioError
  const code = typeof body.code === 'number' ? body.code : undefined
  const tag = code === undefined ? `HTTP ${answer.status}` : String(code)
  if (code === 21610) {
    return {
      ok: false,
      kind: 'opted_out',
      code: tag,
      reason: 'This contact replied STOP to our number, so Twilio will not deliver to them.',
    }
  }
  if (code === 63016) {
    return {
      ok: false,
      kind: 'outside_window',
      code: tag,
      reason:
        'No WhatsApp message from this contact in the last 24 hours: send an approved template instead.',
    }
  }
  if (code === 21211 || code === 21614) {
    return {
      ok: false,
      kind: 'invalid_number',
      code: tag,
      reason:
        code === 21614
          ? 'This number cannot receive text messages (it is not a mobile number).'
          : 'This phone number is not valid.',
    }
  }
  if (code === 20003 || answer.status === 401) {
    return {
      ok: false,
      kind: 'auth',
      code: tag,
      reason: 'Twilio refused the account SID or auth token: check Settings → Integrations.',
    }
  }
  if (code === 20429 || answer.status === 429 || answer.status >= 500)
    return busy(PROVIDER, answer, tag)
  return {
    ok: false,
    kind: 'rejected',
    code: tag,
    reason: `Twilio refused the message (error ${tag}).`,
  }
}

/** Twilio's message status as a look-up result's. */
export function lookupStatus(status: unknown): 'sent' | 'delivered' | 'read' | 'failed' {
  switch (status) {
    case 'delivered':
      return 'delivered'
    case 'read':
      return 'read'
    case 'failed':
    case 'undelivered':
    case 'canceled':
      return 'failed'
    default:
      return 'sent'
  }
}
