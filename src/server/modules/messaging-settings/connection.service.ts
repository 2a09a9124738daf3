import type { MessageChannel } from '../../../shared/messaging'
import type { Tx } from '../../db/client'
import { messagingConnections } from '../../db/schema/messaging'
import type {
  EmailConfig,
  MessagingConfig,
  SmsConfig,
  WhatsappConfig,
} from '../../integrations/messaging/config'
import { decryptSecret } from '../../secrets/secrets'
import { fieldsOf, secretContext, storageKey } from './fields'

export type ConnectionRow = typeof messagingConnections.$inferSelect

/** One channel's stored set-up with its secrets decrypted (in memory only). */
export interface ChannelValues {
  provider: string
  values: Record<string, string | number | boolean>
}

/** The hospital's messaging_connections row (RLS: its own), or undefined. */
export async function readConnectionRow(tx: Tx): Promise<ConnectionRow | undefined> {
  const [row] = await tx.select().from(messagingConnections)
  return row
}

/**
 * A channel's provider and fields from the row: settings as stored, secrets decrypted. Only the
 * current provider's fields are read; a field without a value is absent.
 */
export function channelValues(
  row: ConnectionRow | undefined,
  hospitalId: string,
  channel: MessageChannel,
): ChannelValues {
  const provider = row ? providerOf(row, channel) : 'sandbox'
  const fields = fieldsOf(channel, provider)
  const values: Record<string, string | number | boolean> = {}
  if (!row || !fields) return { provider: 'sandbox', values }
  for (const field of fields.settings) {
    const value = row.settings[storageKey(channel, field)]
    if (value !== undefined && value !== '') values[field] = value
  }
  for (const field of fields.secrets) {
    const stored = row.secrets[storageKey(channel, field)]
    if (stored) values[field] = decryptSecret(stored, secretContext(hospitalId, channel, field))
  }
  return { provider, values }
}

export function providerOf(row: ConnectionRow, channel: MessageChannel): string {
  if (channel === 'whatsapp') return row.whatsappProvider
  if (channel === 'sms') return row.smsProvider
  return row.emailProvider
}

function complete(channel: MessageChannel, c: ChannelValues): boolean {
  const fields = fieldsOf(channel, c.provider)
  return !!fields && fields.required.every((f) => c.values[f] !== undefined)
}

const str = (v: string | number | boolean | undefined) => (v === undefined ? '' : String(v))

/** A Twilio account's fields: the same for WhatsApp and SMS (each channel keeps its own). */
const twilioConfig = (v: ChannelValues['values']) => ({
  provider: 'twilio' as const,
  accountSid: str(v.accountSid),
  authToken: str(v.authToken),
  from: str(v.from),
})

function whatsappConfig(c: ChannelValues): WhatsappConfig {
  if (!complete('whatsapp', c)) return { provider: 'sandbox' }
  const v = c.values
  if (c.provider === 'meta') {
    return {
      provider: 'meta',
      phoneNumberId: str(v.phoneNumberId),
      businessAccountId: str(v.businessAccountId),
      accessToken: str(v.accessToken),
      appSecret: str(v.appSecret),
    }
  }
  if (c.provider === 'twilio') return twilioConfig(v)
  return { provider: 'sandbox' }
}

function smsConfig(c: ChannelValues): SmsConfig {
  if (!complete('sms', c)) return { provider: 'sandbox' }
  const v = c.values
  if (c.provider === 'twilio') return twilioConfig(v)
  if (c.provider === 'msg91') {
    return {
      provider: 'msg91',
      authKey: str(v.authKey),
      senderId: str(v.senderId),
      dltEntityId: str(v.dltEntityId),
    }
  }
  return { provider: 'sandbox' }
}

function emailConfig(c: ChannelValues): EmailConfig {
  const v = c.values
  const from = {
    fromEmail: v.fromEmail === undefined ? undefined : str(v.fromEmail),
    fromName: v.fromName === undefined ? undefined : str(v.fromName),
  }
  if (!complete('email', c)) return { provider: 'sandbox', ...from }
  if (c.provider === 'smtp') {
    return {
      provider: 'smtp',
      preset: str(v.preset) || 'custom',
      host: str(v.host),
      port: Number(v.port),
      secure: v.secure === true,
      user: str(v.user),
      password: str(v.password),
      fromEmail: str(v.fromEmail),
      fromName: str(v.fromName),
    }
  }
  if (c.provider === 'sendgrid') {
    return {
      provider: 'sendgrid',
      apiKey: str(v.apiKey),
      fromEmail: str(v.fromEmail),
      fromName: str(v.fromName),
      webhookPublicKey: v.webhookPublicKey === undefined ? undefined : str(v.webhookPublicKey),
    }
  }
  return { provider: 'sandbox', ...from }
}

/**
 * The hospital's messaging set-up with its secrets decrypted, inside its tenant transaction
 * (or a job's fenced one). A channel without a row, or whose provider is missing a required
 * field, is on the sandbox. Throws SecretDecryptError when a stored secret cannot be decrypted
 * (a lost key): never silently the sandbox for a hospital that set up a real provider.
 */
export async function readMessagingConfig(tx: Tx, hospitalId: string): Promise<MessagingConfig> {
  const row = await readConnectionRow(tx)
  return configFromRow(row, hospitalId)
}

export function configFromRow(row: ConnectionRow | undefined, hospitalId: string): MessagingConfig {
  return {
    hospitalId,
    whatsapp: whatsappConfig(channelValues(row, hospitalId, 'whatsapp')),
    sms: smsConfig(channelValues(row, hospitalId, 'sms')),
    email: emailConfig(channelValues(row, hospitalId, 'email')),
  }
}

/**
 * The Meta WhatsApp verify token (the webhook's hub.challenge handshake), which the sending
 * config does not carry; null when WhatsApp is not on Meta or no token is set.
 */
export async function readWhatsappVerifyToken(tx: Tx, hospitalId: string): Promise<string | null> {
  const c = channelValues(await readConnectionRow(tx), hospitalId, 'whatsapp')
  if (c.provider !== 'meta') return null
  const token = c.values.verifyToken
  return typeof token === 'string' && token ? token : null
}
