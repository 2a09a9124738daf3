import { describe, expect, it } from 'vitest'
import type { VoiceSettingsView } from '@/shared/schemas/voice-settings'
import { formOf, payloadOf, secretHintText } from './voice-form'

const saved: VoiceSettingsView = {
  provider: 'exotel',
  sandbox: false,
  callerId: '+918047112233',
  region: 'mumbai',
  callingHoursStart: '09:00',
  callingHoursEnd: '21:00',
  recordingEnabled: false,
  canManage: true,
  account: {
    accountSid: 'sanjeevani1',
    apiKey: 'key-1',
    apiToken: { set: true, last4: '9876' },
    authToken: { set: false },
  },
  callbackUrls: { exotelStatus: 'https://crm.example.in/x', twilioVoice: null },
  updatedAt: null,
}

describe('voice form', () => {
  it('starts from the saved values with blank secrets', () => {
    expect(formOf(saved)).toMatchObject({
      provider: 'exotel',
      accountSid: 'sanjeevani1',
      apiToken: '',
      callerId: '+918047112233',
    })
  })

  it('sends only the chosen provider’s fields', () => {
    const form = formOf(saved)
    expect(payloadOf(form)).toEqual({
      provider: 'exotel',
      accountSid: 'sanjeevani1',
      apiKey: 'key-1',
      apiToken: '',
      region: 'mumbai',
      callerId: '+918047112233',
      callingHoursStart: '09:00',
      callingHoursEnd: '21:00',
      recordingEnabled: false,
    })
    expect(payloadOf({ ...form, provider: 'twilio', authToken: 'tok' })).not.toHaveProperty(
      'apiKey',
    )
    expect(payloadOf({ ...form, provider: 'sandbox' })).toEqual({
      provider: 'sandbox',
      callingHoursStart: '09:00',
      callingHoursEnd: '21:00',
      recordingEnabled: false,
    })
  })

  it('describes a secret without showing it', () => {
    expect(secretHintText({ set: false })).toBe('Not set')
    expect(secretHintText({ set: true, last4: '9876' })).toBe('Saved (ends 9876)')
    expect(secretHintText({ set: true, last4: null })).toBe('Saved')
  })
})
