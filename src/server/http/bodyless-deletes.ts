import type { FastifyInstance } from 'fastify'
import { AppError } from './app-error'

/**
 * The API takes JSON bodies only, and a route refuses any other body when it validates its
 * input. A DELETE validates no body, so one sent with it (a form, text/plain) would be ignored
 * and the delete done: refuse it instead (415), like any other write with a body it cannot take.
 * A preHandler registered after access control: who may call the route is answered first.
 */
export function registerBodylessDeletes(app: FastifyInstance): void {
  app.addHook('preHandler', async (req) => {
    if (req.method !== 'DELETE' || !req.url.startsWith('/api/')) return
    if (req.body !== undefined && req.body !== null) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'A DELETE request takes no body')
    }
  })
}
