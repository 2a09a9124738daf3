import type { FailureKind, SendResult } from '../messaging/provider'
import { busy, type HttpAnswer } from '../messaging/http'

/** Graph's error body: { error: { message, type, code, error_subcode, error_data, fbtrace_id } }. */
interface GraphError {
  error?: { code?: number; error_subcode?: number; message?: string }
}

/**
 * The kind of a WhatsApp Cloud API error code, for a send's answer and for a `failed` status
 * webhook's errors[].code alike (Meta reports many refusals only in the status webhook).
 */
export function metaErrorKind(code: number | undefined, httpStatus?: number): FailureKind {
  if (code === 131047) return 'outside_window'
  if (code === 131026 || code === 131030) return 'invalid_number'
  if (code === 190 || httpStatus === 401) return 'auth'
  if (code === 130429 || code === 131056 || code === 131000 || code === 4 || code === 80007)
    return 'temporary'
  if (httpStatus === 429 || (httpStatus !== undefined && httpStatus >= 500)) return 'temporary'
  return 'rejected'
}

/** Staff's words for a kind (no row data, no provider text that might repeat the number). */
export function metaReason(kind: FailureKind, code: string): string {
  switch (kind) {
    case 'outside_window':
      return 'No WhatsApp message from this contact in the last 24 hours: send an approved template instead.'
    case 'invalid_number':
      return code === '131030'
        ? 'This number is not in the allowed test recipients of the WhatsApp number.'
        : 'This number is not on WhatsApp or cannot receive messages.'
    case 'auth':
      return 'Meta refused the WhatsApp access token: check Settings → Integrations.'
    case 'temporary':
      return 'WhatsApp is busy or unavailable; the message will be retried.'
    case 'opted_out':
      return 'This contact has opted out of WhatsApp messages.'
    case 'rejected':
      return `WhatsApp refused the message (error ${code}).`
  }
}

export function metaFailure(answer: HttpAnswer): SendResult {
  const body = (answer.json ?? {}) as GraphError
  const code = typeof body.error?.code === 'number' ? body.error.code : undefined
  const tag = code === undefined ? `HTTP ${answer.status}` : String(code)
  const kind = metaErrorKind(code, answer.status)
  if (kind === 'temporary')
    return { ...busy('WhatsApp', answer, tag), reason: metaReason(kind, tag) }
  return { ok: false, kind, code: tag, reason: metaReason(kind, tag) }
}
