import { describe, expect, it } from 'vitest'
import { loadEnv } from '../env'
import { listenLines } from './listen-address'

describe('where the server listens (issue 40 item 18)', () => {
  it('binds 127.0.0.1 unless HOST is set', () => {
    expect(loadEnv({}).HOST).toBe('127.0.0.1')
    expect(loadEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0')
  })

  it('says so at start', () => {
    const lines = listenLines('127.0.0.1', 5000)
    expect(lines[0]).toBe('Arogya CRM is running at http://localhost:5000')
    expect(lines[1]).toMatch(/Listening on 127\.0\.0\.1 only.*Set HOST=0\.0\.0\.0/)
    expect(listenLines('0.0.0.0', 5000)[1]).toMatch(
      /Listening on 0\.0\.0\.0 \(HOST\): other machines can connect/,
    )
  })
})
