import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { TEST_PASSWORD } from './test-app'

/**
 * A browser on http://localhost sends `Host: localhost` and this Origin with every POST.
 * (app.inject() would send `Host: localhost:80`, which no browser does for a default port.)
 * Both the same-origin guard and better-auth's origin check accept only the serving host.
 */
export const HOST = 'localhost'
export const ORIGIN = `http://${HOST}`

/** Headers a same-origin browser sends with a JSON POST. */
export function browserHeaders(cookie?: string): Record<string, string> {
  return {
    host: HOST,
    origin: ORIGIN,
    'content-type': 'application/json',
    ...(cookie ? { cookie } : {}),
  }
}

/** POST /api/auth/sign-in/email as a browser would; returns the raw response. */
export function signIn(
  app: FastifyInstance,
  email: string,
  password: string = TEST_PASSWORD,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: browserHeaders(),
    payload: { email, password },
  })
}

/** The `Cookie` header value carrying the cookies a response sets (name=value; ...). */
export function cookieHeader(res: LightMyRequestResponse): string {
  const set = res.headers['set-cookie']
  const list = Array.isArray(set) ? set : set ? [set] : []
  return list
    .map((c) => c.split(';')[0] ?? '')
    .filter((pair) => pair.includes('=') && !pair.endsWith('='))
    .join('; ')
}

/** Signs in and returns the Cookie header for later requests; throws when sign-in fails. */
export async function login(
  app: FastifyInstance,
  email: string,
  password: string = TEST_PASSWORD,
): Promise<string> {
  const res = await signIn(app, email, password)
  if (res.statusCode !== 200)
    throw new Error(`sign-in of ${email} failed: ${res.statusCode} ${res.body}`)
  const cookie = cookieHeader(res)
  if (!cookie.includes('session_token'))
    throw new Error(`sign-in of ${email} set no session cookie`)
  return cookie
}

/** The session token cookie value (signed) from a Cookie header. */
export function sessionToken(cookie: string): string | undefined {
  return cookie
    .split('; ')
    .find((pair) => pair.startsWith('arogya.session_token='))
    ?.slice('arogya.session_token='.length)
}
