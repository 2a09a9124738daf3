import { z } from 'zod'
import { messageChannels } from '../messaging'
import { normalizePhone } from '../phone'
import { secretHintSchema } from './meta'

/*
 * Settings → Integrations, messaging part (issue 25): each channel's provider and its fields.
 * Secrets are written as plain strings and only ever read back as { set, last4 }. Templates are
 * in messaging-templates.ts; notifications, reminders and the Sandbox Outbox in
 * messaging-reminders.ts.
 */

/** A secret field of the PUT: absent or '' keeps the stored one. */
function secret(label: string) {
  return (
    z
      .string({ message: `${label} must be text` })
      .trim()
      .max(2048, { message: `${label} is too long` })
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      .refine((v) => !/[\s\u0000-\u001f\u007f]/.test(v), {
        message: `${label} must not contain spaces or control characters`,
      })
      .optional()
  )
}

/** A non-secret text setting: '' (or absent) leaves it empty. */
function text(label: string, max: number, pattern?: RegExp, message?: string) {
  const base = z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
  return (
    pattern
      ? base.refine((v) => v === '' || pattern.test(v), { message: message ?? `Invalid ${label}` })
      : base
  ).optional()
}

/** A sender number: normalised to E.164 ('+14155238886'); '' leaves it empty. */
const e164 = (label: string) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(32, { message: `${label} is too long` })
    .transform((v, ctx) => {
      if (v === '') return v
      const n = normalizePhone(v)
      if (!n) {
        ctx.addIssue({
          code: 'custom',
          message: `${label} must be a phone number with its country code, e.g. +14155238886`,
        })
        return z.NEVER
      }
      return n
    })
    .optional()

const email = (label: string) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(254, { message: `${label} is too long` })
    .transform((v) => v.toLowerCase())
    .refine((v) => v === '' || z.email().safeParse(v).success, {
      message: `${label} must be a valid email address`,
    })
    .optional()

const digits = /^\d{5,40}$/
const twilioSid = /^AC[0-9a-fA-F]{32}$/
const twilioSidMessage = 'Account SID starts with AC followed by 32 letters and digits'

const twilioFields = {
  settings: z
    .strictObject({
      accountSid: text('Account SID', 34, twilioSid, twilioSidMessage),
      from: e164('Sender'),
    })
    .default({}),
  secrets: z.strictObject({ authToken: secret('Auth token') }).default({}),
}

const sandbox = z.strictObject({
  provider: z.literal('sandbox'),
  settings: z.strictObject({}).default({}),
  secrets: z.strictObject({}).default({}),
})

export const whatsappConnectionInput = z.discriminatedUnion(
  'provider',
  [
    sandbox,
    z.strictObject({
      provider: z.literal('meta'),
      settings: z
        .strictObject({
          phoneNumberId: text(
            'Phone number ID',
            40,
            digits,
            'Phone number ID must be the numeric ID from WhatsApp Manager',
          ),
          businessAccountId: text(
            'WhatsApp Business Account ID',
            40,
            digits,
            'WhatsApp Business Account ID must be numeric',
          ),
        })
        .default({}),
      secrets: z
        .strictObject({
          accessToken: secret('Access token'),
          appSecret: secret('App secret'),
          verifyToken: secret('Verify token').refine((v) => !v || v.length >= 16, {
            message: 'Verify token must be at least 16 characters (use a long random value)',
          }),
        })
        .default({}),
    }),
    z.strictObject({ provider: z.literal('twilio'), ...twilioFields }),
  ],
  { message: 'WhatsApp provider must be sandbox, meta or twilio' },
)

export const smsConnectionInput = z.discriminatedUnion(
  'provider',
  [
    sandbox,
    z.strictObject({ provider: z.literal('twilio'), ...twilioFields }),
    z.strictObject({
      provider: z.literal('msg91'),
      settings: z
        .strictObject({
          senderId: z
            .string({ message: 'Sender ID must be text' })
            .trim()
            .refine((v) => v === '' || /^[A-Za-z]{6}$/.test(v), {
              message: 'Sender ID (DLT header) must be exactly 6 letters, e.g. ARGYCL',
            })
            .transform((v) => v.toUpperCase())
            .optional(),
          dltEntityId: text(
            'DLT entity ID',
            25,
            /^\d{10,25}$/,
            'DLT entity ID must be 10 to 25 digits',
          ),
        })
        .default({}),
      secrets: z.strictObject({ authKey: secret('Auth key') }).default({}),
    }),
  ],
  { message: 'SMS provider must be sandbox, twilio or msg91' },
)

export const smtpPresets = ['custom', 'mailgun', 'ses'] as const

const fromFields = {
  fromEmail: email('From email'),
  fromName: text('From name', 100),
}

export const emailConnectionInput = z.discriminatedUnion(
  'provider',
  [
    z.strictObject({
      provider: z.literal('sandbox'),
      settings: z.strictObject(fromFields).default({}),
      secrets: z.strictObject({}).default({}),
    }),
    z.strictObject({
      provider: z.literal('smtp'),
      settings: z
        .strictObject({
          preset: z
            .enum(smtpPresets, { message: 'Preset must be custom, mailgun or ses' })
            .optional(),
          host: text(
            'Host',
            253,
            // A name or an IP address (IPv6 too: the outbound-host guard judges every address).
            /^(?:[A-Za-z0-9.-]+|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*)$/,
            'Host must be a host name, e.g. smtp.mailgun.org',
          ),
          port: z
            .number({ message: 'Port must be a number' })
            .int({ message: 'Port must be a whole number' })
            .min(1, { message: 'Port must be between 1 and 65535' })
            .max(65535, { message: 'Port must be between 1 and 65535' })
            .optional(),
          secure: z.boolean({ message: 'Secure must be true or false' }).optional(),
          user: text('User', 254),
          ...fromFields,
        })
        .default({}),
      secrets: z.strictObject({ password: secret('Password') }).default({}),
    }),
    z.strictObject({
      provider: z.literal('sendgrid'),
      settings: z
        .strictObject({
          ...fromFields,
          webhookPublicKey: text(
            'Webhook verification key',
            1024,
            /^[A-Za-z0-9+/=\s-]+$/,
            'Webhook verification key must be the base64 key SendGrid shows',
          ),
        })
        .default({}),
      secrets: z.strictObject({ apiKey: secret('API key') }).default({}),
    }),
  ],
  { message: 'Email provider must be sandbox, smtp or sendgrid' },
)

/** PUT /api/settings/messaging: a channel left out is unchanged. */
export const saveMessagingSettingsInput = z.strictObject({
  whatsapp: whatsappConnectionInput.optional(),
  sms: smsConnectionInput.optional(),
  email: emailConnectionInput.optional(),
  /** Sent back by clients that PUT what they read; ignored. */
  webhookUrls: z.unknown().optional(),
})
export type SaveMessagingSettingsInput = z.infer<typeof saveMessagingSettingsInput>

const channelView = z.object({
  provider: z.string(),
  settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  secrets: z.record(z.string(), secretHintSchema),
  /** True when messages on this channel go to the Sandbox Outbox (no provider, or incomplete). */
  sandbox: z.boolean(),
})
export type MessagingChannelView = z.infer<typeof channelView>

/** GET /api/settings/messaging. */
export const messagingSettingsView = z.object({
  whatsapp: channelView,
  sms: channelView,
  email: channelView,
  /** What to paste into each provider's console. */
  webhookUrls: z.object({
    twilioStatus: z.string(),
    twilioInbound: z.string(),
    whatsapp: z.string(),
    sendgrid: z.string(),
    /** Meta lead ads (Settings → Integrations, Meta card): the same origin as the others. */
    metaLeads: z.string(),
  }),
})
export type MessagingSettingsView = z.infer<typeof messagingSettingsView>

/** POST /api/settings/messaging/test. */
export const testSendInput = z.strictObject({
  channel: z.enum(messageChannels, { message: 'Channel must be whatsapp, sms or email' }),
  to: z
    .string({ message: 'Enter a phone number or email address' })
    .trim()
    .min(1, { message: 'Enter a phone number or email address' })
    .max(254, { message: 'Too long' }),
})
export const testSendResult = z.object({
  ok: z.boolean(),
  provider: z.string(),
  sandbox: z.boolean(),
  providerMessageId: z.string().optional(),
  detail: z.string(),
})
export type TestSendResult = z.infer<typeof testSendResult>
