/**
 * The one builder of public URLs (docs/decisions/009, issue 40 item 5): webhook addresses to
 * paste into a provider's console, links in emails and messages, canonical and Open Graph
 * URLs, and the URL a provider signed. Every such URL is the public base followed by a path:
 *
 * - BASE_URL when it is set, as given (a path prefix kept, trailing slashes dropped, scheme and
 *   host normalised), so the addresses Settings shows are the ones providers will call;
 * - otherwise (development, a first run without configuration) the origin the request arrived
 *   on: its Host, and X-Forwarded-Host/-Proto only from a hop that TRUST_PROXY trusts (Fastify's
 *   req.host and req.protocol). A Host that is not a plain host[:port] becomes localhost.
 *
 * Nothing else hard-codes a host.
 */

/** What a request tells about where it arrived (FastifyRequest has both). */
export interface ArrivedOn {
  protocol: string
  host: string
}

const PLAIN_HOST = /^[a-z0-9.[\]:-]+$/i

/** BASE_URL, or the request's trusted origin, with no trailing slash. */
export function publicBase(baseURL: string | undefined, req: ArrivedOn): string {
  if (baseURL) {
    const url = new URL(baseURL)
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
  }
  const scheme = req.protocol === 'https' ? 'https' : 'http'
  const host = PLAIN_HOST.test(req.host) ? req.host : 'localhost'
  try {
    return new URL(`${scheme}://${host}`).origin
  } catch {
    return `${scheme}://localhost`
  }
}

/**
 * A public URL: the public base followed by `path` (a path, with its query, starting with '/').
 *
 * @example publicUrl(env.BASE_URL, req, `/api/webhooks/sendgrid/${hospitalId}`)
 */
export function publicUrl(baseURL: string | undefined, req: ArrivedOn, path: string): string {
  return `${publicBase(baseURL, req)}${path.startsWith('/') ? path : `/${path}`}`
}
