import type { MessageChannel } from '../../../shared/messaging'

/**
 * Each channel's providers and their fields (issue 25). messaging_connections keeps them flat:
 * non-secret ones in `settings` and secret ones (encrypted) in `secrets`, both keyed
 * `<channel>.<field>` (whatsapp.accessToken, sms.authToken), so WhatsApp's and SMS's Twilio
 * accounts never mix. A secret's encryption context is `messaging:<hospital id>:<channel>.<field>`.
 */
export interface ProviderFields {
  /** Non-secret fields, shown and returned as they are. */
  settings: readonly string[]
  /** Secret fields: stored encrypted, answered only as { set, last4 }. */
  secrets: readonly string[]
  /** Fields without which the channel stays on the sandbox. */
  required: readonly string[]
}

export const providerFields = {
  whatsapp: {
    sandbox: { settings: [], secrets: [], required: [] },
    meta: {
      settings: ['phoneNumberId', 'businessAccountId'],
      secrets: ['accessToken', 'appSecret', 'verifyToken'],
      required: ['phoneNumberId', 'businessAccountId', 'accessToken', 'appSecret'],
    },
    twilio: {
      settings: ['accountSid', 'from'],
      secrets: ['authToken'],
      required: ['accountSid', 'authToken', 'from'],
    },
  },
  sms: {
    sandbox: { settings: [], secrets: [], required: [] },
    twilio: {
      settings: ['accountSid', 'from'],
      secrets: ['authToken'],
      required: ['accountSid', 'authToken', 'from'],
    },
    msg91: {
      settings: ['senderId', 'dltEntityId'],
      secrets: ['authKey'],
      required: ['authKey', 'senderId', 'dltEntityId'],
    },
  },
  email: {
    sandbox: { settings: ['fromEmail', 'fromName'], secrets: [], required: [] },
    smtp: {
      settings: ['preset', 'host', 'port', 'secure', 'user', 'fromEmail', 'fromName'],
      secrets: ['password'],
      required: ['host', 'port', 'fromEmail'],
    },
    sendgrid: {
      settings: ['fromEmail', 'fromName', 'webhookPublicKey'],
      secrets: ['apiKey'],
      required: ['apiKey', 'fromEmail'],
    },
  },
} as const satisfies Record<MessageChannel, Record<string, ProviderFields>>

export const storageKey = (channel: MessageChannel, field: string) => `${channel}.${field}`

/** Binds each ciphertext to its hospital, channel and field: it cannot be moved to another. */
export const secretContext = (hospitalId: string, channel: MessageChannel, field: string) =>
  `messaging:${hospitalId}:${channel}.${field}`

/** A provider's fields on a channel, or undefined for a provider the channel has not. */
export function fieldsOf(channel: MessageChannel, provider: string): ProviderFields | undefined {
  const byProvider: Record<string, ProviderFields> = providerFields[channel]
  return Object.hasOwn(byProvider, provider) ? byProvider[provider] : undefined
}
