import { type MarketingPage, OG_IMAGE_PATH, SITE_NAME } from '../../../shared/marketing-pages'
import { publicBase } from '../../http/public-url'

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

export interface HeadOptions {
  /** 'https://arogya.example' (no trailing slash). */
  origin: string
  /** True when the request carries no session cookie: the client may skip asking who is signed in. */
  signedOut: boolean
  /** Hashed chunk URLs the page needs beyond the entry ('/assets/landing-page-abc.js'). */
  preload: readonly string[]
}

/**
 * index.html with the page's own title, description, canonical link, Open Graph and
 * Twitter tags, the signed-out hint and module preloads for its route chunks.
 */
export function renderMarketingHtml(
  template: string,
  page: MarketingPage,
  opts: HeadOptions,
): string {
  const url = `${opts.origin}${page.path}`
  const image = `${opts.origin}${OG_IMAGE_PATH}`
  const tags = [
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:locale" content="en_IN" />`,
    `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    `<meta property="og:image" content="${escapeHtml(image)}" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${escapeHtml(page.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(page.description)}" />`,
    `<meta name="twitter:image" content="${escapeHtml(image)}" />`,
    ...(opts.signedOut ? ['<meta name="arogya-session" content="none" />'] : []),
    ...(opts.signedOut
      ? opts.preload.map(
          (href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}" />`,
        )
      : []),
  ]
  return template
    .replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace(
      /<meta\s+name="description"[\s\S]*?\/?>/,
      `<meta name="description" content="${escapeHtml(page.description)}" />`,
    )
    .replace('</head>', `  ${tags.join('\n    ')}\n  </head>`)
}

/** The public base (http/public-url.ts): BASE_URL when configured, else the request's origin. */
export function requestOrigin(baseURL: string | undefined, protocol: string, host: string): string {
  return publicBase(baseURL, { protocol, host })
}

/** Whether a Cookie header carries a session token (better-auth, cookie prefix 'arogya'). */
export function hasSessionCookie(cookie: string | undefined): boolean {
  return cookie ? /(?:^|;\s*)(?:__Secure-)?arogya\.session_token=[^;\s]/.test(cookie) : false
}
