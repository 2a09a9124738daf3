import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SeenRoute } from '../support/route-recorder'
import { trustedOriginsFor } from '../../src/server/auth/auth'
import { AUTH_BASE, authEndpoints } from '../../src/server/auth/endpoints'
import {
  expectNoOffSiteRedirect,
  groups,
  query,
  targets,
  type Answer,
} from '../support/hostile-redirects'
import { cookieHeader } from '../support/login'
import { lastMailTo } from '../support/mail'
import { createTestApp, demoEmail, type TestApp } from '../support/test-app'

// Issue 17: no redirect target leaves the site, with and without BASE_URL. The walks send
// thousands of requests: their time limits are generous for a shared, busy machine.

/** Every GET route the app registers, seen by an onRoute hook added at creation. */
const routes = vi.hoisted(() => [] as SeenRoute[])
vi.mock('fastify', async (importOriginal) => {
  const { recordingFastify } = await import('../support/route-recorder')
  return recordingFastify(await importOriginal(), routes)
})

interface Setup {
  name: string
  baseURL?: string
  /** The origin a browser uses (and the app must treat as its own). */
  origin: string
  /** Headers a same-origin browser (through the proxy) sends. */
  headers: Record<string, string>
}

const setups: Setup[] = [
  {
    name: 'without BASE_URL',
    origin: 'http://localhost',
    headers: { host: 'localhost', origin: 'http://localhost' },
  },
  {
    name: 'with BASE_URL',
    baseURL: 'https://crm.example',
    origin: 'https://crm.example',
    headers: { host: 'crm.example', origin: 'https://crm.example', 'x-forwarded-proto': 'https' },
  },
]

let clientDir: string
beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'arogya-redirects-'))
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>')
})
afterAll(() => rmSync(clientDir, { recursive: true, force: true }))

describe.each(setups)('redirect targets $name', (setup) => {
  let t: TestApp
  let requests = 0
  beforeAll(async () => {
    routes.length = 0
    t = await createTestApp({
      ...(setup.baseURL ? { baseURL: setup.baseURL } : {}),
      // The proxy in front is 127.0.0.1 (inject's address); anyone else's X-Forwarded-* is ignored.
      trustProxy: ['127.0.0.1'],
      clientDir,
    })
  })
  afterAll(async () => {
    console.log(`redirects ${setup.name}: ${requests} requests, none off-site`)
    await t?.close()
  })

  const inject = (opts: {
    method: 'GET' | 'POST'
    url: string
    cookie?: string
    payload?: object
  }): Promise<LightMyRequestResponse> => {
    requests++
    return t.app.inject({
      method: opts.method,
      url: opts.url,
      headers: {
        ...setup.headers,
        ...(opts.payload ? { 'content-type': 'application/json' } : {}),
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
      },
      ...(opts.payload ? { payload: opts.payload } : {}),
    })
  }

  async function signIn(email: string): Promise<string> {
    const res = await inject({
      method: 'POST',
      url: `${AUTH_BASE}/sign-in/email`,
      payload: { email, password: 'arogya-test-password-2026' },
    })
    expect(res.statusCode, res.body).toBe(200)
    return cookieHeader(res)
  }

  it('gives better-auth only our origin, never a wildcard', async () => {
    const options = t.auth.options
    // A string or nothing: `{ allowedHosts }` would make better-auth trust http://* and https://*.
    expect(typeof options.baseURL === 'object').toBe(false)
    expect(options.baseURL).toBe(setup.baseURL)
    const ctx = await t.auth.$context
    expect(ctx.trustedOrigins.join(' ')).not.toContain('*')
    const at = (url: string) => new Request(url)
    const given = (url: string) =>
      typeof options.trustedOrigins === 'function'
        ? options.trustedOrigins(at(url))
        : options.trustedOrigins
    if (setup.baseURL) {
      expect([...new Set(ctx.trustedOrigins)]).toEqual([setup.origin])
      expect(await given('http://localhost/api/auth/get-session')).toEqual([setup.origin])
    } else {
      expect(ctx.trustedOrigins).toEqual([])
      expect(await given('http://localhost/api/auth/get-session')).toEqual(['http://localhost'])
      expect(await given('https://clinic.example:8443/api/auth/x')).toEqual([
        'https://clinic.example:8443',
      ])
    }
    expect(trustedOriginsFor(setup.baseURL, at('http://elsewhere.example/'))).toEqual(
      setup.baseURL ? [setup.origin] : ['http://elsewhere.example'],
    )
  })

  it('better-auth itself refuses callback URLs off our origin (called directly, without our filter)', async () => {
    // Where the request arrives as better-auth sees it (callAuth builds this URL from the
    // server's view): our origin, or for BASE_URL another host the proxy may use internally.
    const arrival = setup.baseURL ? 'http://internal:5000' : setup.origin
    const verify = (callbackURL: string, at = arrival) =>
      t.auth.handler(
        new Request(
          `${at}${AUTH_BASE}/verify-email?token=abc&callbackURL=${encodeURIComponent(callbackURL)}`,
        ),
      )
    for (const target of [
      'https://evil.example/phish',
      'http://evil.example/phish',
      'http://127.0.0.1.evil.example/',
      `${setup.origin}.evil.example/`,
      `${setup.origin}@evil.example/`,
      '//evil.example/',
      '/\\evil.example',
      '/%2f%2fevil.example',
      'javascript:alert(1)',
      'data:text/html,x',
      'http://internal:5000/patients',
    ]) {
      if (!setup.baseURL && target.startsWith('http://internal')) continue
      const res = await verify(target)
      expect(res.status, target).toBe(403)
      expect(res.headers.get('location'), target).toBeNull()
    }
    // Our own origin (and a safe path) it follows: the list is enforced, not everything refused.
    const own = await verify(`${setup.origin}/patients`)
    expect(own.status).toBe(302)
    expect(own.headers.get('location')).toBe(`${setup.origin}/patients?error=INVALID_TOKEN`)
    const path = await verify('/patients')
    expect(path.headers.get('location')).toBe('/patients?error=INVALID_TOKEN')
    if (!setup.baseURL) {
      // Trust follows the origin the request arrived on: another host's URL is refused.
      expect((await verify('http://localhost/patients', 'http://127.0.0.1:5000')).status).toBe(403)
    }
    // The scan's password-reset link (an endpoint we do not expose) is refused inside as well.
    const reset = await t.auth.handler(
      new Request(`${arrival}${AUTH_BASE}/reset-password/abc?callbackURL=https://evil.example/x`),
    )
    expect(reset.headers.get('location')).toBeNull()
    // And in POST bodies: callbackURL on send-verification-email.
    const send = await t.auth.handler(
      new Request(`${arrival}${AUTH_BASE}/send-verification-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'x@example.com', callbackURL: 'https://evil.example/x' }),
      }),
    )
    expect(send.status).toBe(403)
  })

  it('walks every exposed better-auth endpoint with hostile targets, signed out and in', async () => {
    const endpoints = [
      ...authEndpoints,
      { method: 'POST' as const, path: '/sign-in/email' },
      // Not exposed: these must stay 404 whatever they carry.
      { method: 'GET' as const, path: '/reset-password/abc' },
      { method: 'POST' as const, path: '/request-password-reset' },
      { method: 'POST' as const, path: '/sign-up/email' },
      { method: 'POST' as const, path: '/sign-in/social' },
    ]
    for (const endpoint of endpoints) {
      for (const signedIn of [false, true]) {
        const cookie = signedIn ? await signIn(demoEmail('receptionist')) : undefined
        for (const params of groups()) {
          const url = `${AUTH_BASE}${endpoint.path}${query(params, '&token=abc')}`
          const what = `${endpoint.method} ${endpoint.path} ${signedIn ? 'in' : 'out'} ${JSON.stringify(params)}`
          const res = await inject({
            method: endpoint.method,
            url,
            ...(cookie ? { cookie } : {}),
            ...(endpoint.method === 'POST'
              ? { payload: { email: demoEmail('receptionist'), ...params } }
              : {}),
          })
          expectNoOffSiteRedirect(res, setup.origin, what)
        }
      }
    }
  }, 240_000)

  it('sends a valid activation link with a hostile callbackURL to / (and the link is on our origin)', async () => {
    const email = `redirects-${setup.baseURL ? 'base' : 'own'}@clinic.example`
    const started = await inject({
      method: 'POST',
      url: `${AUTH_BASE}/trial`,
      payload: {
        hospitalName: 'Redirect Test Clinic',
        name: 'Asha Rao',
        email,
        password: 'trial-password-2026',
        phone: '098765 43210',
      },
    })
    expect(started.statusCode, started.body).toBe(202)
    const mail = lastMailTo(t.db, email)
    const link = /(https?:\/\/\S+\/api\/auth\/verify-email\?\S+)/.exec(mail?.text ?? '')?.[1]
    expect(link, mail?.text).toBeDefined()
    const url = new URL(link ?? '')
    expect(url.origin).toBe(setup.origin)
    url.searchParams.set('callbackURL', 'https://evil.example/phish')
    const open = await inject({ method: 'GET', url: `${url.pathname}${url.search}` })
    expect(open.statusCode).toBe(302)
    expect(open.headers.location).toBe('/')
    expect(cookieHeader(open)).toContain('session_token=')
  })

  it('every GET route of the app and sign-out keep their redirects on the site', async () => {
    const gets = [
      ...new Set(
        routes
          // The live-event stream answers a signed-in GET with a stream that stays open (it
          // redirects nowhere; signed out it is a 401 like any API route).
          .filter(
            (r) => r.method === 'GET' && !r.url.includes('*') && r.url !== '/api/events/messages',
          )
          .map((r) => r.url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000')),
      ),
    ]
    expect(gets).toEqual(expect.arrayContaining(['/api/login', '/api/logout']))
    for (const signedIn of [false, true]) {
      for (const path of gets) {
        // One session per route: sign-out ends it on the first request, the rest run signed out.
        const cookie = signedIn ? await signIn(demoEmail('viewer')) : undefined
        for (const params of groups()) {
          const url = `${path}${query(params, '&signup=1')}`
          const res = await inject({ method: 'GET', url, ...(cookie ? { cookie } : {}) })
          expectNoOffSiteRedirect(res, setup.origin, `GET ${url}`)
        }
      }
    }
    for (const params of groups()) {
      const cookie = await signIn(demoEmail('viewer'))
      const post = await inject({ method: 'POST', url: `/api/logout${query(params)}`, cookie })
      expect(post.statusCode).toBe(303)
      expectNoOffSiteRedirect(post, setup.origin, `POST /api/logout ${JSON.stringify(params)}`)
    }
    // Sign-in's own target is validated by the shared rule (400, no session).
    for (const callbackURL of targets) {
      const res = await inject({
        method: 'POST',
        url: `${AUTH_BASE}/sign-in/email`,
        payload: {
          email: demoEmail('viewer'),
          password: 'arogya-test-password-2026',
          callbackURL,
        },
      })
      expect(res.statusCode, callbackURL).toBe(400)
      expect(res.headers['set-cookie']).toBeUndefined()
    }
  }, 240_000)

  describe('over a real socket (paths exactly as sent)', () => {
    let port = 0
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' })
      port = (t.app.server.address() as AddressInfo).port
    })

    function raw(path: string): Promise<Answer> {
      requests++
      return new Promise((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, method: 'GET', path, headers: setup.headers },
          (res) => {
            let body = ''
            res.setEncoding('utf8')
            res.on('data', (c: string) => (body += c))
            res.on('end', () =>
              resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body }),
            )
          },
        )
        req.on('error', reject)
        req.end()
      })
    }

    it('no spelling of a target or of the path itself leads off-site', async () => {
      const sendable = targets.filter((x) => !/[^\u0021-\u007e]/.test(x))
      for (const target of sendable) {
        for (const path of [
          `${AUTH_BASE}/verify-email?token=abc&callbackURL=${target}`,
          `${AUTH_BASE}/verify-email?callbackURL=${target}&token=abc&callbackURL=/`,
          `/api/login?next=${target}`,
          `/api/logout?next=${target}`,
          `/login?next=${target}`,
        ]) {
          expectNoOffSiteRedirect(await raw(path), setup.origin, path)
        }
      }
      for (const path of [
        '//evil.example/',
        '//evil.example/%2e%2e',
        '///evil.example/login',
        '/\\evil.example',
        '/\\/evil.example/',
        '/%2f%2fevil.example',
        '/%5cevil.example',
        '/api/..//evil.example',
        '//evil.example/api/logout',
        '/api/logout/',
        '/api/login/',
      ]) {
        expectNoOffSiteRedirect(await raw(path), setup.origin, path)
      }
    }, 240_000)
  })
})
