import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, expectNoInternals, issuePaths } from '../support/http'
import { browserHeaders, login, signIn } from '../support/login'
import { createTestApp, demoEmail, type TestApp } from '../support/test-app'

/** Malformed, oversized and hostile requests: one error body, never a stack trace, no lasting harm. */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

const me = (cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/user', headers: cookie ? { cookie } : {} })

describe('malformed requests', () => {
  it('answers broken JSON with 400 {message, code} and then serves the next request', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(),
      payload: '{"email":',
    })
    expectError(res, 400, 'BAD_REQUEST')
    expect((await signIn(t.app, demoEmail('nurse'))).statusCode).toBe(200)
  })

  it('answers a body over 1 MB with 413 and then serves the next request', async () => {
    const cookie = await login(t.app, demoEmail('admin'))
    const big = JSON.stringify({
      name: 'A',
      phone: '9876543210',
      address: 'x'.repeat(1024 * 1024 + 1),
    })
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/patients/manual',
      headers: browserHeaders(cookie),
      payload: big,
    })
    expectError(res, 413, 'PAYLOAD_TOO_LARGE')
    const signInBig = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(),
      payload: big,
    })
    expectError(signInBig, 413, 'PAYLOAD_TOO_LARGE')
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/patients?limit=1', headers: { cookie } }))
        .statusCode,
    ).toBe(200)
  })

  it('answers a form or text body with a 4xx error body, never a 5xx', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { ...browserHeaders(), 'content-type': 'text/plain' },
      payload: 'email=a&password=b',
    })
    expectError(text, 400, 'VALIDATION')
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { ...browserHeaders(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a&password=b',
    })
    expectError(form, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  it('refuses text PostgreSQL cannot store (NUL, lone surrogates) with 400, also on better-auth routes', async () => {
    const cookie = await login(t.app, demoEmail('doctor', 'smiledental'))
    for (const payload of [
      { currentPassword: 'Dr. A\u0000' },
      { newPassword: 'Dr. \uD800' },
      { currentPassword: 'x\u0000' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: browserHeaders(cookie),
        payload: JSON.stringify(payload),
      })
      expect(issuePaths(res)).toEqual(Object.keys(payload))
    }
    const signInNul = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: browserHeaders(),
      payload: JSON.stringify({ email: demoEmail('doctor', 'smiledental'), password: 'x\u0000' }),
    })
    expect(issuePaths(signInNul)).toEqual(['password'])
    // Still signed in, as Smile Dental's doctor.
    expect((await me(cookie)).json()).toMatchObject({ email: demoEmail('doctor', 'smiledental') })
  })

  it('answers unknown /api paths, inside and outside better-auth, with a JSON 404', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/nope' }), 404, 'NOT_FOUND')
    expectError(await t.app.inject({ method: 'GET', url: '/api/auth/nope' }), 404, 'NOT_FOUND')
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/nope',
        headers: browserHeaders(),
        payload: {},
      }),
      404,
      'NOT_FOUND',
    )
  })

  it('hides internal failures behind a generic 500 without a stack trace', async () => {
    await t.db.execute(sql`alter table sessions rename to sessions_away`)
    try {
      const res = await signIn(t.app, demoEmail('nurse'))
      expect(res.statusCode).toBeGreaterThanOrEqual(500)
      expectNoInternals(res)
      expect(res.body).not.toMatch(/sessions|relation|does not exist/i)
    } finally {
      await t.db.execute(sql`alter table sessions_away rename to sessions`)
    }
    expect((await signIn(t.app, demoEmail('nurse'))).statusCode).toBe(200)
  })
})
