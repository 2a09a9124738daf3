import type { MessageChannel, ProviderName } from '../../../shared/messaging'

/**
 * The one interface every messaging provider adapter implements (issue 25,
 * docs/decisions/025-messaging.md): Meta's WhatsApp Cloud API, Twilio (SMS and WhatsApp), the
 * DLT SMS provider (MSG91), SendGrid, SMTP and the sandbox. The send pipeline
 * (modules/messaging) knows only this; base URLs come from env so tests point them at fakes.
 */

/** A provider-approved template, for a WhatsApp message outside the 24-hour window or a DLT SMS. */
export interface TemplateRef {
  /** Meta's template name. */
  name?: string | undefined
  /** Twilio's Content SID (HX…), for WhatsApp through Twilio. */
  contentSid?: string | undefined
  /** e.g. 'en', 'hi', 'en_US'. */
  language: string
  /** Values of {{1}}, {{2}}… in order. */
  variables: string[]
  category: string
  /** India's DLT template id (SMS). */
  dltTemplateId?: string | undefined
  /**
   * The DLT-registered text with its {#var#} parts (SMS): when given, the DLT provider's adapter
   * refuses a text that does not match it (matchesDltTemplate) before paying for a rejection.
   */
  dltBody?: string | undefined
}

export interface OutboundMessage {
  channel: MessageChannel
  /** E.164 (+919876543210) for WhatsApp and SMS, an email address for email. */
  to: string
  /**
   * The communication's id: sent to the provider wherever it takes one (Meta's
   * biz_opaque_callback_data, the Twilio StatusCallback URL, SendGrid custom_args, the SMTP
   * Message-ID) so that a send whose answer was lost can be matched later, never resent.
   */
  idempotencyKey: string
  /** The rendered text (free-form WhatsApp, SMS, the email's text part). */
  text: string
  /** Email only. */
  subject?: string | undefined
  /** Set when the message must go as an approved template. */
  template?: TemplateRef | undefined
  /** Where the provider should post this message's status (Twilio), with the key in it. */
  statusCallbackUrl?: string | undefined
}

/** Words a receptionist understands, for the failures the rules know. */
export type FailureKind =
  | 'opted_out' // the person replied STOP (Twilio 21610): record an opt-out
  | 'outside_window' // WhatsApp free-form text outside 24 h (Meta 131047, Twilio 63016)
  | 'invalid_number'
  | 'rejected' // any other refusal by the provider (a 4xx): not retried
  | 'auth' // the provider refused our credentials: not retried
  | 'temporary' // network error, 429, 5xx: retried with backoff and jitter

export type SendResult =
  | {
      ok: true
      /** Twilio's SID, Meta's wamid, SendGrid's X-Message-Id, the SMTP Message-ID. */
      providerMessageId: string
      /** 'sent' when the provider accepted it; 'delivered' when it reports that at once (sandbox). */
      status: 'sent' | 'delivered'
      /** The provider's raw answer, for the Settings test buttons (no secrets). */
      detail?: string | undefined
    }
  | {
      ok: false
      kind: FailureKind
      /** The provider's own error code (e.g. '21610', '131047', 'HTTP 503'). */
      code: string
      /** Staff's words, no row data: shown in Communication History. */
      reason: string
      /** For 'temporary': when the provider asked us to come back (Retry-After). */
      retryAfterMs?: number | undefined
    }

/** What a look-up of an earlier send found (reconciling a crash between send and update). */
export type LookupResult =
  | { found: true; providerMessageId: string; status: 'sent' | 'delivered' | 'read' | 'failed' }
  | { found: false }
  /** The provider cannot look messages up: wait for its status callback instead. */
  | { found: 'unknown' }

export interface MessageProvider {
  readonly name: ProviderName
  readonly channel: MessageChannel
  send(message: OutboundMessage, signal: AbortSignal): Promise<SendResult>
  /**
   * Finds an earlier send of `idempotencyKey` to `to` made at or after `since`, where the
   * provider allows it (Twilio lists messages by recipient and date); else { found: 'unknown' }.
   */
  lookup(
    query: {
      idempotencyKey: string
      to: string
      since: Date
      /** The text sent, where the provider's record can only be matched by content (Twilio). */
      text?: string | undefined
    },
    signal: AbortSignal,
  ): Promise<LookupResult>
}
