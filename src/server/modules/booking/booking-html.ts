import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { publicRoute } from '../../auth/access'
import type { BookingPage } from '../../../shared/schemas/booking'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { hasSessionCookie, requestOrigin } from '../seo/head'
import { getBookingPage } from './booking.service'

/**
 * GET /book/:slug, the public booking page's HTML: index.html with the hospital's title and
 * description, 200 when the page is on and 404 (the client's "not available" state) when it is
 * off or unknown, the signed-out hint (no session round trip), module preloads of the page's
 * chunks (fetched in parallel, not in a waterfall) and the page's data as a JSON data block
 * (#booking-data: not executed, so the CSP allows it), so the first render is the whole page:
 * no second round trip and no layout shift.
 */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>

/** What the client loads for this page after main.tsx (Vite's manifest keys, root src/client). */
const PAGE_MODULES = [
  'app.tsx',
  'router.tsx',
  'public-routes.tsx',
  'features/booking/booking-page.tsx',
]

function closure(manifest: Manifest, key: string, seen: Set<string>): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen
  seen.add(key)
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, seen)
  return seen
}

/** The page's JavaScript files beyond what the entry loads itself. */
export function bookingPreloads(clientDir: string): string[] {
  const file = join(clientDir, '.vite/manifest.json')
  if (!existsSync(file)) return []
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry)
  const loaded = entry ? closure(manifest, entry, new Set()) : new Set<string>()
  const keys = new Set<string>()
  for (const m of PAGE_MODULES) closure(manifest, m, keys)
  return [...keys]
    .filter((k) => !loaded.has(k))
    .flatMap((k) => (manifest[k]?.file.endsWith('.js') ? [`/${manifest[k].file}`] : []))
}

/**
 * The page's header as static HTML in #root, painted before any script runs (first and largest
 * contentful paint); React replaces it with the same markup (features/booking/components/
 * page-shell.tsx: keep the two alike), so nothing moves.
 */
export function bookingHeaderHtml(hospital: BookingPage['hospital']): string {
  const address = hospital.address
    ? `<p class="text-sm text-slate-600">${escapeHtml(hospital.address)}</p>`
    : ''
  return `<div class="min-h-screen bg-slate-50"><header class="border-b border-slate-200 bg-white"><div class="mx-auto max-w-xl px-4 py-4"><p class="text-sm font-medium text-brand-700">Book an appointment</p><h1 class="text-xl font-semibold text-slate-900">${escapeHtml(hospital.name)}</h1>${address}</div></header></div>`
}

export function renderBookingHtml(
  template: string,
  page: { title: string; description: string; url: string | null; data?: BookingPage },
  opts: { signedOut: boolean; preload: readonly string[] },
): string {
  const tags = [
    ...(page.url ? [`<link rel="canonical" href="${escapeHtml(page.url)}" />`] : []),
    `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
    ...(opts.signedOut ? ['<meta name="arogya-session" content="none" />'] : []),
    ...(page.data
      ? [
          `<script id="booking-data" type="application/json">${JSON.stringify(page.data).replace(/</g, () => '\\u003c')}</script>`,
        ]
      : []),
    ...(opts.signedOut
      ? opts.preload.map(
          (href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}" />`,
        )
      : []),
  ]
  const root = page.data ? bookingHeaderHtml(page.data.hospital) : ''
  // Replacer functions, never replacement strings: in those `$'`, `$&` or `$1` in a hospital's
  // name or texts would pull in other parts of the page (issue 39, item 16).
  return template
    .replace('<div id="root"></div>', () => `<div id="root">${root}</div>`)
    .replace(/<title>[\s\S]*?<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
    .replace(
      /<meta\s+name="description"[\s\S]*?\/?>/,
      () => `<meta name="description" content="${escapeHtml(page.description)}" />`,
    )
    .replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`)
}

/** The page's data when it is on; null when it is off or the slug unknown. */
async function openPage(db: AppDb, slug: string): Promise<BookingPage | null> {
  try {
    return await getBookingPage(db, slug)
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null
    throw error
  }
}

export function bookingPageRoute(
  app: FastifyInstance,
  deps: { db: AppDb; clientDir: string; baseURL?: string | undefined },
): void {
  const indexFile = join(deps.clientDir, 'index.html')
  if (!existsSync(indexFile)) return
  const template = readFileSync(indexFile, 'utf8')
  const preload = bookingPreloads(deps.clientDir)
  app.get('/book/:slug', { config: publicRoute }, async (req, reply) => {
    const { slug } = req.params as { slug: string }
    const data = await openPage(deps.db, slug)
    const name = data?.hospital.name
    const origin = requestOrigin(deps.baseURL, req.protocol, req.host)
    const page = name
      ? {
          title: `Book an appointment · ${name}`,
          description: `Book an appointment at ${name} online: choose a service, a doctor and a free time, and confirm with a code sent to your mobile.`,
          url: `${origin}/book/${encodeURIComponent(slug)}`,
          data: data ?? undefined,
        }
      : {
          title: 'Booking page not available · Arogya CRM',
          description: 'This online booking page is not available. Please contact the clinic.',
          url: null,
        }
    const html = renderBookingHtml(template, page, {
      signedOut: !hasSessionCookie(req.headers.cookie),
      preload,
    })
    return reply
      .status(name ? 200 : 404)
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie')
      .type('text/html; charset=utf-8')
      .send(html)
  })
}
