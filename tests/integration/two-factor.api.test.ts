import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserHeaders, cookieHeader, login, signIn } from '../support/login'
import { createTestApp, demoEmail, TEST_PASSWORD, type TestApp } from '../support/test-app'

let t: TestApp
const email = demoEmail('doctor', 'smiledental')

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

function totpFrom(uri: string): TOTP {
  const secret = new URL(uri).searchParams.get('secret')
  if (!secret) throw new Error(`no secret in ${uri}`)
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 })
}

describe('two-factor (TOTP) sign-in', () => {
  let totp: TOTP

  it('turns on after the first code from the authenticator is verified', async () => {
    const cookie = await login(t.app, email)
    const enable = await t.app.inject({
      method: 'POST',
      url: '/api/auth/two-factor/enable',
      headers: browserHeaders(cookie),
      payload: { password: TEST_PASSWORD },
    })
    expect(enable.statusCode).toBe(200)
    const { totpURI } = enable.json<{ totpURI: string }>()
    expect(totpURI).toMatch(/^otpauth:\/\/totp\//)
    totp = totpFrom(totpURI)
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/auth/two-factor/verify-totp',
      headers: browserHeaders(cookie),
      payload: { code: totp.generate() },
    })
    expect(verify.statusCode).toBe(200)
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: browserHeaders(cookieHeader(verify) || cookie),
    })
    expect(me.json<{ twoFactorEnabled: boolean }>().twoFactorEnabled).toBe(true)
  })

  it('then a password alone gives no session: the page must ask for the code', async () => {
    const res = await signIn(t.app, email)
    expect(res.statusCode).toBe(200)
    expect(res.json<{ twoFactorRedirect?: boolean }>().twoFactorRedirect).toBe(true)
    expect(cookieHeader(res)).not.toMatch(/arogya\.session_token=/)
    const pending = cookieHeader(res)

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/two-factor/verify-totp',
      headers: browserHeaders(pending),
      payload: { code: totp.generate() === '000000' ? '111111' : '000000' },
    })
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400)
    expect(wrong.statusCode).toBeLessThan(500)

    const right = await t.app.inject({
      method: 'POST',
      url: '/api/auth/two-factor/verify-totp',
      headers: browserHeaders(pending),
      payload: { code: totp.generate() },
    })
    expect(right.statusCode).toBe(200)
    const session = cookieHeader(right)
    expect(session).toMatch(/arogya\.session_token=/)
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: browserHeaders(session),
    })
    expect(me.statusCode).toBe(200)
    expect(me.json<{ email: string }>().email).toBe(email)
  })
})
