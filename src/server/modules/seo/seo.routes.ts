import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { marketingPages } from '../../../shared/marketing-pages'
import { hasSessionCookie, renderMarketingHtml, requestOrigin } from './head'
import { marketingPreloads } from './route-chunks'

/**
 * Search-engine and share-preview support for the signed-out site: the marketing pages
 * get their own head tags in the served HTML, and /robots.txt and /sitemap.xml are real
 * files rather than the SPA fallback. Registered only when a built client is served.
 */
export function seoRoutes(
  app: FastifyInstance,
  { clientDir, baseURL }: { clientDir: string; baseURL?: string | undefined },
): void {
  const template = readFileSync(join(clientDir, 'index.html'), 'utf8')
  const preloads = marketingPreloads(clientDir)
  const origin = (req: { protocol: string; host: string }) =>
    requestOrigin(baseURL, req.protocol, req.host)

  for (const page of marketingPages) {
    app.get(page.path, async (req, reply) => {
      const signedOut = !hasSessionCookie(req.headers.cookie)
      const html = renderMarketingHtml(template, page, {
        origin: origin(req),
        signedOut,
        preload: preloads[page.path] ?? [],
      })
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Cookie')
        .type('text/html; charset=utf-8')
        .send(html)
    })
  }

  app.get('/robots.txt', async (req, reply) => {
    const body = [
      'User-agent: *',
      'Allow: /',
      'Disallow: /api/',
      'Disallow: /login',
      '',
      `Sitemap: ${origin(req)}/sitemap.xml`,
      '',
    ].join('\n')
    return reply
      .header('cache-control', 'public, max-age=3600')
      .type('text/plain; charset=utf-8')
      .send(body)
  })

  app.get('/sitemap.xml', async (req, reply) => {
    const urls = marketingPages.map(
      (p) =>
        `  <url>\n    <loc>${origin(req)}${p.path}</loc>\n    <changefreq>monthly</changefreq>\n    <priority>${p.priority.toFixed(1)}</priority>\n  </url>`,
    )
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
    return reply
      .header('cache-control', 'public, max-age=3600')
      .type('application/xml; charset=utf-8')
      .send(body)
  })
}
