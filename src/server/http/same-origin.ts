import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from './app-error'

/** scheme://host:port of a URL, with default ports dropped; null when it is not a URL. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}

const refuse = () => new AppError('FORBIDDEN', 'Cross-site requests are not allowed')

/**
 * CSRF guard for every state-changing API call. A write passes only when nothing says it
 * comes from elsewhere: Sec-Fetch-Site, when sent, is same-origin (or none), and an Origin
 * header, when sent, is exactly ours (scheme, host and port): the origin this request came
 * to, or BASE_URL's. `Origin: null`, an unparseable Origin and another scheme are refused.
 * Requests without these headers (curl, server-to-server) pass; no browser sends a write
 * without Origin. The session cookie is SameSite=Lax as well.
 */
export function registerSameOriginGuard(app: FastifyInstance, baseURL: string | undefined): void {
  const configured = baseURL ? originOf(baseURL) : null
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return
    if (!req.url.startsWith('/api/')) return
    const site = req.headers['sec-fetch-site']
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw refuse()
    const origin = req.headers.origin
    if (origin === undefined) return
    const sent = originOf(origin)
    if (!sent) throw refuse()
    if (sent !== originOf(`${req.protocol}://${req.host}`) && sent !== configured) throw refuse()
  })
}
