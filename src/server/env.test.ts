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
})
