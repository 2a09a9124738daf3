import type {
  SaveVoiceSettingsInput,
  VoiceRegion,
  VoiceSettingsView,
} from '@/shared/schemas/voice-settings'

/** The Voice card's form: every field as typed (secrets start blank: blank keeps the stored). */
export interface VoiceForm {
  provider: VoiceSettingsView['provider']
  accountSid: string
  apiKey: string
  apiToken: string
  authToken: string
  region: VoiceRegion
  callerId: string
  callingHoursStart: string
  callingHoursEnd: string
  recordingEnabled: boolean
}

export const providerChoices: { value: VoiceForm['provider']; label: string }[] = [
  { value: 'sandbox', label: 'Sandbox (no provider: simulated calls)' },
  { value: 'exotel', label: 'Exotel' },
  { value: 'twilio', label: 'Twilio Voice' },
]

export const providerNames: Record<VoiceForm['provider'], string> = {
  sandbox: 'Sandbox',
  exotel: 'Exotel',
  twilio: 'Twilio Voice',
}

export function formOf(saved: VoiceSettingsView): VoiceForm {
  return {
    provider: saved.provider,
    accountSid: saved.account?.accountSid ?? '',
    apiKey: saved.account?.apiKey ?? '',
    apiToken: '',
    authToken: '',
    region: saved.region ?? 'mumbai',
    callerId: saved.callerId ?? '',
    callingHoursStart: saved.callingHoursStart,
    callingHoursEnd: saved.callingHoursEnd,
    recordingEnabled: saved.recordingEnabled,
  }
}

/** The PUT body for the chosen provider: only its own fields. */
export function payloadOf(form: VoiceForm): SaveVoiceSettingsInput {
  const common = {
    callingHoursStart: form.callingHoursStart,
    callingHoursEnd: form.callingHoursEnd,
    recordingEnabled: form.recordingEnabled,
  }
  if (form.provider === 'exotel') {
    return {
      provider: 'exotel',
      accountSid: form.accountSid,
      apiKey: form.apiKey,
      apiToken: form.apiToken,
      region: form.region,
      callerId: form.callerId,
      ...common,
    }
  }
  if (form.provider === 'twilio') {
    return {
      provider: 'twilio',
      accountSid: form.accountSid,
      authToken: form.authToken,
      callerId: form.callerId,
      ...common,
    }
  }
  return { provider: 'sandbox', ...common }
}

/** "set ••••1234", "set" or "not set". */
export function secretHintText(hint: { set: boolean; last4?: string | null } | undefined): string {
  if (!hint?.set) return 'Not set'
  return hint.last4 ? `Saved (ends ${hint.last4})` : 'Saved'
}
