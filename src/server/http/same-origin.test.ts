import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { registerErrorHandler } from './error-handler'
import { registerSameOriginGuard } from './same-origin'

async function app(baseURL?: string) {
  const a = Fastify()
  registerErrorHandler(a)
  registerSameOriginGuard(a, baseURL)
  a.post('/api/thing', async () => ({ ok: true }))
  await a.ready()
  return a
}

describe('same-origin guard', () => {
  it('with BASE_URL, lets only its origin and header-less writes through', async () => {
    const a = await app('https://crm.example.in')
    const post = (headers: Record<string, string>) =>
      a.inject({ method: 'POST', url: '/api/thing', headers, payload: {} })
    // The host the request came to is not enough: BASE_URL names the one origin (decision 009).
    expect((await post({ host: 'x.test', origin: 'http://x.test' })).statusCode).toBe(403)
    expect((await post({ host: 'x.test:80', origin: 'http://x.test:80' })).statusCode).toBe(403)
    expect(
      (await post({ host: 'crm.example.in', origin: 'http://crm.example.in' })).statusCode,
    ).toBe(403)
    expect(
      (await post({ host: 'internal:5000', origin: 'https://crm.example.in' })).statusCode,
    ).toBe(200)
    expect((await post({ host: 'x.test' })).statusCode).toBe(200)
    expect((await post({ host: 'x.test', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200)
    expect((await post({ host: 'x.test', origin: 'https://evil.example' })).statusCode).toBe(403)
    expect((await post({ host: 'x.test', origin: 'null' })).statusCode).toBe(403)
    expect((await post({ host: 'x.test', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403)
    expect((await post({ host: 'x.test', 'sec-fetch-site': 'same-site' })).statusCode).toBe(403)
    await a.close()
  })

  it('without BASE_URL, accepts the origin the request came to', async () => {
    const a = await app()
    const post = (headers: Record<string, string>) =>
      a.inject({ method: 'POST', url: '/api/thing', headers, payload: {} })
    expect((await post({ host: 'x.test', origin: 'http://x.test' })).statusCode).toBe(200)
    expect((await post({ host: 'x.test:80', origin: 'http://x.test:80' })).statusCode).toBe(200)
    await a.close()
  })

  it('without BASE_URL, compares full origins: null, unparseable and other schemes or ports are refused', async () => {
    const a = await app()
    const post = (origin: string) =>
      a.inject({
        method: 'POST',
        url: '/api/thing',
        headers: { host: 'x.test', origin },
        payload: {},
      })
    expect((await post('http://x.test')).statusCode).toBe(200)
    for (const origin of [
      'null',
      'not a url',
      '',
      'https://x.test',
      'http://x.test:8080',
      'http://x.test.evil',
      'file://',
    ]) {
      expect((await post(origin)).statusCode, origin).toBe(403)
    }
    await a.close()
  })
})
