import { describe, expect, it } from 'vitest'
import { loadEnv } from './env'

describe('loadEnv', () => {
  it('logs JSON in production and readable lines elsewhere, unless LOG_FORMAT says otherwise', () => {
    const production = { NODE_ENV: 'production', BASE_URL: 'https://crm.example.in' }
    expect(loadEnv(production).LOG_FORMAT).toBe('json')
    expect(loadEnv({}).LOG_FORMAT).toBe('pretty')
    expect(loadEnv({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json')
    expect(loadEnv({ ...production, LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty')
    expect(() => loadEnv({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/)
  })

  it('SMTP_ALLOW_PRIVATE_HOSTS is off by default and must be a boolean', () => {
    expect(loadEnv({}).SMTP_ALLOW_PRIVATE_HOSTS).toBe(false)
    expect(loadEnv({ SMTP_ALLOW_PRIVATE_HOSTS: 'true' }).SMTP_ALLOW_PRIVATE_HOSTS).toBe(true)
    expect(() => loadEnv({ SMTP_ALLOW_PRIVATE_HOSTS: 'sometimes' })).toThrow(
      /SMTP_ALLOW_PRIVATE_HOSTS/,
    )
  })

  it('voice: provider URLs and the sandbox pace have defaults and are checked', () => {
    const env = loadEnv({})
    expect(env.EXOTEL_API_URL).toBeUndefined()
    expect(env.TWILIO_VOICE_API_URL).toBe('https://api.twilio.com')
    expect(env.VOICE_SANDBOX_RING_MS).toBe(5_000)
    expect(env.VOICE_SANDBOX_TALK_MS).toBe(20_000)
    const fakes = loadEnv({
      EXOTEL_API_URL: 'http://127.0.0.1:4010',
      TWILIO_VOICE_API_URL: 'http://127.0.0.1:4011',
      VOICE_SANDBOX_RING_MS: '50',
      VOICE_SANDBOX_TALK_MS: '0',
    })
    expect(fakes.EXOTEL_API_URL).toBe('http://127.0.0.1:4010')
    expect(fakes.TWILIO_VOICE_API_URL).toBe('http://127.0.0.1:4011')
    expect(fakes.VOICE_SANDBOX_RING_MS).toBe(50)
    expect(fakes.VOICE_SANDBOX_TALK_MS).toBe(0)
    expect(() => loadEnv({ EXOTEL_API_URL: 'not a url' })).toThrow(/EXOTEL_API_URL/)
    expect(() => loadEnv({ TWILIO_VOICE_API_URL: 'ftp//x' })).toThrow(/TWILIO_VOICE_API_URL/)
    expect(() => loadEnv({ VOICE_SANDBOX_RING_MS: '-1' })).toThrow(/VOICE_SANDBOX_RING_MS/)
    expect(() => loadEnv({ VOICE_SANDBOX_TALK_MS: 'soon' })).toThrow(/VOICE_SANDBOX_TALK_MS/)
  })
})
