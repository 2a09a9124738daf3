import { Secret, TOTP } from 'otpauth'
import type { FastifyInstance } from 'fastify'
import { browserHeaders, cookieHeader, login, signIn } from './login'
import { SUPER_ADMIN_EMAIL, TEST_PASSWORD } from './test-app'

/** The authenticator app's view of an otpauth:// URI. */
export function totpFrom(uri: string): TOTP {
  const secret = new URL(uri).searchParams.get('secret')
  if (!secret) throw new Error(`no secret in ${uri}`)
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 })
}

/** Turns on two-factor for a signed-in user; returns the authenticator and the new cookie. */
export async function enrolTwoFactor(
  app: FastifyInstance,
  cookie: string,
  password: string = TEST_PASSWORD,
): Promise<{ totp: TOTP; cookie: string }> {
  const enable = await app.inject({
    method: 'POST',
    url: '/api/auth/two-factor/enable',
    headers: browserHeaders(cookie),
    payload: { password },
  })
  if (enable.statusCode !== 200) throw new Error(`enable: ${enable.statusCode} ${enable.body}`)
  const totp = totpFrom(enable.json<{ totpURI: string }>().totpURI)
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/two-factor/verify-totp',
    headers: browserHeaders(cookie),
    payload: { code: totp.generate() },
  })
  if (verify.statusCode !== 200) throw new Error(`verify: ${verify.statusCode} ${verify.body}`)
  return { totp, cookie: cookieHeader(verify) || cookie }
}

/** Signs in with password and TOTP code; returns the session cookie. */
export async function loginWithTotp(
  app: FastifyInstance,
  email: string,
  totp: TOTP,
  password: string = TEST_PASSWORD,
): Promise<string> {
  const first = await signIn(app, email, password)
  if (first.statusCode !== 200) throw new Error(`sign-in: ${first.statusCode} ${first.body}`)
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/two-factor/verify-totp',
    headers: browserHeaders(cookieHeader(first)),
    payload: { code: totp.generate() },
  })
  if (verify.statusCode !== 200) throw new Error(`totp: ${verify.statusCode} ${verify.body}`)
  return cookieHeader(verify)
}

const superAdmins = new WeakMap<FastifyInstance, TOTP>()

/**
 * A super admin session. Platform accounts must use two-factor, so the first call enrols the
 * seeded super admin and later calls sign in with password and code.
 */
export async function loginSuperAdmin(app: FastifyInstance): Promise<string> {
  const known = superAdmins.get(app)
  if (known) return loginWithTotp(app, SUPER_ADMIN_EMAIL, known)
  const { totp, cookie } = await enrolTwoFactor(app, await login(app, SUPER_ADMIN_EMAIL))
  superAdmins.set(app, totp)
  return cookie
}
