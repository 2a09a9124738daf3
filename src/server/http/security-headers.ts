import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

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

/** One year, subdomains included (helmet's default value). */
export const HSTS = 'max-age=31536000; includeSubDomains'

/**
 * Whether the site is served over https: BASE_URL's scheme when it is set, else the scheme
 * the request arrived with as the server sees it (X-Forwarded-Proto only from a hop that
 * TRUST_PROXY trusts), e.g. `npm start` behind a TLS proxy without BASE_URL.
 */
export function servedOverHttps(req: FastifyRequest, baseURL: string | undefined): boolean {
  return baseURL ? baseURL.startsWith('https://') : req.protocol === 'https'
}

/** Every cookie this answer sets gets the Secure attribute. */
function secureCookies(reply: FastifyReply): void {
  const set = reply.getHeader('set-cookie')
  if (set === undefined) return
  const list = (Array.isArray(set) ? set : [set]).map(String)
  // reply.header() appends to set-cookie: replace the list instead.
  void reply.removeHeader('set-cookie')
  void reply.header(
    'set-cookie',
    list.map((c) => (/;\s*secure\s*(;|$)/i.test(c) ? c : `${c}; Secure`)),
  )
}

/**
 * Headers that govern a document (what it may load, frame or send), not a script or a
 * stylesheet it loads. A staff screen loads 35 to 50 hashed chunks over HTTP/1.1; each carried
 * about 800 bytes of these for nothing. X-Content-Type-Options, Cross-Origin-Resource-Policy
 * and HSTS stay on every answer.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const

/** A built, hashed script or stylesheet (dist/client/assets), never a document. */
function isHashedScriptOrStyle(req: FastifyRequest, reply: FastifyReply): boolean {
  if (!req.url.startsWith('/assets/') || reply.statusCode !== 200) return false
  const type = String(reply.getHeader('content-type') ?? '')
  return /^(application|text)\/javascript|^text\/css/.test(type)
}

/**
 * Headers beside helmet's: Permissions-Policy on everything but hashed scripts and styles (whose
 * document-only headers go); `Cache-Control: no-store` on every
 * API answer (patient data must not sit in browser or proxy caches) unless a route set its
 * own; and, when served over https (servedOverHttps), HSTS and Secure on every cookie. Over
 * plain http neither: HSTS there would be ignored, and a Secure cookie would not come back.
 */
export function registerSecurityHeaders(app: FastifyInstance, baseURL: string | undefined): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (isHashedScriptOrStyle(req, reply)) {
      for (const name of DOCUMENT_ONLY_HEADERS) void reply.removeHeader(name)
    } else {
      void reply.header('permissions-policy', PERMISSIONS_POLICY)
    }
    if (servedOverHttps(req, baseURL)) {
      void reply.header('strict-transport-security', HSTS)
      secureCookies(reply)
    }
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      void reply.header('cache-control', 'no-store')
    }
    return payload
  })
}
