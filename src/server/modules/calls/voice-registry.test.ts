import { beforeAll, describe, expect, it } from 'vitest'
import { parseSecretsKeys } from '../../secrets/keys'
import { encryptSecret, installSecretsKeys } from '../../secrets/secrets'
import {
  defaultVoiceOptions,
  hospitalVoice,
  SANDBOX_CALLER_ID,
  voiceOptionsFromEnv,
  voiceSecretContext,
  type VoiceSettingsRow,
} from './voice-registry'

const HOSPITAL = '11111111-1111-4111-8111-111111111111'

function row(overrides: Partial<VoiceSettingsRow> = {}): VoiceSettingsRow {
  return {
    hospitalId: HOSPITAL,
    provider: 'sandbox',
    settings: {},
    secrets: {},
    callerId: null,
    region: null,
    callingHoursStart: '10:00',
    callingHoursEnd: '19:00',
    recordingEnabled: false,
    callbackToken: 'x'.repeat(64),
    ringGroup: [],
    updatedAt: new Date(),
    ...overrides,
  }
}

beforeAll(() => {
  installSecretsKeys(parseSecretsKeys(`unit:${Buffer.alloc(32, 3).toString('base64')}`))
})

describe('voice registry', () => {
  it('is the sandbox with default hours without a row', () => {
    const voice = hospitalVoice(undefined, HOSPITAL, defaultVoiceOptions)
    expect(voice.kind).toBe('sandbox')
    expect(voice.provider.name).toBe('sandbox')
    expect(voice.callerId).toBe(SANDBOX_CALLER_ID)
    expect(voice.callingHours).toEqual({ start: '09:00', end: '21:00' })
    expect(voice.recordingEnabled).toBe(false)
  })

  it('builds Exotel and Twilio from complete settings, with secrets decrypted', () => {
    const token = encryptSecret('tok', voiceSecretContext(HOSPITAL, 'apiToken'))
    const exotel = hospitalVoice(
      row({
        provider: 'exotel',
        settings: { accountSid: 'acc', apiKey: 'key' },
        secrets: { apiToken: token },
        callerId: '+918047112233',
        region: 'mumbai',
        recordingEnabled: true,
      }),
      HOSPITAL,
      defaultVoiceOptions,
    )
    expect(exotel).toMatchObject({ kind: 'exotel', callerId: '+918047112233' })
    expect(exotel.recordingEnabled).toBe(true)
    expect(exotel.callingHours).toEqual({ start: '10:00', end: '19:00' })
    const auth = encryptSecret('secret', voiceSecretContext(HOSPITAL, 'authToken'))
    const twilio = hospitalVoice(
      row({
        provider: 'twilio',
        settings: { accountSid: `AC${'1'.repeat(32)}` },
        secrets: { authToken: auth },
        callerId: '+14155550100',
      }),
      HOSPITAL,
      defaultVoiceOptions,
    )
    expect(twilio.provider.name).toBe('twilio')
  })

  it('falls back to the sandbox when a provider’s fields are incomplete', () => {
    for (const incomplete of [
      row({ provider: 'exotel', callerId: '+918047112233', settings: { accountSid: 'acc' } }),
      row({ provider: 'twilio', settings: { accountSid: 'AC1' }, callerId: '+14155550100' }),
      row({ provider: 'exotel', settings: { accountSid: 'a', apiKey: 'k' } }),
    ]) {
      expect(hospitalVoice(incomplete, HOSPITAL, defaultVoiceOptions).kind).toBe('sandbox')
    }
  })

  it('reads its URLs and pace from env', () => {
    expect(
      voiceOptionsFromEnv({
        EXOTEL_API_URL: 'http://127.0.0.1:1',
        TWILIO_VOICE_API_URL: 'http://127.0.0.1:2',
        VOICE_SANDBOX_RING_MS: 10,
        VOICE_SANDBOX_TALK_MS: 20,
      }),
    ).toEqual({
      exotelUrl: 'http://127.0.0.1:1',
      twilioUrl: 'http://127.0.0.1:2',
      sandboxRingMs: 10,
      sandboxTalkMs: 20,
    })
  })
})
