import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SIGNED_IN_HINT } from '@/shared/signed-in-hint'

/**
 * The signed-in hint: a script-readable cookie that says only "this browser holds a session
 * cookie", so the client asks `/api/auth/user` only when there is someone to ask about (a
 * signed-out page then makes no request that answers 401, and logs no console error). The
 * session cookie itself stays HttpOnly; the hint carries no token and grants nothing.
 *
 * It follows the session cookie: set beside it when a response sets one (sign-in, two-factor,
 * an accepted invitation), cleared when a response clears it (sign-out) or when a request that
 * carried it is answered 401 (a session that ended on the server). A page load mirrors what the
 * browser sent, so a session from before the hint existed still finds its user.
 */
export function registerSignedInHint(
  app: FastifyInstance,
  sessionCookieName: () => Promise<string>,
  /** Whether cookies are Secure: the site is served over HTTPS (BASE_URL), as in auth.ts. */
  https: boolean,
): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const name = await sessionCookieName()
    const sent = carries(req.headers.cookie, SIGNED_IN_HINT)
    const session = sessionCookieSet(reply, name)
    if (session) {
      append(reply, session.cleared ? clearHint(session.secure) : setHint(session))
    } else if (reply.statusCode === 401 && sent) {
      append(reply, clearHint(https))
    } else if (isPageLoad(req)) {
      const hasSession = carries(req.headers.cookie, name)
      if (hasSession && !sent) append(reply, setHint({ secure: https }))
      if (!hasSession && sent) append(reply, clearHint(https))
    }
    return payload
  })
}

interface SessionCookie {
  cleared: boolean
  secure: boolean
  maxAge?: string
}

/** The session cookie this response sets (or clears), if any. */
export function sessionCookieSet(reply: FastifyReply, name: string): SessionCookie | undefined {
  const header = reply.getHeader('set-cookie')
  const all = Array.isArray(header) ? header : header === undefined ? [] : [String(header)]
  // The browser applies them in order: the last one counts.
  const cookie = all.findLast((c) => c.startsWith(`${name}=`))
  if (!cookie) return undefined
  const [pair = '', ...attributes] = cookie.split(';').map((part) => part.trim())
  const value = pair.slice(name.length + 1)
  const attribute = (key: string) =>
    attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1)
  const maxAge = attribute('max-age')
  const expires = attribute('expires')
  const cleared =
    value === '' ||
    (maxAge !== undefined && Number(maxAge) <= 0) ||
    (expires !== undefined && Date.parse(expires) <= Date.now())
  const secure = attributes.some((a) => a.toLowerCase() === 'secure')
  return { cleared, secure, maxAge }
}

function setHint(session: { secure: boolean; maxAge?: string }): string {
  const age = session.maxAge !== undefined ? `; Max-Age=${session.maxAge}` : ''
  return `${SIGNED_IN_HINT}=1; Path=/; SameSite=Lax${age}${session.secure ? '; Secure' : ''}`
}

function clearHint(secure: boolean): string {
  return `${SIGNED_IN_HINT}=; Path=/; Max-Age=0; SameSite=Lax${secure ? '; Secure' : ''}`
}

/** Fastify adds a set-cookie header to those already set (it never replaces them). */
function append(reply: FastifyReply, cookie: string): void {
  reply.header('set-cookie', cookie)
}

/** A browser loading a page (the SPA's index.html), not an API call or an asset. */
function isPageLoad(req: FastifyRequest): boolean {
  if (req.method !== 'GET') return false
  if (req.url.startsWith('/api/')) return false
  return (req.headers.accept ?? '').includes('text/html')
}

/** Whether a Cookie header carries a non-empty cookie of this name (once or more). */
function carries(header: string | undefined, name: string): boolean {
  if (!header) return false
  return header.split(';').some((part) => {
    const pair = part.trim()
    return pair.startsWith(`${name}=`) && pair.length > name.length + 1
  })
}
