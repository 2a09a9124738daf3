import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from './app-error'

/** scheme://host:port of a URL, with default ports dropped; null when it is not a URL. */
export function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}

/**
 * "Our origin" (docs/decisions/009): BASE_URL's when it is set, else the origin the request
 * arrived on as the server sees it: its Host, and X-Forwarded-Host/-Proto only from a hop that
 * TRUST_PROXY trusts (Fastify's req.host and req.protocol).
 */
export function ownOrigin(req: FastifyRequest, baseURL: string | undefined): string | null {
  return originOf(baseURL ?? `${req.protocol}://${req.host}`)
}

const refuse = () => new AppError('FORBIDDEN', 'Cross-site requests are not allowed')

/**
 * CSRF guard for every state-changing API call. A write passes only when nothing says it
 * comes from elsewhere: Sec-Fetch-Site, when sent, is same-origin (or none), and an Origin
 * header, when sent, is exactly ours (scheme, host and port): BASE_URL's when it is set, else
 * the origin this request came to (ownOrigin). `Origin: null`, an unparseable Origin and another scheme are refused.
 * Requests without these headers (curl, server-to-server) pass; no browser sends a write
 * without Origin. The session cookie is SameSite=Lax as well.
 */
export function registerSameOriginGuard(app: FastifyInstance, baseURL: string | undefined): void {
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return
    if (!req.url.startsWith('/api/')) return
    const site = req.headers['sec-fetch-site']
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw refuse()
    const origin = req.headers.origin
    if (origin === undefined) return
    const sent = originOf(origin)
    if (!sent) throw refuse()
    if (sent !== ownOrigin(req, baseURL)) throw refuse()
  })
}
