// npm run docs:screenshots: the user guide's pictures, taken from the demo so they never go stale.
//
// Builds the client and the server (the bundle-size report is left to npm run build), starts the
// built server on a fresh embedded database
// with the demo data, signs in through the real sign-in page as the demo hospital's admin (and
// as the super admin, who enrols in two-factor on the way), and writes one 1280x800 PNG per
// screen into docs/user-guide/images/. Chromium: /usr/bin/chromium, or CHROMIUM_PATH.
// SCREENSHOTS_PORT picks the port (default 5508); SCREENSHOTS_ONLY=leads,billing takes some.
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import { chromium, type Browser, type Page } from 'playwright-core'

const PORT = Number(process.env.SCREENSHOTS_PORT ?? 5508)
const BASE = `http://127.0.0.1:${PORT}`
const OUT = 'docs/user-guide/images'
const PASSWORD = 'arogya-demo-2026'
const ADMIN = 'admin@sanjeevani.demo'
const SUPER_ADMIN = 'superadmin@arogya.demo'
/** The first demo hospital's booking page and public FAQ page. */
const SLUG = 'sanjeevani-multispeciality-hospital-pune'
const VIEWPORT = { width: 1280, height: 800 }
const only = process.env.SCREENSHOTS_ONLY?.split(',').map((s) => s.trim())

interface Shot {
  /** File name without .png. */
  name: string
  path: string
  /** Text that shows once the screen has its data. */
  ready?: string
  /** Something to do before the picture (open a tab, a dialog). */
  before?: (page: Page) => Promise<void>
}

const signedOut: Shot[] = [
  { name: 'sign-in', path: '/login', ready: 'Sign In' },
  { name: 'landing', path: '/' },
  { name: 'booking', path: `/book/${SLUG}` },
  { name: 'public-faq', path: `/h/${SLUG}/faq` },
]

const staff: Shot[] = [
  { name: 'home', path: '/' },
  { name: 'leads', path: '/dashboard' },
  { name: 'patients', path: '/patients' },
  { name: 'manual-patient', path: '/manual-patient' },
  { name: 'appointments', path: '/appointments' },
  { name: 'billing', path: '/billing' },
  { name: 'campaigns', path: '/campaigns' },
  { name: 'lead-generation', path: '/lead-generation' },
  { name: 'live-monitoring', path: '/live-monitoring' },
  { name: 'faqs', path: '/faqs' },
  { name: 'support', path: '/support' },
  { name: 'backup', path: '/backup' },
  { name: 'admin', path: '/admin' },
  {
    name: 'settings',
    path: '/settings',
    before: (page) => page.getByRole('tab', { name: 'General' }).click(),
  },
  {
    name: 'settings-integrations',
    path: '/settings',
    before: (page) => page.getByRole('tab', { name: 'Integrations' }).click(),
  },
  { name: 'sandbox-outbox', path: '/messaging/sandbox' },
]

const platform: Shot[] = [{ name: 'super-admin', path: '/super-admin' }]

const wanted = (shots: Shot[]) => shots.filter((s) => !only || only.includes(s.name))

/** The same build as npm start's, without the bundle budget (pictures need no budget). */
function build(): void {
  for (const [cmd, args] of [
    ['npx', ['vite', 'build', '--logLevel', 'warn']],
    ['node', ['scripts/precompress.mjs']],
    ['npm', ['run', '--silent', 'build:server']],
  ] as const) {
    const result = spawnSync(cmd, args, { stdio: 'inherit' })
    if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`)
  }
}

function startServer(dataDir: string) {
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/index.mjs'], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SNAPSHOT_DIR: `${dataDir}-snapshots`,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
  })
  return {
    stop: () => {
      // The whole group: the server and anything it started.
      if (server.pid) {
        try {
          process.kill(-server.pid, 'SIGTERM')
        } catch {
          // already gone
        }
      }
    },
    exited: new Promise<number | null>((resolve) => server.on('exit', resolve)),
  }
}

async function waitForServer(): Promise<void> {
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${BASE}/readyz`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000))
  }
  throw new Error(`The server did not answer ${BASE}/readyz within 3 minutes`)
}

/** Once finite animations have ended and no skeleton or spinner is left on the page. */
async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        !document.querySelector('.animate-pulse, .animate-spin, [aria-busy="true"]') &&
        document
          .getAnimations()
          .every(
            (a) =>
              a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity,
          ),
      undefined,
      { timeout: 20_000 },
    )
    .catch(() => console.warn(`  (still loading after 20 s: ${page.url()})`))
  await page.waitForTimeout(600)
}

async function shoot(page: Page, shot: Shot): Promise<void> {
  await page.goto(`${BASE}${shot.path}`)
  if (shot.ready) await page.getByText(shot.ready).first().waitFor()
  else await page.locator('h1').first().waitFor({ timeout: 15_000 })
  await settle(page)
  if (shot.before) {
    await shot.before(page)
    await settle(page)
  }
  await page.screenshot({ path: join(OUT, `${shot.name}.png`) })
  console.log(`  ${OUT}/${shot.name}.png`)
}

function totpNow(secret: string, step = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 })
  return totp.generate({ timestamp: Date.now() + step * 30_000 })
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${BASE}/api/login`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  const enrol = page.getByRole('heading', { name: 'Set up two-factor authentication' })
  await nav.or(enrol).first().waitFor()
  if (await enrol.isVisible()) {
    // The super admin's first sign-in: enrol as the screen asks (any authenticator app would do).
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Continue' }).click()
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '')
    await page.getByLabel('6-digit code from your app').fill(totpNow(secret))
    await page.getByRole('button', { name: 'Turn on two-factor' }).click()
  }
  await nav.waitFor()
}

async function session(browser: Browser, shots: Shot[], email?: string): Promise<void> {
  if (!shots.length) return
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' })
  // The leads screen's welcome card and tour are for a first visit, not for the pictures.
  await context.addInitScript(() => localStorage.setItem('arogya.tutorial.dismissed', 'true'))
  const page = await context.newPage()
  if (email) await signIn(page, email)
  for (const shot of shots) await shoot(page, shot)
  await context.close()
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true })
  build()
  const dataDir = mkdtempSync(join(tmpdir(), 'arogya-docs-'))
  const server = startServer(dataDir)
  let browser: Browser | undefined
  try {
    await Promise.race([
      waitForServer(),
      server.exited.then((code) => {
        throw new Error(`The server stopped (exit ${code}) before it was ready`)
      }),
    ])
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    })
    console.log('Taking the user guide screenshots:')
    await session(browser, wanted(signedOut))
    await session(browser, wanted(staff), ADMIN)
    await session(browser, wanted(platform), SUPER_ADMIN)
  } finally {
    await browser?.close()
    server.stop()
    await server.exited
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(`${dataDir}-snapshots`, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
