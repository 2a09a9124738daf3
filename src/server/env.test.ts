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
})
