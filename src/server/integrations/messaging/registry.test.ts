import { describe, expect, it } from 'vitest'
import { startFakeTwilio } from '../../../../tests/support/fakes/twilio'
import type { MessagingConfig } from './config'
import { providerFor, type ProviderUrls } from './registry'

const urls: ProviderUrls = {
  twilio: 'http://twilio.test',
  msg91: 'http://msg91.test',
  sendgrid: 'http://sendgrid.test',
  metaGraph: 'http://graph.test',
  metaGraphVersion: 'v21.0',
  sandboxDeliveryMs: 0,
}
const twilio = {
  provider: 'twilio' as const,
  accountSid: 'AC1',
  authToken: 't',
  from: '+14155550100',
}

describe('providerFor', () => {
  it.each([
    [
      {
        provider: 'meta',
        phoneNumberId: '1',
        businessAccountId: '2',
        accessToken: 'a',
        appSecret: 's',
      },
      'whatsapp',
      'meta',
    ],
    [twilio, 'whatsapp', 'twilio'],
    [twilio, 'sms', 'twilio'],
    [{ provider: 'msg91', authKey: 'k', senderId: 'SNJVNI', dltEntityId: '1' }, 'sms', 'msg91'],
    [
      { provider: 'sendgrid', apiKey: 'k', fromEmail: 'a@b.in', fromName: 'A' },
      'email',
      'sendgrid',
    ],
    [
      {
        provider: 'smtp',
        preset: 'custom',
        host: 'h',
        port: 587,
        secure: false,
        user: 'u',
        password: 'p',
        fromEmail: 'a@b.in',
        fromName: 'A',
      },
      'email',
      'smtp',
    ],
    [{ provider: 'sandbox' }, 'email', 'sandbox'],
  ] as const)('%o on %s is %s', (channelConfig, channel, name) => {
    const config = {
      hospitalId: 'h1',
      whatsapp: { provider: 'sandbox' },
      sms: { provider: 'sandbox' },
      email: { provider: 'sandbox' },
      [channel]: channelConfig,
    } as MessagingConfig
    const p = providerFor(config, channel, urls)
    expect(p.name).toBe(name)
    expect(p.channel).toBe(channel)
    // The other channels stay on the sandbox.
    for (const other of (['whatsapp', 'sms', 'email'] as const).filter((c) => c !== channel))
      expect(providerFor(config, other, urls).name).toBe('sandbox')
  })

  it('builds an adapter that reaches the provider at the configured base URL', async () => {
    const sid = `AC${'3c'.repeat(16)}`
    const fake = await startFakeTwilio({ [sid]: 'tok' })
    try {
      const config: MessagingConfig = {
        hospitalId: 'h1',
        whatsapp: { provider: 'sandbox' },
        sms: { provider: 'twilio', accountSid: sid, authToken: 'tok', from: '+14155550100' },
        email: { provider: 'sandbox' },
      }
      const p = providerFor(config, 'sms', { ...urls, twilio: fake.url })
      const r = await p.send(
        { channel: 'sms', to: '+919876543210', idempotencyKey: 'k', text: 'Hi' },
        new AbortController().signal,
      )
      expect(r.ok).toBe(true)
      expect(fake.acceptedTo.get('+919876543210')).toBe(1)
    } finally {
      await fake.close()
    }
  })
})
