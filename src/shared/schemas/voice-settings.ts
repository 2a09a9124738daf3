import { z } from 'zod'
import { voiceProviders } from '../calls'
import { MOBILE_PHONE_MESSAGE, normalizeMobilePhone, normalizePhone } from '../phone'
import { phoneNumber } from './common'
import { secretHintSchema } from './meta'

/*
 * Settings → Integrations → Voice (issue 41):
 *   GET  /api/settings/voice            every hospital member (leads:read): VoiceSettingsView;
 *                                       the account fields, secret hints and callback URLs only
 *                                       for admins (integrations:manage), null for the others
 *   PUT  /api/settings/voice            admins: SaveVoiceSettingsInput → VoiceSettingsView
 *   POST /api/settings/voice/test-call  admins: { phone } → VoiceTestCallResult (5 a minute)
 * Secrets (Exotel's API token, Twilio's auth token) are written as plain strings and only ever
 * read back as { set, last4 }; a secret left out or '' keeps the stored one.
 */

export const voiceRegions = ['mumbai', 'singapore'] as const
export type VoiceRegion = (typeof voiceRegions)[number]

/** Test calls per hospital per minute: each rings a real phone and costs the hospital money. */
export const VOICE_TEST_CALLS_PER_MINUTE = 5

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/

const time = (label: string) =>
  z
    .string({ message: `${label} must be a time like 09:00` })
    .trim()
    .regex(HHMM, { message: `${label} must be a 24-hour time like 09:00 or 21:30` })

/** A required non-secret text matching `pattern`. */
function text(label: string, max: number, pattern: RegExp, message: string) {
  return z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} must be at most ${max} characters` })
    .regex(pattern, { message })
}

/** A secret: absent or '' keeps the stored one (the service refuses a missing first one). */
function secret(label: string) {
  return (
    z
      .string({ message: `${label} must be text` })
      .trim()
      .max(512, { message: `${label} is too long` })
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      .refine((v) => !/[\s\u0000-\u001f\u007f]/.test(v), {
        message: `${label} must not contain spaces or control characters`,
      })
      .optional()
  )
}

/** The hospital's number customers see, normalised to E.164 (landlines allowed: ExoPhones). */
const callerId = (label: string, example: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(32, { message: `${label} is too long` })
    .transform((v, ctx) => {
      const e164 = normalizePhone(v)
      if (!e164) {
        ctx.addIssue({
          code: 'custom',
          message: `${label} must be a phone number, e.g. ${example}`,
        })
        return z.NEVER
      }
      return e164
    })

const common = {
  /** Calls to leads only between these times in the hospital's zone; equal times: all day. */
  callingHoursStart: time('Calling hours start').optional(),
  callingHoursEnd: time('Calling hours end').optional(),
  /** Record answered calls (a spoken notice is required before recording). */
  recordingEnabled: z.boolean({ message: 'Recording must be on or off' }).optional(),
}

export const saveVoiceSettingsInput = z.discriminatedUnion(
  'provider',
  [
    z.strictObject({ provider: z.literal('sandbox'), ...common }),
    z.strictObject({
      provider: z.literal('exotel'),
      accountSid: text(
        'Account SID',
        64,
        /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
        'Account SID is the SID on Exotel’s API settings page (letters, digits, - and _)',
      ),
      apiKey: text(
        'API key',
        128,
        /^[A-Za-z0-9_-]{4,}$/,
        'API key is the key on Exotel’s API settings page (letters, digits, - and _)',
      ),
      apiToken: secret('API token'),
      region: z.enum(voiceRegions, { message: 'Region must be Mumbai or Singapore' }),
      callerId: callerId('ExoPhone', '080 4711 2233'),
      ...common,
    }),
    z.strictObject({
      provider: z.literal('twilio'),
      accountSid: text(
        'Account SID',
        34,
        /^AC[0-9a-fA-F]{32}$/,
        'Account SID starts with AC followed by 32 letters and digits',
      ),
      authToken: secret('Auth token'),
      callerId: callerId('Voice number', '+91 80 4711 2233'),
      ...common,
    }),
  ],
  { message: 'Voice provider must be sandbox, exotel or twilio' },
)
export type SaveVoiceSettingsInput = z.input<typeof saveVoiceSettingsInput>
export type SaveVoiceSettingsValues = z.output<typeof saveVoiceSettingsInput>

export const voiceTestCallInput = z.strictObject({
  phone: phoneNumber(normalizeMobilePhone, {
    required: 'Type the mobile number to ring',
    invalid: MOBILE_PHONE_MESSAGE,
  }),
})
export type VoiceTestCallInput = z.input<typeof voiceTestCallInput>

export const voiceSettingsView = z.object({
  /** The provider chosen (an incomplete one still calls through the sandbox: see `sandbox`). */
  provider: z.enum(voiceProviders),
  /** Calls go through the sandbox: no provider, or its settings are incomplete. */
  sandbox: z.boolean(),
  /** The number customers see (ExoPhone or Twilio number), E.164; null on the sandbox. */
  callerId: z.string().nullable(),
  region: z.enum(voiceRegions).nullable(),
  callingHoursStart: z.string(),
  callingHoursEnd: z.string(),
  recordingEnabled: z.boolean(),
  /** Whether the viewer may change these (admins); the fields below are null otherwise. */
  canManage: z.boolean(),
  account: z
    .object({
      accountSid: z.string().nullable(),
      /** Exotel's API key (not a secret: the token is). */
      apiKey: z.string().nullable(),
      apiToken: secretHintSchema,
      authToken: secretHintSchema,
    })
    .nullable(),
  /**
   * The callback URLs of the chosen provider (Exotel's carries the hospital's callback token,
   * so only admins see it); null when there is none yet (the sandbox, nothing saved).
   */
  callbackUrls: z
    .object({ exotelStatus: z.string().nullable(), twilioVoice: z.string().nullable() })
    .nullable(),
  updatedAt: z.string().nullable(),
})
export type VoiceSettingsView = z.infer<typeof voiceSettingsView>

export const voiceTestCallResult = z.object({
  ok: z.literal(true),
  provider: z.enum(voiceProviders),
  sandbox: z.boolean(),
  /** The provider's id of the placed call (a sandbox one starts sbxcall_). */
  providerCallId: z.string(),
  /** What happened, in plain words. */
  detail: z.string(),
})
export type VoiceTestCallResult = z.infer<typeof voiceTestCallResult>
