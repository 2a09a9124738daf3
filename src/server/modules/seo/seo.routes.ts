import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { mustEnrolTwoFactor } from '../../../shared/two-factor'
import type { Actor } from '../../auth/access'
import { marketingPages } from '../../../shared/marketing-pages'
import { hasSessionCookie, renderMarketingHtml, requestOrigin } from './head'
import { marketingPreloads } from './route-chunks'
import { type StaffTags, staffHeadTags, staffPages, withStaffTags } from './staff-head'

/**
 * Search-engine and share-preview support for the signed-out site: the marketing pages
 * get their own head tags in the served HTML, and /robots.txt and /sitemap.xml are real
 * files rather than the SPA fallback. Registered only when a built client is served.
 */
export function seoRoutes(
  app: FastifyInstance,
  {
    clientDir,
    baseURL,
    actorOf,
  }: {
    clientDir: string
    baseURL?: string | undefined
    /** Who the session cookie belongs to (null: none, or no longer valid). */
    actorOf?: ((req: FastifyRequest) => Promise<Actor | null>) | undefined
  },
): void {
  const template = readFileSync(join(clientDir, 'index.html'), 'utf8')
  const preloads = marketingPreloads(clientDir)
  const staffTags = staffHeadTags(clientDir)
  const origin = (req: { protocol: string; host: string }) =>
    requestOrigin(baseURL, req.protocol, req.host)

  /**
   * A screen's tags for this request: its first reads only for a hospital member; a platform
   * account (or one that must enrol two-factor first) is shown a panel, never the hospital's
   * data, so its HTML does not ask for it either. A stale or forged cookie gets the chunks only.
   */
  async function tagsFor(req: FastifyRequest, tags: StaffTags | undefined) {
    if (!tags) return undefined
    const actor = actorOf ? await actorOf(req).catch(() => null) : null
    const member = actor?.hospitalId && !actor.isSuperAdmin && !mustEnrolTwoFactor(actor)
    return member ? tags.member : tags.modules
  }

  for (const page of marketingPages) {
    app.get(page.path, async (req, reply) => {
      const signedOut = !hasSessionCookie(req.headers.cookie)
      const html = renderMarketingHtml(template, page, {
        origin: origin(req),
        signedOut,
        preload: preloads[page.path] ?? [],
      })
      // Signed in, '/' is the staff home: its chunks and first data come along.
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Cookie')
        .type('text/html; charset=utf-8')
        .send(signedOut ? html : withStaffTags(html, await tagsFor(req, staffTags.get(page.path))))
    })
  }

  // The signed-in screens: with a session cookie the HTML preloads their chunks and first reads
  // (staff-head.ts); without one the page is the plain SPA, which sends the visitor to sign in.
  const marketingPaths = new Set<string>(marketingPages.map((p) => p.path))
  for (const path of Object.keys(staffPages).filter((p) => !marketingPaths.has(p))) {
    app.get(path, async (req, reply) => {
      const html = hasSessionCookie(req.headers.cookie)
        ? withStaffTags(template, await tagsFor(req, staffTags.get(path)))
        : template
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
