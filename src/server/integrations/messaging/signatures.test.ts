import { generateKeyPairSync, sign } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { twilioSignature, verifySendGridSignature, verifyTwilioSignature } from './signatures'

describe('X-Twilio-Signature', () => {
  // Twilio's documented example (../shared/contracts/README.md).
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2'
  const params = {
    CallSid: 'CA1234567890ABCDE',
    Caller: '+12349013030',
    Digits: '1234',
    From: '+12349013030',
    To: '+18005551212',
  }
  it('matches the documented example', () => {
    expect(twilioSignature(url, params, '12345')).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=')
    expect(verifyTwilioSignature(url, params, '0/KCTR6DLpKmkAf8muzZqo1nDgQ=', '12345')).toBe(true)
  })
  it('refuses a changed parameter, URL, token, or a missing header', () => {
    const good = '0/KCTR6DLpKmkAf8muzZqo1nDgQ='
    expect(verifyTwilioSignature(url, { ...params, Digits: '1235' }, good, '12345')).toBe(false)
    expect(verifyTwilioSignature(`${url}&x=1`, params, good, '12345')).toBe(false)
    expect(verifyTwilioSignature(url, params, good, '12346')).toBe(false)
    expect(verifyTwilioSignature(url, params, undefined, '12345')).toBe(false)
    expect(verifyTwilioSignature(url, params, '', '12345')).toBe(false)
  })
})

describe('SendGrid event webhook signature', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pub = publicKey.export({ format: 'der', type: 'spki' }).toString('base64')
  const body = Buffer.from('[{"event":"delivered"}]')
  const ts = '1732500000'
  const signature = sign('sha256', Buffer.concat([Buffer.from(ts), body]), privateKey).toString(
    'base64',
  )
  it('accepts a good signature and refuses a changed body, timestamp or key', () => {
    expect(verifySendGridSignature(body, signature, ts, pub)).toBe(true)
    expect(verifySendGridSignature(Buffer.from('[]'), signature, ts, pub)).toBe(false)
    expect(verifySendGridSignature(body, signature, '1732500001', pub)).toBe(false)
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey
    const otherPub = other.export({ format: 'der', type: 'spki' }).toString('base64')
    expect(verifySendGridSignature(body, signature, ts, otherPub)).toBe(false)
    expect(verifySendGridSignature(body, undefined, ts, pub)).toBe(false)
    expect(verifySendGridSignature(body, signature, ts, 'not a key')).toBe(false)
  })
})
