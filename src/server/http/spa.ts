import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

/**
 * Serves the built SPA: hashed assets cached for a year, index.html never cached, and
 * index.html for any other GET that is not under /api (the client router shows 404s).
 */
export async function registerSpa(app: FastifyInstance, clientDir: string): Promise<void> {
  const indexFile = join(clientDir, 'index.html')
  if (!existsSync(indexFile)) {
    app.log.warn(`No built client in ${clientDir}; run "npm run build". Serving the API only.`)
    return
  }
  await app.register(fastifyStatic, {
    root: clientDir,
    index: false,
    wildcard: false,
    setHeaders: (res, path) => {
      if (path.includes(`${join(clientDir, 'assets')}`)) {
        void res.header('cache-control', 'public, max-age=31536000, immutable')
      } else {
        void res.header('cache-control', 'public, max-age=300')
      }
    },
  })
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/'
    if (req.method === 'GET' && !path.startsWith('/api/') && path !== '/api') {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html')
    }
    return reply.status(404).send({ message: `No route for ${req.method} ${path}`, code: 'NOT_FOUND' })
  })
}
