import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerErrorHandler } from './error-handler'
import { originOf, registerSameOriginGuard } from './same-origin'

// The same-origin guard at its edges (mutation testing, docs/decisions/024): which methods
// and paths it checks, every Sec-Fetch-Site value, the refusal body, and our origin behind a
// trusted proxy.

describe('originOf', () => {
  it.each([
    ['https://crm.example.in/path?q=1', 'https://crm.example.in'],
    ['https://crm.example.in:443', 'https://crm.example.in'],
    ['http://x.test:8080/', 'http://x.test:8080'],
    ['HTTP://X.TEST', 'http://x.test'],
  ])('reads %s as %s', (url, origin) => {
    expect(originOf(url)).toBe(origin)
  })
  it.each(['null', 'not a url', '', 'file:///etc/passwd', 'data:text/plain,x', '/relative'])(
    'has no origin for %j',
    (url) => {
      expect(originOf(url)).toBeNull()
    },
  )
})

describe('registerSameOriginGuard', () => {
  const app = Fastify({ trustProxy: '127.0.0.1' })
  beforeAll(async () => {
    registerErrorHandler(app)
    registerSameOriginGuard(app, undefined)
    for (const method of ['GET', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      // GET routes answer HEAD too.
      app.route({ method, url: '/api/thing', handler: async () => ({ ok: true }) })
      app.route({ method, url: '/thing', handler: async () => ({ ok: true }) })
    }
    app.post('/apix', async () => ({ ok: true }))
    await app.ready()
  })
  afterAll(() => app.close())

  const crossSite = {
    host: 'x.test',
    origin: 'https://evil.example',
    'sec-fetch-site': 'cross-site',
  }

  it('refuses every cross-site write to the API with one 403 body', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/api/thing', headers: crossSite, payload: {} })
      expect(res.statusCode, method).toBe(403)
      expect(res.json()).toEqual({
        message: 'Cross-site requests are not allowed',
        code: 'FORBIDDEN',
      })
    }
  })

  it('lets reads through, and writes outside /api/', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
      const res = await app.inject({ method, url: '/api/thing', headers: crossSite })
      expect(res.statusCode, method).toBe(200)
    }
    expect(
      (await app.inject({ method: 'POST', url: '/thing', headers: crossSite })).statusCode,
    ).toBe(200)
    expect(
      (await app.inject({ method: 'POST', url: '/apix', headers: crossSite })).statusCode,
    ).toBe(200)
  })

  it.each([
    ['same-origin', 200],
    ['none', 200],
    ['same-site', 403],
    ['cross-site', 403],
    ['', 403],
  ])('Sec-Fetch-Site %j without Origin: %i', async (site, status) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/thing',
      headers: { host: 'x.test', 'sec-fetch-site': site },
      payload: {},
    })
    expect(res.statusCode).toBe(status)
  })

  it('checks Origin even when Sec-Fetch-Site says same-origin', async () => {
    const post = (origin: string) =>
      app.inject({
        method: 'POST',
        url: '/api/thing',
        headers: { host: 'x.test', origin, 'sec-fetch-site': 'same-origin' },
        payload: {},
      })
    expect((await post('http://x.test')).statusCode).toBe(200)
    expect((await post('https://evil.example')).statusCode).toBe(403)
    expect((await post('null')).statusCode).toBe(403)
  })

  it('refuses an unreadable Origin even when our own origin cannot be read either', async () => {
    for (const origin of ['null', 'not a url']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/thing',
        headers: { host: 'bad host', origin },
        payload: {},
      })
      expect(res.statusCode, origin).toBe(403)
    }
  })

  it('takes our origin from X-Forwarded-Host and -Proto only from the trusted proxy', async () => {
    const post = (remoteAddress: string, origin: string) =>
      app.inject({
        method: 'POST',
        url: '/api/thing',
        remoteAddress,
        headers: {
          host: 'internal:3000',
          'x-forwarded-host': 'crm.example.in',
          'x-forwarded-proto': 'https',
          origin,
        },
        payload: {},
      })
    expect((await post('127.0.0.1', 'https://crm.example.in')).statusCode).toBe(200)
    expect((await post('127.0.0.1', 'http://internal:3000')).statusCode).toBe(403)
    expect((await post('10.0.0.9', 'https://crm.example.in')).statusCode).toBe(403)
    expect((await post('10.0.0.9', 'http://internal:3000')).statusCode).toBe(200)
  })
})
