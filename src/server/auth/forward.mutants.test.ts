import Fastify, { type FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Auth } from './auth'
import { CLIENT_IP_HEADER } from './client-ip'
import {
  authHeaders,
  callAuthAt,
  copyHeaders,
  REDIRECT_PARAMS,
  safeRedirectBody,
  safeRedirectQuery,
  sendAuthResponse,
  userOf,
  withoutTokens,
} from './forward'

// How a request reaches better-auth and its answer comes back (mutation testing,
// docs/decisions/024): client claims dropped, redirects held to our site, tokens never in JSON,
// errors in our one shape. better-auth is replaced by a handler that records what it got.

interface Seen {
  url: string
  method: string
  headers: Headers
  body: string
}

function fakeAuth(answer: () => Response, baseURL?: string) {
  const seen: Seen[] = []
  const auth = {
    options: { baseURL },
    handler: async (request: Request) => {
      seen.push({
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: await request.text(),
      })
      return answer()
    },
  } as unknown as Auth
  return { auth, seen }
}

const app = Fastify({ trustProxy: '127.0.0.1' })
let lastRequest: FastifyRequest
beforeAll(async () => {
  app.all('/api/auth/*', async (req) => {
    lastRequest = req
    return { ok: true }
  })
  await app.ready()
})
afterAll(() => app.close())

/** A real Fastify request, as a route would receive it. */
async function requestWith(
  headers: Record<string, string>,
  url = '/api/auth/get-session',
  method: 'GET' | 'POST' = 'GET',
  remoteAddress = '198.51.100.7',
) {
  await app.inject({
    method,
    url,
    headers,
    remoteAddress,
    ...(method === 'POST' ? { payload: {} } : {}),
  })
  return lastRequest
}

describe('authHeaders', () => {
  it("drops every client claim of address, host or scheme and sets the server's own view", async () => {
    const req = await requestWith({
      host: 'crm.example.in',
      'X-Forwarded-For': '1.2.3.4',
      'x-forwarded-host': 'evil.example',
      'X-Forwarded-Proto': 'https',
      forwarded: 'for=1.2.3.4',
      'x-real-ip': '1.2.3.4',
      'x-client-ip': '1.2.3.4',
      'cf-connecting-ip': '1.2.3.4',
      [CLIENT_IP_HEADER]: '1.2.3.4',
      'x-forwarded': 'kept',
      'x-real-ipx': 'kept',
      cookie: 'arogya.session_token=abc',
    })
    const headers = authHeaders(req)
    expect(headers.get('host')).toBe('crm.example.in')
    expect(headers.get('x-forwarded-proto')).toBe('http')
    expect(headers.get(CLIENT_IP_HEADER)).toBe('198.51.100.7')
    for (const name of [
      'x-forwarded-for',
      'x-forwarded-host',
      'forwarded',
      'x-real-ip',
      'x-client-ip',
      'cf-connecting-ip',
    ]) {
      expect(headers.has(name), name).toBe(false)
    }
    expect(headers.get('x-forwarded')).toBe('kept')
    expect(headers.get('x-real-ipx')).toBe('kept')
    expect(headers.get('cookie')).toBe('arogya.session_token=abc')
  })

  it('takes host, scheme and address from the trusted proxy', async () => {
    const req = await requestWith(
      {
        host: 'internal:3000',
        'x-forwarded-host': 'crm.example.in',
        'x-forwarded-proto': 'https',
        'x-forwarded-for': '203.0.113.9',
      },
      '/api/auth/get-session',
      'GET',
      '127.0.0.1',
    )
    const headers = authHeaders(req)
    expect(headers.get('host')).toBe('crm.example.in')
    expect(headers.get('x-forwarded-proto')).toBe('https')
    expect(headers.get(CLIENT_IP_HEADER)).toBe('203.0.113.9')
  })
})

describe('withoutTokens', () => {
  it('removes token fields at any depth and keeps everything else', () => {
    expect(
      withoutTokens({
        token: 't',
        session: { token: 't', id: 's' },
        sessions: [{ token: 't', id: 'a' }, { id: 'b' }, 'x', 3, null],
        tokens: 'kept',
        n: 0,
        f: false,
      }),
    ).toEqual({
      session: { id: 's' },
      sessions: [{ id: 'a' }, { id: 'b' }, 'x', 3, null],
      tokens: 'kept',
      n: 0,
      f: false,
    })
    expect(withoutTokens([{ token: 'x' }])).toEqual([{}])
    expect(withoutTokens('token')).toBe('token')
    expect(withoutTokens(null)).toBeNull()
  })
})

describe('redirect parameters', () => {
  it('are the four better-auth knows', () => {
    expect(REDIRECT_PARAMS).toEqual([
      'callbackURL',
      'errorCallbackURL',
      'newUserCallbackURL',
      'redirectTo',
    ])
  })

  it('in a query: a path on this site stays, anything else and repeats become /', () => {
    const url = new URL(
      'http://x.test/api/auth/verify-email?token=t&callbackURL=%2Fpatients%3Fa%3D1&errorCallbackURL=https%3A%2F%2Fevil.example&newUserCallbackURL=%2Fa&newUserCallbackURL=%2Fb&other=https%3A%2F%2Fevil.example',
    )
    safeRedirectQuery(url)
    expect(url.searchParams.get('callbackURL')).toBe('/patients?a=1')
    expect(url.searchParams.get('errorCallbackURL')).toBe('/')
    expect(url.searchParams.getAll('newUserCallbackURL')).toEqual(['/'])
    expect(url.searchParams.get('redirectTo')).toBeNull()
    expect(url.searchParams.get('other')).toBe('https://evil.example')
    expect(url.searchParams.get('token')).toBe('t')
  })

  it('in a body: the same rule, other fields and non-objects untouched', () => {
    expect(
      safeRedirectBody({ callbackURL: '/settings', redirectTo: '//evil.example', email: 'a@b.in' }),
    ).toEqual({ callbackURL: '/settings', redirectTo: '/', email: 'a@b.in' })
    expect(safeRedirectBody({ errorCallbackURL: 5 })).toEqual({ errorCallbackURL: '/' })
    const list = [{ callbackURL: '//evil.example' }]
    expect(safeRedirectBody(list)).toBe(list)
    expect(safeRedirectBody(null)).toBeNull()
    expect(safeRedirectBody('x')).toBe('x')
  })
})

describe('callAuthAt', () => {
  it('sends the body as JSON with redirects held, and the URL from our own view', async () => {
    const { auth, seen } = fakeAuth(() => Response.json({ status: true }))
    const req = await requestWith({ host: 'crm.example.in', cookie: 'c=1' }, '/api/auth/x', 'POST')
    const res = await callAuthAt(auth, req, {
      method: 'POST',
      pathAndQuery: '/api/auth/change-password?callbackURL=https%3A%2F%2Fevil.example',
      body: { newPassword: 'x', callbackURL: 'https://evil.example' },
    })
    expect(seen[0]?.url).toBe('http://crm.example.in/api/auth/change-password?callbackURL=%2F')
    expect(seen[0]?.method).toBe('POST')
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ newPassword: 'x', callbackURL: '/' })
    expect(seen[0]?.headers.get('content-type')).toBe('application/json')
    expect(seen[0]?.headers.get('content-length')).toBeNull()
    expect(seen[0]?.headers.get('cookie')).toBe('c=1')
    expect(res).toMatchObject({ status: 200, json: { status: true }, text: '{"status":true}' })
  })

  it('sends no body with GET or HEAD, or when there is none, and no cookie when anonymous', async () => {
    const { auth, seen } = fakeAuth(() => new Response(null, { status: 204 }))
    const req = await requestWith({ host: 'x.test', cookie: 'c=1' })
    await callAuthAt(auth, req, { method: 'GET', pathAndQuery: '/api/auth/a', body: { x: 1 } })
    await callAuthAt(auth, req, { method: 'POST', pathAndQuery: '/api/auth/b', anonymous: true })
    expect(seen.map((s) => s.body)).toEqual(['', ''])
    expect(seen[0]?.headers.get('content-type')).toBeNull()
    expect(seen[0]?.headers.get('cookie')).toBe('c=1')
    expect(seen[1]?.headers.get('content-type')).toBeNull()
    expect(seen[1]?.headers.get('cookie')).toBeNull()
  })

  it('refuses a body with text no column can store before better-auth sees it', async () => {
    const { auth, seen } = fakeAuth(() => Response.json({}))
    const req = await requestWith({ host: 'x.test' })
    await expect(
      callAuthAt(auth, req, {
        method: 'POST',
        pathAndQuery: '/api/auth/a',
        body: { name: 'a\u0000' },
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION' })
    expect(seen).toHaveLength(0)
  })

  it('keeps a redirect on our site and turns any other into /', async () => {
    const req = await requestWith({ host: 'x.test' })
    const redirect = (location: string, baseURL?: string) =>
      callAuthAt(
        fakeAuth(() => new Response(null, { status: 302, headers: { location } }), baseURL).auth,
        req,
        { method: 'GET', pathAndQuery: '/api/auth/verify-email' },
      ).then((r) => r.headers.get('location'))
    expect(await redirect('/dashboard?x=1')).toBe('/dashboard?x=1')
    expect(await redirect('http://x.test/patients')).toBe('http://x.test/patients')
    expect(await redirect('https://x.test/patients')).toBe('/')
    expect(await redirect('https://evil.example/')).toBe('/')
    expect(await redirect('//evil.example')).toBe('/')
    expect(await redirect('not a url')).toBe('/')
    expect(await redirect('https://crm.example.in/x', 'https://crm.example.in')).toBe(
      'https://crm.example.in/x',
    )
    expect(await redirect('http://x.test/x', 'https://crm.example.in')).toBe('/')
  })

  it('holds a url in the JSON answer to the same rule', async () => {
    const req = await requestWith({ host: 'x.test' })
    const answer = (json: unknown) =>
      callAuthAt(fakeAuth(() => Response.json(json)).auth, req, {
        method: 'GET',
        pathAndQuery: '/api/auth/a',
      })
    const away = await answer({ url: 'https://evil.example/x', redirect: true })
    expect(away.json).toEqual({ url: '/', redirect: true })
    expect(away.text).toBe('{"url":"/","redirect":true}')
    const home = await answer({ url: '/patients', redirect: true })
    expect(home.text).toBe('{"url":"/patients","redirect":true}')
    expect((await answer({ url: 5 })).json).toEqual({ url: 5 })
    const text = await callAuthAt(fakeAuth(() => new Response('plain')).auth, req, {
      method: 'GET',
      pathAndQuery: '/api/auth/a',
    })
    expect(text).toMatchObject({ json: null, text: 'plain' })
    const empty = await callAuthAt(fakeAuth(() => new Response('')).auth, req, {
      method: 'GET',
      pathAndQuery: '/api/auth/a',
    })
    expect(empty).toMatchObject({ json: null, text: '' })
  })
})

describe('sendAuthResponse', () => {
  const out = Fastify()
  let next: () => ReturnType<typeof callAuthAt>
  beforeAll(async () => {
    out.get('/out', async (_req, reply) => sendAuthResponse(reply, await next()))
    await out.ready()
  })
  afterAll(() => out.close())

  async function sent(status: number, body: string, headers: Record<string, string> = {}) {
    next = async () => {
      const response = new Response(body || null, { status, headers })
      let json: unknown
      try {
        json = body ? JSON.parse(body) : null
      } catch {
        json = null
      }
      return { status, headers: new Headers(response.headers), json, text: body }
    }
    return out.inject('/out')
  }

  it('answers errors in our one shape, with a fallback for each status', async () => {
    const cases: [number, string, { code: string; message: string }][] = [
      [400, '', { code: 'BAD_REQUEST', message: 'The request is not valid' }],
      [401, '', { code: 'UNAUTHENTICATED', message: 'Please sign in to continue' }],
      [403, '', { code: 'FORBIDDEN', message: 'You may not do this' }],
      [404, '', { code: 'NOT_FOUND', message: 'Not found' }],
      [
        429,
        '',
        { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a moment and try again.' },
      ],
      [409, '', { code: 'BAD_REQUEST', message: 'The request could not be completed' }],
      [
        500,
        '{"message":"db password is x","code":"DB"}',
        { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' },
      ],
      [
        503,
        '',
        { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' },
      ],
      [
        401,
        '{"message":"Invalid email or password","code":"INVALID_EMAIL_OR_PASSWORD"}',
        { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' },
      ],
      [403, '{"message":"","code":""}', { code: 'FORBIDDEN', message: 'You may not do this' }],
      [403, '{"message":5,"code":7}', { code: 'FORBIDDEN', message: 'You may not do this' }],
      [403, '"text"', { code: 'FORBIDDEN', message: 'You may not do this' }],
    ]
    for (const [status, body, expected] of cases) {
      const res = await sent(status, body)
      expect(res.statusCode).toBe(status)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(res.json(), `${status} ${body}`).toEqual(expected)
    }
  })

  it('sends JSON without tokens, and text or nothing as it came', async () => {
    const json = await sent(200, '{"token":"secret","user":{"id":"u1"}}')
    expect(json.body).toBe('{"user":{"id":"u1"}}')
    const text = await sent(200, 'hello')
    expect(text.body).toBe('hello')
    const none = await sent(302, '', { location: '/' })
    expect(none.statusCode).toBe(302)
    expect(none.headers.location).toBe('/')
  })
})

describe('copyHeaders', () => {
  it('copies every header but content-length, and every cookie', async () => {
    const out = Fastify()
    out.get('/h', async (_req, reply) => {
      const headers = new Headers({
        'x-one': '1',
        'content-length': '999',
        'cache-control': 'no-store',
      })
      headers.append('set-cookie', 'a=1; Path=/')
      headers.append('set-cookie', 'b=2; Path=/')
      copyHeaders(headers, reply)
      return 'ok'
    })
    out.get('/none', async (_req, reply) => {
      copyHeaders(new Headers({ 'x-two': '2' }), reply)
      return 'ok'
    })
    const res = await out.inject('/h')
    expect(res.headers['x-one']).toBe('1')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['content-length']).toBe('2')
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/'])
    expect((await out.inject('/none')).headers['set-cookie']).toBeUndefined()
    await out.close()
  })
})

describe('userOf', () => {
  it('reads the id and email of the user an answer names, when they are text', () => {
    expect(userOf({ user: { id: 'u1', email: 'a@b.in', name: 'A' } })).toEqual({
      id: 'u1',
      email: 'a@b.in',
    })
    expect(userOf({ user: { id: 1, email: null } })).toEqual({})
    expect(userOf({ user: { id: 'u1' } })).toEqual({ id: 'u1' })
    expect(userOf({ user: { email: 'a@b.in' } })).toEqual({ email: 'a@b.in' })
    expect(userOf({ user: 'u1' })).toEqual({})
    expect(userOf(null)).toEqual({})
    expect(userOf({})).toEqual({})
  })
})
