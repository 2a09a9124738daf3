import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { marketingPages } from '../../../shared/marketing-pages'
import { type App, buildApp } from '../../app'
import { openDatabase } from '../../db/client'
import { login } from '../../../../tests/support/login'
import { createTestApp, demoEmail, type TestApp } from '../../../../tests/support/test-app'
import { loginSuperAdmin } from '../../../../tests/support/two-factor'
import { hasSessionCookie, renderMarketingHtml, requestOrigin } from './head'
import { STAFF_FIRST_PAINT } from './staff-head'

const template = `<!doctype html>
<html lang="en-IN">
  <head>
    <title>Default title</title>
    <meta
      name="description"
      content="Default description"
    />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`

const manifest = {
  'main.tsx': { file: 'assets/index-abc.js', isEntry: true, imports: ['_jsx.js'] },
  '_jsx.js': { file: 'assets/jsx-1.js' },
  'marketing-app.tsx': {
    file: 'assets/marketing-app-2.js',
    imports: ['_jsx.js'],
    isDynamicEntry: true,
  },
  'features/marketing/landing-page.tsx': {
    file: 'assets/landing-page-3.js',
    imports: ['_shared.js'],
  },
  '_shared.js': { file: 'assets/shared-4.js' },
  'features/marketing/pricing-page.tsx': {
    file: 'assets/pricing-page-5.js',
    imports: ['_shared.js'],
  },
  'features/marketing/add-ons-page.tsx': { file: 'assets/add-ons-page-6.js' },
  'app.tsx': { file: 'assets/app-7.js', imports: ['_jsx.js'], isDynamicEntry: true },
  'staff-app.tsx': { file: 'assets/staff-app-8.js', imports: ['_shared.js'] },
  'features/patients/patients-page.tsx': { file: 'assets/patients-page-9.js' },
  'features/dashboard/home-page.tsx': { file: 'assets/home-page-10.js' },
}

let dir: string
let built: App
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arogya-seo-'))
  mkdirSync(join(dir, '.vite'))
  writeFileSync(join(dir, 'index.html'), template)
  writeFileSync(join(dir, '.vite/manifest.json'), JSON.stringify(manifest))
  built = await buildApp({
    database: await openDatabase({}),
    authSecret: 'x'.repeat(40),
    clientDir: dir,
    logLevel: 'silent',
  })
})
afterAll(async () => {
  await built?.app.close()
  await built?.database.close()
  rmSync(dir, { recursive: true, force: true })
})

const get = (url: string, headers: Record<string, string> = {}) =>
  built.app.inject({ method: 'GET', url, headers: { host: 'crm.example.in', ...headers } })

describe('marketing page heads', () => {
  it.each(marketingPages.map((p) => [p.path, p]))(
    '%s gets its own title, description, canonical and Open Graph tags',
    async (path, page) => {
      const res = await get(path)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.headers.vary).toMatch(/Cookie/)
      const html = res.body
      expect(html.match(/<title>/g)).toHaveLength(1)
      expect(html).toContain(`<title>${page.title.replace(/&/g, '&amp;')}</title>`)
      expect(html.match(/name="description"/g)).toHaveLength(1)
      expect(html).toContain(`<meta name="description" content="${page.description}" />`)
      expect(html).toContain(`<link rel="canonical" href="http://crm.example.in${path}" />`)
      expect(html).toContain(`<meta property="og:url" content="http://crm.example.in${path}" />`)
      expect(html).toContain(
        '<meta property="og:image" content="http://crm.example.in/og-image.png" />',
      )
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />')
    },
  )

  it('tells a visitor without a session cookie that nobody is signed in, and preloads the route chunks', async () => {
    const html = (await get('/')).body
    expect(html).toContain('<meta name="arogya-session" content="none" />')
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/marketing-app-2.js" />',
    )
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/landing-page-3.js" />',
    )
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/shared-4.js" />')
    // Already loaded by the entry: not preloaded twice.
    expect(html).not.toContain('modulepreload" crossorigin href="/assets/jsx-1.js')
    expect((await get('/add-ons')).body).not.toContain('landing-page-3.js')
  })

  it('sends neither the hint nor the preloads when a session cookie comes along', async () => {
    const html = (await get('/pricing', { cookie: 'theme=dark; arogya.session_token=abc.def' }))
      .body
    expect(html).not.toContain('arogya-session')
    expect(html).not.toContain('landing-page-3.js')
  })

  it('compresses the page', async () => {
    const res = await get('/', { 'accept-encoding': 'gzip' })
    expect(res.headers['content-encoding']).toBe('gzip')
  })

  it('leaves other paths to the SPA fallback with the default head', async () => {
    const res = await get('/login')
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<title>Default title</title>')
    expect(res.body).not.toContain('canonical')
  })
})

describe('signed-in screens', () => {
  // Real sessions on a seeded app: the first reads go only to a hospital member's HTML.
  let seeded: TestApp
  let doctor: string
  let platform: string
  beforeAll(async () => {
    seeded = await createTestApp({ clientDir: dir })
    doctor = await login(seeded.app, demoEmail('doctor'))
    platform = await loginSuperAdmin(seeded.app)
  }, 60_000)
  afterAll(async () => {
    await seeded?.close()
  })
  const page = (url: string, cookie?: string) =>
    seeded.app.inject({
      method: 'GET',
      url,
      headers: { host: 'crm.example.in', ...(cookie ? { cookie } : {}) },
    })
  const fetchPreload = (href: string) =>
    `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${href}" />`

  it("asks for the screen's chunks and first reads at once for a hospital member", async () => {
    const res = await page('/patients', doctor)
    expect(res.statusCode).toBe(200)
    expect(res.headers.vary).toMatch(/Cookie/)
    expect(res.headers['cache-control']).toBe('no-cache')
    const html = res.body
    expect(html).toContain(fetchPreload('/api/auth/user'))
    expect(html).toContain(fetchPreload('/api/patients?sort=recent&amp;limit=30&amp;count=1'))
    for (const file of ['app-7', 'staff-app-8', 'shared-4', 'patients-page-9'])
      expect(html).toContain(`<link rel="modulepreload" crossorigin href="/assets/${file}.js" />`)
    expect(html).not.toContain('jsx-1.js" />')
    expect(html).not.toContain('home-page-10')
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'))
    // The first paint is the HTML's own spinner, not the last chunk's.
    expect(html).toContain(`<div id="root">${STAFF_FIRST_PAINT}</div>`)
  })

  it("never asks for a hospital's data in a platform account's HTML, nor with a stale cookie", async () => {
    for (const cookie of [platform, 'arogya.session_token=abc.def']) {
      for (const url of ['/patients', '/', '/dashboard']) {
        const html = (await page(url, cookie)).body
        expect(html, `${url} for ${cookie.slice(0, 30)}`).not.toContain('as="fetch"')
        expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/app-7.js" />')
      }
    }
  })

  it('preloads nothing for a visitor without a session cookie', async () => {
    const html = (await page('/patients')).body
    expect(html).not.toContain('preload')
    expect(html).not.toContain('role="status"')
    expect(html).toContain('<title>Default title</title>')
  })

  it("gives the signed-in home its own reads, and a signed-out visitor the landing page's", async () => {
    const home = (await page('/', doctor)).body
    expect(home).toContain(fetchPreload('/api/stats'))
    expect(home).toContain(fetchPreload('/api/leads?limit=5'))
    expect(home).toContain('home-page-10.js')
    expect(home).not.toContain('landing-page-3.js')
    const landing = (await page('/')).body
    expect(landing).not.toContain('as="fetch"')
    expect(landing).not.toContain('home-page-10.js')
  })
})

describe('robots.txt and sitemap.xml', () => {
  it('serves a real robots.txt pointing at the sitemap', async () => {
    const res = await get('/robots.txt')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toMatch(/^User-agent: \*$/m)
    expect(res.body).toMatch(/^Disallow: \/api\/$/m)
    expect(res.body).toContain('Sitemap: http://crm.example.in/sitemap.xml')
    expect(res.body).not.toContain('<html')
  })

  it('lists the three marketing pages in sitemap.xml', async () => {
    const res = await get('/sitemap.xml')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/xml/)
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    expect(locs).toEqual([
      'http://crm.example.in/',
      'http://crm.example.in/pricing',
      'http://crm.example.in/add-ons',
    ])
  })
})

describe('head helpers', () => {
  it('escapes text that reaches the HTML', () => {
    const html = renderMarketingHtml(
      template,
      { path: '/', title: 'A <b> & "c"', description: "it's", priority: 1 },
      {
        origin: 'http://x',
        signedOut: false,
        preload: [],
      },
    )
    expect(html).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot;</title>')
    expect(html).toContain('content="it&#39;s"')
  })

  it('prefers BASE_URL and refuses a strange Host header', () => {
    expect(requestOrigin('https://arogya.example/app/', 'http', 'evil')).toBe(
      'https://arogya.example/app',
    )
    expect(requestOrigin(undefined, 'https', 'crm.example.in:8443')).toBe(
      'https://crm.example.in:8443',
    )
    expect(requestOrigin(undefined, 'http', 'a"><script>')).toBe('http://localhost')
  })

  it('recognises the session cookie, plain or __Secure-', () => {
    expect(hasSessionCookie(undefined)).toBe(false)
    expect(hasSessionCookie('arogya.session_token=')).toBe(false)
    expect(hasSessionCookie('x=1; __Secure-arogya.session_token=t')).toBe(true)
    expect(hasSessionCookie('arogya.session_data=t')).toBe(false)
  })
})
