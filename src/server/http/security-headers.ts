import type { FastifyInstance } from 'fastify'

/** Browser features the app never uses are switched off for it and anything it embeds. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'browsing-topics=()',
].join(', ')

/**
 * Headers beside helmet's: Permissions-Policy everywhere, and `Cache-Control: no-store` on
 * every API answer (patient data must not sit in browser or proxy caches) unless a route
 * set its own.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    void reply.header('permissions-policy', PERMISSIONS_POLICY)
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      void reply.header('cache-control', 'no-store')
    }
    return payload
  })
}
