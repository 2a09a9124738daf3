import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIGNED_IN_HINT } from '../../src/shared/signed-in-hint'
import { browserHeaders, HOST, login, signIn } from '../support/login'
import { createTestApp, demoEmail, type TestApp } from '../support/test-app'

// Issue 40 item 17: signed-out pages ask nobody who is signed in. The client asks
// /api/auth/user only when the script-readable hint says the browser holds a session cookie;
// the server keeps that hint in step with the HttpOnly session cookie.
let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

function hintOf(res: LightMyRequestResponse): string | undefined {
  const set = res.headers['set-cookie']
  const list = Array.isArray(set) ? set : set ? [set] : []
  return list.find((c) => c.startsWith(`${SIGNED_IN_HINT}=`))
}

const pageLoad = (path: string, cookie?: string) =>
  t.app.inject({
    method: 'GET',
    url: path,
    headers: { host: HOST, accept: 'text/html', ...(cookie ? { cookie } : {}) },
  })

describe('the signed-in hint cookie', () => {
  it('is set beside the session cookie at sign-in, readable by scripts, carrying no token', async () => {
    const res = await signIn(t.app, demoEmail('receptionist'))
    expect(res.statusCode).toBe(200)
    const hint = hintOf(res)
    expect(hint).toMatch(new RegExp(`^${SIGNED_IN_HINT.replace('.', '\\.')}=1;`))
    expect(hint).not.toMatch(/httponly/i)
    expect(hint).toMatch(/Path=\/; SameSite=Lax/)
    // It lasts as long as the session cookie it follows.
    const set = res.headers['set-cookie'] as string[]
    // Every other cookie once: the hint is added, nothing repeated.
    expect(set.filter((c) => c.includes('session_token='))).toHaveLength(1)
    expect(set.filter((c) => c.startsWith(`${SIGNED_IN_HINT}=`))).toHaveLength(1)
    const session = set.find((c) => c.includes('session_token='))
    expect(session).toMatch(/httponly/i)
    const age = (c: string | undefined) => /Max-Age=(\d+)/i.exec(c ?? '')?.[1]
    expect(age(hint)).toBe(age(session))
  })

  it('is cleared with the session at sign-out', async () => {
    const cookie = await login(t.app, demoEmail('viewer'))
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { ...browserHeaders(`${cookie}; ${SIGNED_IN_HINT}=1`) },
      payload: {},
    })
    expect(res.statusCode).toBe(303)
    expect(hintOf(res)).toMatch(/Max-Age=0/)
  })

  it('is cleared when a request that carried it finds no session (401)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { host: HOST, cookie: `arogya.session_token=gone.sig; ${SIGNED_IN_HINT}=1` },
    })
    expect(res.statusCode).toBe(401)
    expect(hintOf(res)).toMatch(/Max-Age=0/)
  })

  it('follows the session cookie on a page load: set when missing, cleared when stale', async () => {
    const cookie = await login(t.app, demoEmail('doctor'))
    const session = cookie
      .split('; ')
      .filter((pair) => !pair.startsWith(`${SIGNED_IN_HINT}=`))
      .join('; ')
    // A session from before the hint existed: the page load restores the hint.
    expect(hintOf(await pageLoad('/patients', session))).toMatch(/=1;/)
    // A hint without a session: cleared.
    expect(hintOf(await pageLoad('/pricing', `${SIGNED_IN_HINT}=1`))).toMatch(/Max-Age=0/)
    // In step already: nothing to say.
    expect(hintOf(await pageLoad('/patients', `${session}; ${SIGNED_IN_HINT}=1`))).toBeUndefined()
    expect(hintOf(await pageLoad('/pricing'))).toBeUndefined()
    // API answers never touch it unless they set or end the session.
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { host: HOST, cookie: session },
    })
    expect(api.statusCode).toBe(200)
    expect(hintOf(api)).toBeUndefined()
  })
})
