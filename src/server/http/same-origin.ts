import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from './app-error'

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host
  } catch {
    return null
  }
}

/**
 * CSRF guard for every state-changing API call: a browser's cross-site request is refused
 * (Sec-Fetch-Site: cross-site, or an Origin whose host is not the host the request came to,
 * nor BASE_URL's). Requests without these headers (curl, server-to-server) pass; the session
 * cookie is SameSite=Lax as well.
 */
export function registerSameOriginGuard(app: FastifyInstance, baseURL: string | undefined): void {
  const allowedHost = baseURL ? originHost(baseURL) : null
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return
    if (!req.url.startsWith('/api/')) return
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('FORBIDDEN', 'Cross-site requests are not allowed')
    }
    const origin = req.headers.origin
    if (!origin) return
    const host = originHost(origin)
    // Compare as URLs so default ports match ('x' and 'x:80' over http are the same host).
    const ownHost = originHost(`${req.protocol}://${req.host}`)
    if (host !== ownHost && host !== allowedHost) {
      throw new AppError('FORBIDDEN', 'Cross-site requests are not allowed')
    }
  })
}
