import type { TemplateApprovalStatus } from '../../../shared/messaging'
import { AppError } from '../../http/app-error'

/**
 * Twilio's Content API: a Content template's WhatsApp approval
 * (GET https://content.twilio.com/v1/Content/{ContentSid}/ApprovalRequests, Basic auth by
 * account SID and auth token). Its answer carries `whatsapp.status` (received, pending,
 * approved, rejected, paused, disabled, unsubmitted) and `whatsapp.rejection_reason`.
 */

const TIMEOUT_MS = 15_000
export const TWILIO_CONTENT_URL = 'https://content.twilio.com'

export interface TwilioApproval {
  /** Ours; null for a template never submitted to WhatsApp. */
  status: TemplateApprovalStatus | null
  /** Twilio's own word, e.g. 'unsubmitted'. */
  twilioStatus: string
  rejectionReason: string | null
}

/** Twilio's WhatsApp approval statuses in ours (null: unknown or not submitted). */
export function twilioApprovalOf(status: string): TemplateApprovalStatus | null {
  switch (status.toLowerCase()) {
    case 'approved':
      return 'approved'
    case 'received':
    case 'pending':
      return 'pending'
    case 'rejected':
    case 'disabled':
      return 'rejected'
    case 'paused':
      return 'paused'
    default:
      return null
  }
}

/**
 * The WhatsApp approval of one Content template; null when Twilio does not know the SID (404).
 * A refused account or an unreachable API is a 502 naming Twilio, never the credentials.
 */
export async function fetchTwilioApproval(
  baseUrl: string,
  account: { accountSid: string; authToken: string },
  contentSid: string,
): Promise<TwilioApproval | null> {
  const url = `${baseUrl.replace(/\/+$/, '')}/v1/Content/${encodeURIComponent(contentSid)}/ApprovalRequests`
  const auth = Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')
  let res: Response
  try {
    res = await fetch(url, {
      headers: { authorization: `Basic ${auth}`, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch {
    throw new AppError('UPSTREAM', "Twilio API Error: Twilio's Content API could not be reached")
  }
  const body = (await res.json().catch(() => null)) as {
    whatsapp?: { status?: unknown; rejection_reason?: unknown } | null
    message?: unknown
    code?: unknown
  } | null
  if (res.status === 404) return null
  if (!res.ok) {
    const said =
      typeof body?.message === 'string' ? body.message.slice(0, 200) : `HTTP ${res.status}`
    const code = typeof body?.code === 'number' ? ` (${body.code})` : ''
    throw new AppError('UPSTREAM', `Twilio API Error: ${said}${code}`)
  }
  const wa = body?.whatsapp
  const twilioStatus = typeof wa?.status === 'string' ? wa.status : 'unsubmitted'
  const reason = typeof wa?.rejection_reason === 'string' ? wa.rejection_reason.trim() : ''
  return {
    status: twilioApprovalOf(twilioStatus),
    twilioStatus,
    rejectionReason: reason ? reason.slice(0, 300) : null,
  }
}
