import { DEFAULT_CALLING_HOURS } from '../../../shared/calls'
import type {
  SaveVoiceSettingsValues,
  VoiceSettingsView,
} from '../../../shared/schemas/voice-settings'
import type { AppDb } from '../../db/client'
import { voiceSettings } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { decryptSecret, encryptSecret, secretHint } from '../../secrets/secrets'
import { recordAudit } from '../audit/audit.service'
import {
  defaultVoiceOptions,
  hospitalVoice,
  readVoiceSettings,
  voiceSecretContext,
  type VoiceSettingsRow,
} from '../calls/voice-registry'
import { statusCallbackUrl } from '../voice-webhooks/callback-urls'

/**
 * Settings → Integrations → Voice (issue 41): the hospital's voice provider in its
 * voice_settings row (no row: the sandbox with the default calling hours). Secrets are stored
 * as encryptSecret() output under `voice:<hospital id>:<field>` (voice-registry.ts reads them)
 * and answered only as { set, last4 }; the callback token shows only inside the callback URLs,
 * and only to admins.
 */

export interface VoiceSettingsOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
  /** The viewer holds integrations:manage: account fields, secret hints and callback URLs. */
  canManage: boolean
  /** http/public-url.ts publicBase: BASE_URL, else the request's trusted origin. */
  publicBase: string
}

/** Which secret each provider keeps. */
const SECRET_OF = { exotel: 'apiToken', twilio: 'authToken' } as const

function hintOf(row: VoiceSettingsRow, hospitalId: string, field: string) {
  const stored = row.secrets[field]
  return secretHint(stored ? decryptSecret(stored, voiceSecretContext(hospitalId, field)) : null)
}

/** The view of a row (or of no row) for this viewer. */
export function voiceView(
  row: VoiceSettingsRow | undefined,
  opts: Pick<VoiceSettingsOptions, 'hospitalId' | 'canManage' | 'publicBase'>,
): VoiceSettingsView {
  const provider = row?.provider ?? 'sandbox'
  const sandbox = hospitalVoice(row, opts.hospitalId, defaultVoiceOptions).kind === 'sandbox'
  const url = (kind: 'exotel' | 'twilio') =>
    statusCallbackUrl({
      kind,
      hospitalId: opts.hospitalId,
      callbackToken: row?.callbackToken,
      publicBase: opts.publicBase,
    }) ?? null
  return {
    provider,
    sandbox,
    callerId: provider === 'sandbox' ? null : (row?.callerId ?? null),
    region: provider === 'exotel' ? (row?.region ?? null) : null,
    callingHoursStart: row?.callingHoursStart ?? DEFAULT_CALLING_HOURS.start,
    callingHoursEnd: row?.callingHoursEnd ?? DEFAULT_CALLING_HOURS.end,
    recordingEnabled: row?.recordingEnabled ?? false,
    canManage: opts.canManage,
    account:
      opts.canManage && row
        ? {
            accountSid: row.settings.accountSid ?? null,
            apiKey: row.settings.apiKey ?? null,
            apiToken: hintOf(row, opts.hospitalId, 'apiToken'),
            authToken: hintOf(row, opts.hospitalId, 'authToken'),
          }
        : opts.canManage
          ? { accountSid: null, apiKey: null, apiToken: { set: false }, authToken: { set: false } }
          : null,
    callbackUrls: opts.canManage
      ? {
          exotelStatus: provider === 'exotel' ? url('exotel') : null,
          twilioVoice: provider === 'twilio' ? url('twilio') : null,
        }
      : null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  }
}

/** GET /api/settings/voice. */
export async function getVoiceSettings(opts: VoiceSettingsOptions): Promise<VoiceSettingsView> {
  const row = await withTenant(opts.db, opts, (tx) => readVoiceSettings(tx))
  return voiceView(row, opts)
}

interface Columns {
  provider: VoiceSettingsRow['provider']
  settings: Record<string, string>
  secrets: Record<string, string>
  callerId: string | null
  region: VoiceSettingsRow['region']
  callingHoursStart: string
  callingHoursEnd: string
  recordingEnabled: boolean
}

/**
 * The row's new columns from the input. Another provider drops the old one's fields and
 * secrets; a secret left blank keeps the stored one, and a provider without its secret is a
 * 400 on that field.
 */
function columnsOf(
  before: VoiceSettingsRow | undefined,
  values: SaveVoiceSettingsValues,
  hospitalId: string,
): Columns {
  const hours = {
    callingHoursStart:
      values.callingHoursStart ?? before?.callingHoursStart ?? DEFAULT_CALLING_HOURS.start,
    callingHoursEnd: values.callingHoursEnd ?? before?.callingHoursEnd ?? DEFAULT_CALLING_HOURS.end,
    recordingEnabled: values.recordingEnabled ?? before?.recordingEnabled ?? false,
  }
  if (values.provider === 'sandbox') {
    return {
      provider: 'sandbox',
      settings: {},
      secrets: {},
      callerId: null,
      region: null,
      ...hours,
    }
  }
  const field = SECRET_OF[values.provider]
  const typed = values.provider === 'exotel' ? values.apiToken : values.authToken
  const kept = before?.provider === values.provider ? before.secrets[field] : undefined
  const secret = typed ? encryptSecret(typed, voiceSecretContext(hospitalId, field)) : kept
  if (!secret) {
    const label = values.provider === 'exotel' ? 'API token' : 'Auth token'
    const message = `${label} is required`
    throw new AppError('VALIDATION', `Invalid input: ${field}: ${message}`, [
      { path: field, message },
    ])
  }
  const settings: Record<string, string> =
    values.provider === 'exotel'
      ? { accountSid: values.accountSid, apiKey: values.apiKey }
      : { accountSid: values.accountSid }
  return {
    provider: values.provider,
    settings,
    secrets: { [field]: secret },
    callerId: values.callerId,
    region: values.provider === 'exotel' ? values.region : null,
    ...hours,
  }
}

/** The changed fields' names for the audit row: never a value of a secret. */
function changesOf(before: VoiceSettingsRow | undefined, after: Columns, typedSecret: boolean) {
  const changed: string[] = []
  const was = (k: keyof Columns) => (before ? before[k] : undefined)
  if ((before?.provider ?? 'sandbox') !== after.provider) changed.push(`provider ${after.provider}`)
  for (const key of ['accountSid', 'apiKey'] as const) {
    if ((before?.settings[key] ?? null) !== (after.settings[key] ?? null)) changed.push(key)
  }
  if (typedSecret) changed.push(after.provider === 'exotel' ? 'apiToken' : 'authToken')
  if ((was('callerId') ?? null) !== after.callerId) changed.push('caller number')
  if ((was('region') ?? null) !== after.region) changed.push('region')
  const hoursBefore = `${before?.callingHoursStart ?? DEFAULT_CALLING_HOURS.start}-${before?.callingHoursEnd ?? DEFAULT_CALLING_HOURS.end}`
  const hoursAfter = `${after.callingHoursStart}-${after.callingHoursEnd}`
  if (hoursBefore !== hoursAfter) changed.push(`calling hours ${hoursAfter}`)
  if ((before?.recordingEnabled ?? false) !== after.recordingEnabled)
    changed.push(`recording ${after.recordingEnabled ? 'on' : 'off'}`)
  return changed
}

/** PUT /api/settings/voice (admins): saves the provider, hours and recording; audited. */
export async function saveVoiceSettings(
  opts: VoiceSettingsOptions & { values: SaveVoiceSettingsValues },
): Promise<VoiceSettingsView> {
  const { hospitalId, values } = opts
  const row = await withTenant(opts.db, opts, async (tx) => {
    const [before] = await tx.select().from(voiceSettings).for('update')
    const columns = columnsOf(before, values, hospitalId)
    const typedSecret = Boolean(
      values.provider === 'exotel'
        ? values.apiToken
        : values.provider === 'twilio'
          ? values.authToken
          : '',
    )
    const changed = changesOf(before, columns, typedSecret)
    const set = { ...columns, updatedAt: new Date() }
    const [saved] = await tx
      .insert(voiceSettings)
      .values({ hospitalId, ...set })
      .onConflictDoUpdate({ target: voiceSettings.hospitalId, set })
      .returning()
    await recordAudit(tx, {
      hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'voice.settings_saved',
      entityType: 'voice_settings',
      entityId: null,
      summary: `Voice settings saved (${changed.join(', ') || 'no changes'})`,
    })
    return saved
  })
  return voiceView(row, opts)
}
