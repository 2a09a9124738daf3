import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Actor } from '../auth/access'
import { seoRoutes } from '../modules/seo/seo.routes'

/**
 * Serves the built SPA's files: hashed assets cached for a year, the rest briefly, plus the
 * marketing pages' head tags, /robots.txt and /sitemap.xml (modules/seo).
 * Returns whether a built client was found (the not-found handler then serves index.html).
 */
export async function registerSpa(
  app: FastifyInstance,
  clientDir: string,
  baseURL?: string | undefined,
  actorOf?: (req: FastifyRequest) => Promise<Actor | null>,
): Promise<boolean> {
  const indexFile = join(clientDir, 'index.html')
  if (!existsSync(indexFile)) {
    app.log.warn(`No built client in ${clientDir}; run "npm run build". Serving the API only.`)
    return false
  }
  await app.register(fastifyStatic, {
    root: clientDir,
    index: false,
    wildcard: false,
    // scripts/precompress.mjs writes .br and .gz beside the hashed assets at build time.
    preCompressed: true,
    // Our own Cache-Control below (send's default would overwrite it).
    cacheControl: false,
    setHeaders: (res, path) => {
      if (path.includes(`${join(clientDir, 'assets')}`)) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable')
      } else {
        res.setHeader('cache-control', 'public, max-age=300')
      }
    },
  })
  seoRoutes(app, { clientDir, baseURL, actorOf })
  return true
}
