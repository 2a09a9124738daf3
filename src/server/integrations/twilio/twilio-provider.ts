import type { MessageChannel } from '../../../shared/messaging'
import { basicAuth, httpCall, unreachable } from '../messaging/http'
import type {
  LookupResult,
  MessageProvider,
  OutboundMessage,
  SendResult,
} from '../messaging/provider'
import { lookupStatus, twilioFailure } from './twilio-errors'

/**
 * Twilio's Programmable Messaging for SMS and WhatsApp: CreateMessage,
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded, Basic auth
 * (AccountSid:AuthToken). WhatsApp addresses are `whatsapp:+91…`; a WhatsApp template goes by
 * ContentSid with ContentVariables ({"1":"Asha"}).
 *
 * The idempotency key travels in the StatusCallback URL (`?c=<key>`), so status callbacks
 * name the communication. Twilio's Message resource does not echo the callback URL, so a
 * look-up (ListMessage by To and DateSent>=) matches on what it does echo: the recipient, the
 * text and a creation time at or after the send began. Two identical texts to one person within
 * that window cannot be told apart; the earlier one is taken, which at worst marks a lost
 * message as sent rather than sending a duplicate.
 */
export interface TwilioCredentials {
  accountSid: string
  authToken: string
  /** E.164 sender (or an SMS alphanumeric id). */
  from: string
}

/** Pages of ListMessage a look-up reads at most (50 messages a page, newest first). */
const LOOKUP_PAGES = 5
/** Twilio's clock against ours: a message created this much before `since` still matches. */
const CLOCK_SKEW_MS = 60_000

export function twilioProvider(
  channel: Extract<MessageChannel, 'sms' | 'whatsapp'>,
  credentials: TwilioCredentials,
  baseUrl: string,
): MessageProvider {
  const base = baseUrl.replace(/\/+$/, '')
  const account = `${base}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}`
  const address = (e164: string) => (channel === 'whatsapp' ? `whatsapp:${e164}` : e164)
  const headers = {
    authorization: basicAuth(credentials.accountSid, credentials.authToken),
    accept: 'application/json',
  }

  return {
    name: 'twilio',
    channel,
    async send(message, signal) {
      const form = formFor(message)
      if ('refused' in form) return form.refused
      const outcome = await httpCall(
        `${account}/Messages.json`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: form.params.toString(),
        },
        signal,
      )
      if ('unreachable' in outcome) return unreachable('Twilio', outcome.unreachable)
      const body = outcome.json as { sid?: unknown; status?: unknown } | null
      if (outcome.status >= 200 && outcome.status < 300 && typeof body?.sid === 'string') {
        return {
          ok: true,
          providerMessageId: body.sid,
          status: 'sent',
          detail: `Twilio accepted the message: ${body.sid} (${String(body.status ?? 'queued')}).`,
        }
      }
      return twilioFailure(outcome)
    },

    async lookup(query, signal): Promise<LookupResult> {
      const params = new URLSearchParams({
        To: address(query.to),
        // Twilio's documented filter is a GMT date: DateSent>=YYYY-MM-DD.
        'DateSent>': new Date(query.since.getTime() - CLOCK_SKEW_MS).toISOString().slice(0, 10),
        PageSize: '50',
      })
      let url: string | null = `${account}/Messages.json?${params.toString()}`
      const earliest = query.since.getTime() - CLOCK_SKEW_MS
      let match: { sid: string; status: unknown; created: number } | null = null
      for (let page = 0; url && page < LOOKUP_PAGES; page++) {
        const outcome = await httpCall(url, { method: 'GET', headers }, signal)
        if ('unreachable' in outcome) throw new Error(`Twilio unreachable (${outcome.unreachable})`)
        if (outcome.status !== 200) {
          const failure = twilioFailure(outcome)
          if (!failure.ok && failure.kind === 'temporary')
            throw new Error(`Twilio look-up failed (${failure.code})`)
          return { found: 'unknown' }
        }
        const list = outcome.json as { messages?: unknown; next_page_uri?: unknown } | null
        for (const m of Array.isArray(list?.messages) ? (list.messages as TwilioMessage[]) : []) {
          const created = Date.parse(m.date_created ?? '')
          if (m.to !== address(query.to) || !(created >= earliest)) continue
          if (m.direction && !m.direction.startsWith('outbound')) continue
          if (query.text !== undefined && m.body !== query.text) continue
          if (typeof m.sid !== 'string') continue
          if (!match || created < match.created) match = { sid: m.sid, status: m.status, created }
        }
        const next = list?.next_page_uri
        url = typeof next === 'string' && next.startsWith('/') ? `${base}${next}` : null
      }
      if (!match) return { found: false }
      return { found: true, providerMessageId: match.sid, status: lookupStatus(match.status) }
    },
  }

  function formFor(
    message: OutboundMessage,
  ): { params: URLSearchParams } | { refused: SendResult } {
    const params = new URLSearchParams({ To: address(message.to), From: address(credentials.from) })
    const template = message.template
    if (channel === 'whatsapp' && template) {
      if (!template.contentSid) {
        return {
          refused: {
            ok: false,
            kind: 'rejected',
            code: 'NO_CONTENT_SID',
            reason:
              'This WhatsApp template has no Twilio Content SID: add it in Settings → Templates.',
          },
        }
      }
      params.set('ContentSid', template.contentSid)
      const variables = Object.fromEntries(template.variables.map((v, i) => [String(i + 1), v]))
      params.set('ContentVariables', JSON.stringify(variables))
    } else {
      params.set('Body', message.text)
    }
    if (message.statusCallbackUrl) params.set('StatusCallback', withKey(message))
    return { params }
  }
}

interface TwilioMessage {
  sid?: string
  to?: string
  body?: string
  status?: string
  direction?: string
  date_created?: string
}

/** The status callback URL with the idempotency key as `c` (kept when the caller set it). */
function withKey(message: OutboundMessage): string {
  const url = new URL(message.statusCallbackUrl ?? '')
  if (!url.searchParams.has('c')) url.searchParams.set('c', message.idempotencyKey)
  return url.toString()
}
