import type { MessageChannel } from '@/shared/messaging'
import type { MessagingSettings, SaveChannelConnection } from './types'

/** One setting of a provider: shown as typed, or (secret) write-only with a "set ••••1234" hint. */
export interface ProviderField {
  name: string
  label: string
  secret?: boolean
  type?: 'text' | 'number' | 'email' | 'checkbox'
  hint?: string
}

export interface ProviderChoice {
  provider: string
  label: string
  fields: readonly ProviderField[]
}

const sandbox: ProviderChoice = {
  provider: 'sandbox',
  label: 'Sandbox (no credentials)',
  fields: [],
}

/** Every channel's providers and their fields (the settings contract's names). */
export const providerChoices: Record<MessageChannel, readonly ProviderChoice[]> = {
  whatsapp: [
    sandbox,
    {
      provider: 'meta',
      label: 'Meta Cloud API',
      fields: [
        { name: 'phoneNumberId', label: 'Phone number ID' },
        { name: 'businessAccountId', label: 'WhatsApp Business Account ID' },
        { name: 'accessToken', label: 'Access token', secret: true },
        { name: 'appSecret', label: 'Meta app secret', secret: true },
        { name: 'verifyToken', label: 'Verify token', secret: true },
      ],
    },
    {
      provider: 'twilio',
      label: 'Twilio',
      fields: [
        { name: 'accountSid', label: 'Account SID' },
        { name: 'authToken', label: 'Auth token', secret: true },
        { name: 'from', label: 'WhatsApp sender', hint: 'E.g. whatsapp:+14155238886' },
      ],
    },
  ],
  sms: [
    sandbox,
    {
      provider: 'twilio',
      label: 'Twilio',
      fields: [
        { name: 'accountSid', label: 'Account SID' },
        { name: 'authToken', label: 'Auth token', secret: true },
        { name: 'from', label: 'From number' },
      ],
    },
    {
      provider: 'msg91',
      label: 'MSG91 (DLT)',
      fields: [
        { name: 'authKey', label: 'Auth key', secret: true },
        { name: 'senderId', label: 'Sender ID (header)' },
        { name: 'dltEntityId', label: 'DLT entity ID' },
      ],
    },
  ],
  email: [
    sandbox,
    {
      provider: 'smtp',
      label: 'SMTP',
      fields: [
        { name: 'host', label: 'SMTP host' },
        { name: 'port', label: 'SMTP port', type: 'number' },
        { name: 'secure', label: 'Use TLS from the start (port 465)', type: 'checkbox' },
        { name: 'user', label: 'SMTP user' },
        { name: 'password', label: 'SMTP password', secret: true },
        { name: 'fromEmail', label: 'From email', type: 'email' },
        { name: 'fromName', label: 'From name' },
      ],
    },
    {
      provider: 'sendgrid',
      label: 'SendGrid',
      fields: [
        { name: 'apiKey', label: 'SendGrid API key', secret: true },
        { name: 'fromEmail', label: 'From email', type: 'email' },
        { name: 'fromName', label: 'From name' },
        { name: 'webhookPublicKey', label: 'Event webhook verification key' },
      ],
    },
  ],
}

/** SMTP presets: picking one fills host and port. */
export const smtpPresets = {
  custom: { label: 'SMTP', host: '', port: 587 },
  mailgun: { label: 'Mailgun', host: 'smtp.mailgun.org', port: 587 },
  ses: { label: 'Amazon SES', host: 'email-smtp.ap-south-1.amazonaws.com', port: 587 },
} as const
export type SmtpPreset = keyof typeof smtpPresets

/** One channel's form: the provider, its settings as typed, and secrets typed anew. */
export interface ChannelForm {
  provider: string
  values: Record<string, string | boolean>
}

export function choiceOf(channel: MessageChannel, provider: string): ProviderChoice {
  return providerChoices[channel].find((c) => c.provider === provider) ?? sandbox
}

/** The form as the stored settings show it (secrets start empty: typed only to replace). */
export function formOf(saved: MessagingSettings, channel: MessageChannel): ChannelForm {
  const conn = saved[channel]
  const values: Record<string, string | boolean> = {}
  for (const [k, v] of Object.entries(conn.settings))
    values[k] = typeof v === 'boolean' ? v : v === null ? '' : String(v)
  return { provider: conn.provider, values }
}

/**
 * PUT's body for a channel: the chosen provider's settings (numbers as numbers) and only the
 * secrets typed anew (an empty box keeps the stored one).
 */
export function payloadOf(channel: MessageChannel, form: ChannelForm): SaveChannelConnection {
  const settings: SaveChannelConnection['settings'] = {}
  const secrets: SaveChannelConnection['secrets'] = {}
  const choice = choiceOf(channel, form.provider)
  if (form.provider === 'smtp' && typeof form.values.preset === 'string')
    settings.preset = form.values.preset || 'custom'
  for (const field of choice.fields) {
    const value = form.values[field.name]
    if (field.type === 'checkbox') settings[field.name] = value === true
    else if (typeof value !== 'string' || !value.trim()) continue
    else if (field.secret) secrets[field.name] = value.trim()
    else if (field.type === 'number') settings[field.name] = Number(value)
    else settings[field.name] = value.trim()
  }
  return { provider: form.provider, settings, secrets }
}

/** A stored secret in words: never the value, only that it is set and how it ends. */
export function secretHintText(hint: { set: boolean; last4: string | null } | undefined): string {
  if (!hint?.set) return 'not set'
  return hint.last4 ? `set ••••${hint.last4}` : 'set'
}
