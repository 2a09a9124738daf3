import { describe, expect, it } from 'vitest'
import { formOf, payloadOf, secretHintText } from './provider-fields'
import type { MessagingSettings } from './types'

const saved: MessagingSettings = {
  whatsapp: {
    provider: 'meta',
    settings: { phoneNumberId: '1234', businessAccountId: '99' },
    secrets: { accessToken: { set: true, last4: 'Tk42' } },
  },
  sms: { provider: 'sandbox', settings: {}, secrets: {} },
  email: {
    provider: 'smtp',
    settings: { host: 'smtp.mailgun.org', port: 587, secure: false },
    secrets: {},
  },
  webhookUrls: { twilioStatus: '', twilioInbound: '', whatsapp: '', sendgrid: '', metaLeads: '' },
}

describe('messaging settings form', () => {
  it('starts from the stored settings, secrets empty', () => {
    expect(formOf(saved, 'whatsapp')).toEqual({
      provider: 'meta',
      values: { phoneNumberId: '1234', businessAccountId: '99' },
    })
    expect(formOf(saved, 'email').values).toEqual({
      host: 'smtp.mailgun.org',
      port: '587',
      secure: false,
    })
  })

  it("sends the provider's fields only, secrets only when typed, numbers as numbers", () => {
    expect(
      payloadOf('whatsapp', {
        provider: 'meta',
        values: { phoneNumberId: ' 1234 ', accessToken: '', appSecret: 'shh', accountSid: 'AC1' },
      }),
    ).toEqual({
      provider: 'meta',
      settings: { phoneNumberId: '1234' },
      secrets: { appSecret: 'shh' },
    })
    expect(
      payloadOf('email', {
        provider: 'smtp',
        values: {
          preset: 'mailgun',
          host: 'smtp.mailgun.org',
          port: '587',
          secure: true,
          password: 'pw',
        },
      }),
    ).toEqual({
      provider: 'smtp',
      settings: { preset: 'mailgun', host: 'smtp.mailgun.org', port: 587, secure: true },
      secrets: { password: 'pw' },
    })
    expect(payloadOf('sms', { provider: 'sandbox', values: { authKey: 'x' } })).toEqual({
      provider: 'sandbox',
      settings: {},
      secrets: {},
    })
  })

  it('shows a secret as set and its last four, never more', () => {
    expect(secretHintText({ set: true, last4: '1234' })).toBe('set ••••1234')
    expect(secretHintText({ set: false, last4: null })).toBe('not set')
    expect(secretHintText(undefined)).toBe('not set')
  })
})
