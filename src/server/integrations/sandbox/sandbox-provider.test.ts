import { describe, expect, it } from 'vitest'
import { sandboxConfig } from '../messaging/config'
import { providerFor, providerUrlsFromEnv } from '../messaging/registry'
import { sandboxMessageId, sandboxProvider } from './sandbox-provider'

const urls = providerUrlsFromEnv({
  TWILIO_API_URL: 'http://twilio.test',
  TWILIO_CONTENT_URL: 'http://content.twilio.test',
  MSG91_API_URL: 'http://msg91.test',
  SENDGRID_API_URL: 'http://sendgrid.test',
  META_GRAPH_URL: 'http://graph.test',
  META_GRAPH_VERSION: 'v21.0',
  SANDBOX_DELIVERY_MS: 5,
})

describe('sandbox provider', () => {
  it('maps env to provider URLs', () => {
    expect(urls).toEqual({
      twilio: 'http://twilio.test',
      twilioContent: 'http://content.twilio.test',
      msg91: 'http://msg91.test',
      sendgrid: 'http://sendgrid.test',
      metaGraph: 'http://graph.test',
      metaGraphVersion: 'v21.0',
      sandboxDeliveryMs: 5,
    })
  })

  it('is what a hospital without a connection gets, on every channel', () => {
    for (const channel of ['whatsapp', 'sms', 'email'] as const) {
      const p = providerFor(sandboxConfig('h1'), channel, urls)
      expect(p.name).toBe('sandbox')
      expect(p.channel).toBe(channel)
    }
  })

  it('accepts a send at once with an id derived from the key, and lookup finds the same id', async () => {
    const p = sandboxProvider('sms')
    const signal = new AbortController().signal
    const message = {
      channel: 'sms' as const,
      to: '+919876543210',
      idempotencyKey: 'k-1',
      text: 'Hi',
    }
    const first = await p.send(message, signal)
    const again = await p.send(message, signal)
    const other = await p.send({ ...message, idempotencyKey: 'k-2' }, signal)
    expect(first).toMatchObject({ ok: true, status: 'sent' })
    if (!first.ok || !other.ok) throw new Error('sandbox refused')
    expect(first.providerMessageId).toMatch(/^sbx_[0-9a-f]{32}$/)
    expect(again).toEqual(first)
    expect(other.providerMessageId).not.toBe(first.providerMessageId)
    const found = await p.lookup(
      { idempotencyKey: 'k-1', to: message.to, since: new Date() },
      signal,
    )
    expect(found).toEqual({
      found: true,
      providerMessageId: sandboxMessageId('k-1'),
      status: 'sent',
    })
  })

  it('honours an aborted signal', async () => {
    const ac = new AbortController()
    ac.abort()
    const p = sandboxProvider('email')
    await expect(
      p.send({ channel: 'email', to: 'a@b.in', idempotencyKey: 'k', text: 't' }, ac.signal),
    ).rejects.toThrow()
  })
})
